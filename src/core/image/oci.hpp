#pragma once
// Image references and the pure half of the OCI distribution protocol: what a
// target's `image` names, how to pin it to a digest, how a registry asks for
// a token, and which manifest of an index fits this machine. sys/net/registry.cpp
// does the requests; every decision is made here, from values.
#include "core/image/image_record.hpp"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// An image reference as targets write it, split into its parts.
//   ostree-image-signed:docker://ghcr.io/ublue-os/bluefin-dx:stable
//   ostree-unverified-registry:quay.io/fedora/fedora-bootc:41
//   docker://fedora@sha256:<64 hex>      (docker.io/library/fedora)
struct ImageRef {
    std::string transport;  // as written, up to the name: "ostree-image-signed:docker://", "" ...
    std::string registry;   // host[:port] as the user means it; "docker.io" when omitted
    std::string repository; // "ublue-os/bluefin-dx"; "library/x" for docker.io one-word names
    std::string tag;        // "latest" when the reference names neither tag nor digest
    std::string digest;     // "sha256:<hex>" when the reference names one

    bool operator==(const ImageRef&) const = default;
};

// A tag as the distribution spec allows it (tag lists are checked with it too).
bool is_valid_tag(const std::string& tag);
inline constexpr const char* kTagRule = "letters, digits, _ . -; at most 128";

// Throws bootbench::Error (exit 2) that quotes the reference and says what is
// wrong: an unknown or non-registry transport (oci:, containers-storage:...),
// an empty or upper-case repository, a bad tag or digest.
ImageRef parse_image_ref(const std::string& text);

// The fully qualified name, transport kept: "<transport><registry>/<repo>[:tag][@digest]".
std::string to_string(const ImageRef& ref);

// The repository alone, "<registry>/<repo>": what a tag or digest is of.
std::string repository_name(const ImageRef& ref);

// The same image pinned to `digest`: the tag is dropped (containers-image
// refuses "name:tag@digest" in some transports) and the transport is kept.
// Throws when `digest` is not a valid digest.
std::string pin_reference(const ImageRef& ref, const std::string& digest);

// "https://registry-1.docker.io" for docker.io, else "https://<registry>".
std::string registry_base_url(const ImageRef& ref);

// What the manifest request names: the digest when there is one, else the tag.
const std::string& manifest_selector(const ImageRef& ref);

// A `WWW-Authenticate: Bearer realm="...",service="...",scope="..."` header.
struct BearerChallenge {
    std::string realm;
    std::string service;
    std::string scope;
};

// Throws bootbench::Error when the header is not a Bearer challenge with a
// realm (a Basic challenge means the registry wants a password: the message
// says so).
BearerChallenge parse_bearer_challenge(const std::string& header);

// realm?service=...&scope=... with both values percent-encoded; the scope is
// "repository:<repo>:pull" when the challenge named none.
std::string token_url(const BearerChallenge& challenge, const std::string& repository);

// The token from a token endpoint's JSON body ({"token"} or {"access_token"}).
// Throws an Error naming `where` (a URL) when there is none; never quotes it.
std::string parse_token_response(const std::string& body, const std::string& where);

// RFC 3986 unreserved characters are kept, every other byte is %XX.
std::string percent_encode(const std::string& text);

// A platform as OCI indexes name it: os "linux", architecture "amd64",
// "arm64", "arm", "386", "ppc64le", "s390x", "riscv64"; variant "v7", "v8".
struct Platform {
    std::string os = "linux";
    std::string architecture;
    std::string variant;

    bool operator==(const Platform&) const = default;
};

// "linux/amd64", "linux/arm/v7".
std::string to_string(const Platform& p);

// The platform of a machine from `uname -m`: x86_64 -> amd64, aarch64 ->
// arm64 (v8), armv7l -> arm/v7, i686 -> 386; other names are kept.
Platform platform_from_machine(const std::string& machine);

// Media types a manifest request accepts, most wanted first.
inline constexpr const char* kOciIndex = "application/vnd.oci.image.index.v1+json";
inline constexpr const char* kOciManifest = "application/vnd.oci.image.manifest.v1+json";
inline constexpr const char* kDockerList =
    "application/vnd.docker.distribution.manifest.list.v2+json";
inline constexpr const char* kDockerManifest =
    "application/vnd.docker.distribution.manifest.v2+json";
// The value of the Accept header of a manifest request.
std::string manifest_accept_header();

enum class ManifestKind { index, image };

// The kind a Content-Type names, or nothing when it names neither (absent,
// application/json...). Throws an Error naming `where` for a schema 1 type.
std::optional<ManifestKind> manifest_kind_of(const std::string& content_type,
                                             const std::string& where);

// From the Content-Type header (parameters ignored) and, when that is absent
// or generic, the body's "mediaType" or "manifests" field. Throws an Error
// naming `where` for a media type that is neither (e.g. a v1 schema).
ManifestKind manifest_kind(const std::string& content_type, const std::string& body,
                           const std::string& where);

struct IndexEntry {
    std::string digest;
    std::string media_type;
    Platform platform;
};

// The entries of an OCI index or Docker manifest list. Throws an Error
// naming `where` for malformed JSON or an entry without a valid digest.
std::vector<IndexEntry> parse_index(const std::string& body, const std::string& where);

// The entry for `want`: same os and architecture; when `want` names a
// variant, the same variant (arm64 without a variant counts as v8); when it
// does not, an entry without a variant first. Throws an Error naming `where`
// and listing the platforms the index has when none fits.
const IndexEntry& pick_platform(const std::vector<IndexEntry>& entries, const Platform& want,
                                const std::string& where);


// The digest staging pins to: the index digest when there is one (bootc and
// ostree-rs-ext resolve it to the same platform manifest, and it is the
// digest registries and `skopeo inspect` show for the tag), else the
// manifest digest.
const std::string& staging_digest(const ResolvedImage& image);

// Builds the record; `index_digest` is empty for a tag that names an image.
ResolvedImage make_resolved(const ImageRef& ref, const std::string& index_digest,
                            const std::string& manifest_digest, const Platform& platform);

// After boot: does the booted deployment's image digest (from its origin or
// `bootc status`, which names the platform manifest) match the record? Either
// recorded digest counts.
bool digest_matches(const ResolvedImage& image, const std::string& booted_digest);

// The problem to record when the booted deployment runs another image than
// the one recorded at start; nothing when it matches or when the booted
// digest is unknown ("": the origin does not say).
std::optional<std::string> booted_digest_problem(const ResolvedImage& image,
                                                 const std::string& booted_digest);


} // namespace bootbench::core
