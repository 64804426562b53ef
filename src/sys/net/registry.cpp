#include "sys/net/registry.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/image/image_builds.hpp"
#include "sys/net/registry_session.hpp"

#include <glib.h>
#include <optional>
#include <sys/utsname.h>

namespace bootbench::sys {

namespace {

using core::ImageRef;

constexpr const char* kPrivateAdvice =
    "bootbench resolves digests anonymously only: for a private image set pin_digest = false "
    "for this target, or select it by checksum";
constexpr const char* kPrivateBuildsAdvice =
    "bootbench reads registries anonymously only: a private image's builds cannot be listed; "
    "bisect its ostree ref instead (good and bad as { refspec, commit })";

std::string image_name(const ImageRef& ref) {
    core::ImageRef bare = ref;
    bare.transport.clear();
    return core::to_string(bare);
}

std::string content_digest(const std::string& body, const std::string& algorithm) {
    GChecksumType type = algorithm == "sha512" ? G_CHECKSUM_SHA512 : G_CHECKSUM_SHA256;
    g_autofree gchar* hex = g_compute_checksum_for_data(
        type, reinterpret_cast<const guchar*>(body.data()), body.size());
    return algorithm + ":" + hex;
}

// Runs one lookup. Its errors quote the registry's answers (headers, JSON
// fields, libcurl's words about its URLs): made printable here, once, so
// that a hostile registry cannot drive the user's terminal.
template <class F> auto doing(const std::string& what, F lookup) {
    try {
        return lookup();
    } catch (const Error& e) {
        throw Error(what + ": " + core::printable(e.what()), e.code());
    }
}

RegistryResource manifest(const RegistrySession& s, const ImageRef& ref,
                          const std::string& selector) {
    return {s.url("manifests/" + selector), core::manifest_accept_header(),
            "registry " + ref.registry + " has no manifest '" + selector + "' in repository " +
                ref.repository + "; check the image name and tag"};
}

RegistryResource blob(const RegistrySession& s, const ImageRef& ref, const std::string& digest) {
    return {s.url("blobs/" + digest), "",
            "registry " + ref.registry + " has no blob " + digest + " in repository " +
                ref.repository + ", which the image's manifest names: the image is incomplete"};
}

RegistryResource tag_list(const ImageRef& ref, const std::string& url) {
    return {url, "application/json",
            "registry " + ref.registry + " has no repository " + ref.repository +
                "; check the image name"};
}

// The digest the registry claims, checked; "" when it sent none.
std::string claimed_digest(const HttpResponse& res, const ImageRef& ref) {
    std::string digest = res.header("Docker-Content-Digest");
    if (!digest.empty() && !core::is_valid_digest(digest))
        throw Error("the registry sent Docker-Content-Digest '" +
                    core::cap_text(digest, 200, "it") + "', which is not a digest");
    if (!ref.digest.empty() && !digest.empty() && digest != ref.digest)
        throw Error("the registry sent Docker-Content-Digest " + digest + " for " + ref.digest);
    return ref.digest.empty() ? digest : ref.digest;
}

void check_content(const HttpResponse& res, const std::string& digest) {
    std::string actual = content_digest(res.body, digest.substr(0, digest.find(':')));
    if (actual != digest)
        throw Error("GET " + display_url(res.final_url) + " returned content whose digest is " +
                    actual + ", not " + digest +
                    ": the registry or a proxy changed it; try again later");
}

std::string fetch_verified(RegistrySession& s, const RegistryResource& resource,
                           const std::string& digest) {
    HttpResponse res = s.fetch(HttpMethod::get, resource);
    check_content(res, digest);
    return res.body;
}

// From the manifest a GET fetched: an image manifest, or the index's entry
// for `platform`.
core::ResolvedImage resolved_from(const HttpResponse& get, const std::string& digest,
                                  const ImageRef& ref, const core::Platform& platform) {
    if (core::manifest_kind(get.header("Content-Type"), get.body, "the manifest") ==
        core::ManifestKind::image)
        return core::make_resolved(ref, "", digest, platform);
    auto entries = core::parse_index(get.body, "the index");
    return core::make_resolved(
        ref, digest, core::pick_platform(entries, platform, "the index").digest, platform);
}

// HEAD the manifest (a HEAD is not counted as a pull by Docker Hub); GET it
// by digest only for an index, or when the registry sent no digest.
core::ResolvedImage resolve_in(RegistrySession& s, const ImageRef& ref,
                               const core::Platform& platform) {
    HttpResponse head = s.fetch(HttpMethod::head, manifest(s, ref, core::manifest_selector(ref)));
    std::string digest = claimed_digest(head, ref);
    auto kind = core::manifest_kind_of(head.header("Content-Type"), "the manifest");
    if (kind == core::ManifestKind::image && !digest.empty())
        return core::make_resolved(ref, "", digest, platform);
    HttpResponse get = s.fetch(
        HttpMethod::get, manifest(s, ref, digest.empty() ? core::manifest_selector(ref) : digest));
    if (digest.empty())
        digest = content_digest(get.body, "sha256");
    check_content(get, digest);
    return resolved_from(get, digest, ref, platform);
}

// Appends one page's tags to `tags`; the next page's URL, if there is one.
std::optional<std::string> read_tag_page(RegistrySession& s, const ImageRef& ref,
                                         const std::string& url, std::vector<std::string>& tags) {
    HttpResponse res = s.fetch(HttpMethod::get, tag_list(ref, url));
    std::vector<std::string> page = core::parse_tag_list(res.body, "GET " + display_url(url));
    tags.insert(tags.end(), page.begin(), page.end());
    return core::next_page_url(core::join(res.headers_named("Link"), ", "), s.base());
}

} // namespace

core::ResolvedImage resolve_digest(const ImageRef& ref, HttpClient& http,
                                   const core::Platform& platform, const RegistryOptions& options) {
    return doing("cannot resolve " + image_name(ref) + " to a digest", [&] {
        RegistrySession s(ref, http, options, kPrivateAdvice);
        return resolve_in(s, ref, platform);
    });
}

std::vector<std::string> list_tags(const ImageRef& ref, HttpClient& http,
                                   const RegistryOptions& options) {
    return doing("cannot list the tags of " + core::repository_name(ref), [&] {
        RegistrySession s(ref, http, options, kPrivateBuildsAdvice);
        std::vector<std::string> tags;
        std::optional<std::string> page = s.url("tags/list?n=" + std::to_string(kTagsPerPage));
        for (int pages = 0; page; ++pages) {
            if (pages == kMaxTagPages)
                throw Error("the tag list goes on after " + std::to_string(kMaxTagPages) +
                            " pages (" + std::to_string(tags.size()) +
                            " tags), the most bootbench reads");
            page = read_tag_page(s, ref, *page, tags);
        }
        return tags;
    });
}

core::ImageBuild describe_image(const ImageRef& ref, HttpClient& http, const core::Platform& platform,
                                const RegistryOptions& options) {
    return doing("cannot read the image config of " + image_name(ref), [&] {
        RegistrySession s(ref, http, options, kPrivateBuildsAdvice);
        core::ResolvedImage resolved = resolve_in(s, ref, platform);
        const std::string& at = resolved.manifest_digest;
        std::string config = core::config_digest_of(fetch_verified(s, manifest(s, ref, at), at),
                                                    "the manifest " + at);
        core::ImageConfigInfo info = core::parse_image_config(
            fetch_verified(s, blob(s, ref, config), config), "the image config " + config);
        return core::ImageBuild{ref.tag, core::staging_digest(resolved), info.created, info.version};
    });
}

core::ResolvedImage resolve_target_image(const core::Target& target, HttpClient& http,
                                         const RegistryOptions& options) {
    std::string prefix = "target '" + target.name + "': ";
    if (target.selector.kind != core::SelectorKind::image)
        throw Error(prefix + "selected by " + core::to_string(target.selector.kind) +
                    ", not by image: there is no tag to resolve");
    try {
        return resolve_digest(core::parse_image_ref(target.selector.value), http, host_platform(),
                              options);
    } catch (const Error& e) {
        throw Error(prefix + e.what(), e.code());
    }
}

core::Platform host_platform() {
    utsname u{};
    if (uname(&u) != 0)
        throw Error("uname failed: cannot tell this machine's architecture");
    return core::platform_from_machine(u.machine);
}

} // namespace bootbench::sys
