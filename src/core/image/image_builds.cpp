#include "core/image/image_builds.hpp"

#include "core/base/error.hpp"
#include "core/base/json_read.hpp"
#include "core/base/regex.hpp"
#include "core/base/text.hpp"
#include "core/base/time.hpp"
#include "core/image/image_record.hpp"
#include "core/image/oci.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <string_view>

namespace bootbench::core {

namespace {

using json = nlohmann::json;

// A value from a registry's answer, for a message: capped, and escaped so
// that it cannot drive the user's terminal.
std::string quote_value(const std::string& value) {
    return "'" + printable(cap_text(value, 200, "it")) + "'";
}

bool same_nocase(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

json parse_object(const std::string& body, const std::string& where, const char* what) {
    json j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw Error(where + ": " + what + " is not a JSON object");
    return j;
}

std::string tag_at(const json& tags, size_t i, const JsonReader& r) {
    std::string at = "tags[" + std::to_string(i) + "] ";
    if (!tags[i].is_string())
        r.fail(at + "is " + quote_value(json_text(tags[i])) + ", not a string");
    std::string tag = tags[i].get<std::string>();
    if (!is_valid_tag(tag))
        r.fail(at + quote_value(tag) + " is not a valid tag (" + kTagRule + ")");
    return tag;
}

} // namespace

std::vector<std::string> parse_tag_list(const std::string& body, const std::string& where) {
    json j = parse_object(body, where, "the tag list");
    if (j.contains("tags") && j["tags"].is_null())
        return {};
    JsonReader r(j, where);
    const json& tags = r.array("tags");
    std::vector<std::string> out;
    for (size_t i = 0; i < tags.size(); ++i)
        out.push_back(tag_at(tags, i, r));
    return out;
}

namespace {

// One link-value of a Link header: its target, and whether its rel names "next".
struct LinkValue {
    std::string target;
    bool next = false;
};

[[noreturn]] void bad_link(const std::string& header, size_t at) {
    throw Error("the registry's Link header " + quote_value(header) + " is malformed at byte " +
                std::to_string(at) + " (expected <URL>; rel=\"next\")");
}

// A rel value is a list of relation types separated by blanks.
bool names_next(std::string_view rel) {
    for (const std::string& type : split_words(std::string(rel)))
        if (same_nocase(type, "next"))
            return true;
    return false;
}

// The ;-parameters after a link's target, from `i` on; whether one is a
// rel naming "next". A quoted value may hold ';' and ','.
bool read_link_params(const std::string& header, size_t& i) {
    static const Regex param(
        R"re(\G[ \t]*;[ \t]*([^;,=\s]+)[ \t]*(?:=[ \t]*(?:"((?:[^"\\]|\\.)*)"|([^;,\s"]*)))?)re");
    bool next = false;
    for (RegexMatch m = param.search(header, i); m.outcome == RegexMatch::Outcome::match;
         m = param.search(header, i)) {
        i += m.groups[0].size();
        next = next || (same_nocase(m.groups[1], "rel") &&
                        names_next(m.groups[2].empty() ? m.groups[3] : m.groups[2]));
    }
    return next;
}

// The link-values of a header, each "<URL>" and its parameters, ',' between.
std::vector<LinkValue> parse_links(const std::string& header) {
    static const Regex target(R"(\G[\s,]*<([^<>]*)>)");
    static const Regex value_end(R"(\G[ \t]*(,|$))");
    std::vector<LinkValue> links;
    for (size_t i = 0; header.find_first_not_of(" \t\r\n,", i) != std::string::npos;) {
        RegexMatch m = target.search(header, i);
        if (m.outcome != RegexMatch::Outcome::match)
            bad_link(header, header.find_first_not_of(" \t\r\n,", i));
        i += m.groups[0].size();
        LinkValue link{std::string(m.groups[1])};
        link.next = read_link_params(header, i);
        if (value_end.search(header, i).outcome != RegexMatch::Outcome::match)
            bad_link(header, i);
        links.push_back(std::move(link));
    }
    return links;
}

std::string resolve_link(const std::string& target, std::string base_url) {
    while (!base_url.empty() && base_url.back() == '/')
        base_url.pop_back();
    if (starts_with(target, "/") && !starts_with(target, "//"))
        return base_url + target;
    if (starts_with(target, "http://") && starts_with(base_url, "https://"))
        throw Error("the registry's next page of tags " + quote_value(target) +
                    " is on plain http, and the registry on https: not followed");
    if (starts_with(target, "https://") || starts_with(target, "http://"))
        return target;
    throw Error("the registry's next page of tags " + quote_value(target) +
                " is neither an http(s) URL nor a path from the registry's root");
}

} // namespace

std::optional<std::string> next_page_url(const std::string& link_header,
                                         const std::string& base_url) {
    for (const LinkValue& link : parse_links(link_header))
        if (link.next)
            return resolve_link(link.target, base_url);
    return std::nullopt;
}

namespace {

bool is_image_config_type(const std::string& media_type) {
    std::string type = media_type.substr(0, media_type.find(';'));
    type.erase(type.find_last_not_of(" \t") + 1);
    return same_nocase(type, kOciConfig) || same_nocase(type, kDockerConfig);
}

} // namespace

std::string config_digest_of(const std::string& manifest_body, const std::string& where) {
    json j = parse_object(manifest_body, where, "the manifest");
    JsonReader r(j, where);
    JsonReader config = r.child(r.object("config"), "config");
    std::string media_type = config.str_or("mediaType", "");
    if (!media_type.empty() && !is_image_config_type(media_type))
        config.fail("the media type is " + quote_value(media_type) +
                    ", not an image config's: the tag names a signature or another artifact, "
                    "not an image");
    std::string digest = config.str("digest");
    if (!is_valid_digest(digest))
        config.fail(quote_value(digest) + " is not a digest");
    return digest;
}

namespace {

// The first version label that is set; "" when none is.
std::string version_label(const JsonReader& image) {
    if (!image.has("config"))
        return "";
    JsonReader config = image.child(image.object("config"), "config");
    if (!config.has("Labels"))
        return "";
    JsonReader labels = config.child(config.object("Labels"), "Labels");
    for (const char* key : {"org.opencontainers.image.version", "version"})
        if (labels.has(key) && !labels.str(key).empty())
            return labels.str(key);
    return "";
}

} // namespace

ImageConfigInfo parse_image_config(const std::string& body, const std::string& where) {
    json j = parse_object(body, where, "the image config");
    JsonReader r(j, where);
    ImageConfigInfo info{r.str_or("created", ""), version_label(r)};
    if (!info.created.empty() && !parse_instant(info.created))
        r.fail("field 'created' is " + quote_value(info.created) + ", not an RFC 3339 time");
    return info;
}

} // namespace bootbench::core
