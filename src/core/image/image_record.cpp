#include "core/image/image_record.hpp"

#include "core/base/json_read.hpp"
#include "core/base/regex.hpp"

namespace bootbench::core {

namespace {

constexpr const char* kKeys[] = {"reference", "index_digest", "manifest_digest", "platform", "pinned_reference"};

std::string text_or_empty(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

} // namespace

bool is_valid_digest(const std::string& digest) {
    static const Regex re(R"(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})");
    return re.full_match(digest);
}

nlohmann::json to_json(const ResolvedImage& image) {
    nlohmann::json j = image.unknown;
    j.update({{kKeys[0], image.reference},
              {kKeys[1], image.index_digest.empty() ? nlohmann::json(nullptr) : nlohmann::json(image.index_digest)},
              {kKeys[2], image.manifest_digest},
              {kKeys[3], image.platform},
              {kKeys[4], image.pinned_reference}});
    return j;
}

ResolvedImage resolved_image_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    ResolvedImage image{r.str(kKeys[0]), r.str_or(kKeys[1], ""), r.str(kKeys[2]), r.str(kKeys[3]), r.str(kKeys[4]),
                        unknown_keys(j, kKeys)};
    if (!is_valid_digest(image.manifest_digest))
        r.fail("field 'manifest_digest' is not a digest");
    if (!image.index_digest.empty() && !is_valid_digest(image.index_digest))
        r.fail("field 'index_digest' is not a digest");
    return image;
}

ResolvedImage recorded_image_from_json(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object())
        throw Error(where + ": expected an object");
    ResolvedImage image;
    for (auto [key, field] : {std::pair{kKeys[0], &image.reference}, {kKeys[1], &image.index_digest},
                              {kKeys[2], &image.manifest_digest}, {kKeys[3], &image.platform},
                              {kKeys[4], &image.pinned_reference}})
        *field = text_or_empty(j, key);
    image.unknown = unknown_keys(j, kKeys);
    return image;
}

} // namespace bootbench::core
