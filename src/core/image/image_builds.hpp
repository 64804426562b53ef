#pragma once
// An image repository's builds as a registry describes them, for `bootbench
// bisect` over an image's history: the repository's tags, page by page, and
// what each image's config says of its build (when it was created, which
// version it is). The pure half: sys/net/registry.cpp does the requests.
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// The tags of a `GET /v2/<repo>/tags/list` answer, {"name": ..., "tags":
// [...]}, in the registry's order; "tags": null is a repository without tags.
// Throws an Error naming `where` for malformed JSON, a missing "tags", or a
// tag that is not a string or not a valid tag.
std::vector<std::string> parse_tag_list(const std::string& body, const std::string& where);

// The next page of a tag list from its RFC 5988 Link header (several headers
// joined with ", "): `</v2/x/tags/list?n=100&last=foo>; rel="next"`. A path is
// taken from the registry's root, `base_url`; an absolute http(s) URL is kept,
// except plain http when the base is https. nullopt when no link is
// rel="next": the last page. Throws an Error for a malformed header.
std::optional<std::string> next_page_url(const std::string& link_header,
                                         const std::string& base_url);

// Media types of an image's config blob (a signature or another artifact
// names another type there).
inline constexpr const char* kOciConfig = "application/vnd.oci.image.config.v1+json";
inline constexpr const char* kDockerConfig = "application/vnd.docker.container.image.v1+json";

// The digest of an image manifest's config blob. Throws an Error naming
// `where` for malformed JSON, a config whose mediaType is not an image
// config's, or a digest that is not one.
std::string config_digest_of(const std::string& manifest_body, const std::string& where);

// One build of an image's repository, as the registry describes it: for
// ordering a repository's builds by age (core/bisect/image_history).
struct ImageBuild {
    std::string tag;     // the reference's
    std::string digest;  // "sha256:<hex>", what staging pins to (core::staging_digest)
    std::string created; // the image config's, RFC 3339; "" when it has none
    std::string version; // its version label as the image wrote it; "" when none

    bool operator==(const ImageBuild&) const = default;
};

// What an image's config says of its build. `created`: RFC 3339 as
// parse_instant reads it, "" when the config has none. `version`: the label
// org.opencontainers.image.version, else the label "version", else "", as
// the image wrote it (printable() it before showing it).
struct ImageConfigInfo {
    std::string created;
    std::string version;

    bool operator==(const ImageConfigInfo&) const = default;
};

// Throws an Error naming `where` for malformed JSON, a `created` that is not
// an RFC 3339 time, or a label that is not a string.
ImageConfigInfo parse_image_config(const std::string& body, const std::string& where);

} // namespace bootbench::core
