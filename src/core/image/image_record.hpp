#pragma once
// What an image target's tag resolved to at start, recorded in the state
// (`images`) and in every run of that target (`image`). Its JSON keys are
// written and read here only.
#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::core {

struct ResolvedImage {
    std::string reference;        // the target's reference, fully qualified (to_string)
    std::string index_digest;     // the index / manifest list, when the tag names one
    std::string manifest_digest;  // the image manifest for this machine's platform
    std::string platform;         // "linux/amd64"
    std::string pinned_reference; // what staging uses when pin_digest = true
    // Keys this version does not know, from a file another version wrote:
    // kept, and written back as they were.
    nlohmann::json unknown = nlohmann::json::object();

    bool operator==(const ResolvedImage&) const = default;
};

// "sha256:<64 lower-case hex>" or "sha512:<128 lower-case hex>".
bool is_valid_digest(const std::string& digest);

// {"reference", "index_digest", "manifest_digest", "platform",
// "pinned_reference"}; an absent index digest is null.
nlohmann::json to_json(const ResolvedImage& image);
// For the state, which stages and checks by it: throws bootbench::Error
// naming `where` and the field when malformed or a digest is not one.
ResolvedImage resolved_image_from_json(const nlohmann::json& j, const std::string& where);
// For a run's result, which only names it: any field may be missing (read as
// ""); throws only when `j` is not an object.
ResolvedImage recorded_image_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
