#include "sys/net/registry.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"

#include <glib.h>
#include <sys/utsname.h>

namespace bootbench::sys {

namespace {

using core::ImageRef;

constexpr const char* kPrivateAdvice =
    "bootbench resolves digests anonymously only: for a private image set pin_digest = false "
    "for this target, or select it by checksum";

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

// The requests of one resolution, sharing the token once one was needed.
class ManifestFetcher {
  public:
    ManifestFetcher(const ImageRef& ref, HttpClient& http, const RegistryOptions& options)
        : ref_(ref), http_(http), options_(options),
          base_(options.base_url.empty() ? core::registry_base_url(ref) : options.base_url) {
        if (base_.rfind("https://", 0) != 0 && base_.rfind("http://", 0) != 0)
            fail("registry base URL '" + base_ + "' must start with https:// or http://");
        while (!base_.empty() && base_.back() == '/')
            base_.pop_back();
    }

    HttpResponse fetch(HttpMethod method, const std::string& selector) {
        std::string url = base_ + "/v2/" + ref_.repository + "/manifests/" + selector;
        HttpResponse res = send(method, url);
        if (res.status == 401 && token_.empty()) {
            token_ = anonymous_token(res, method, url);
            res = send(method, url);
        }
        check_status(res, method, url, selector);
        return res;
    }

    // `what` quotes the registry's answers (headers, JSON fields): printable
    // only, so that a hostile registry cannot drive the user's terminal.
    [[noreturn]] void fail(const std::string& what) const {
        throw Error("cannot resolve " + image_name(ref_) + " to a digest: " + core::printable(what));
    }

  private:
    HttpResponse send(HttpMethod method, const std::string& url) {
        HttpRequest req;
        req.method = method;
        req.url = url;
        req.headers = {{"Accept", core::manifest_accept_header()}};
        req.timeout_s = options_.timeout_s;
        req.connect_timeout_s = options_.connect_timeout_s;
        req.ca_file = options_.ca_file;
        if (!token_.empty())
            req.headers.push_back({"Authorization", "Bearer " + token_});
        try {
            return http_.request(req);
        } catch (const Error& e) {
            fail(e.what());
        }
    }

    std::string anonymous_token(const HttpResponse& res, HttpMethod method,
                                const std::string& url) {
        std::string said =
            std::string(to_string(method)) + " " + display_url(url) + " answered HTTP 401";
        std::vector<std::string> challenges = res.headers_named("WWW-Authenticate");
        if (challenges.empty())
            fail(said + " without a WWW-Authenticate challenge: the image is private; " +
                 kPrivateAdvice);
        core::BearerChallenge challenge;
        try {
            challenge = core::parse_bearer_challenge(challenges.front());
        } catch (const Error& e) {
            fail(said + ": " + e.what() + "; " + kPrivateAdvice);
        }
        return fetch_token(core::token_url(challenge, ref_.repository));
    }

    std::string fetch_token(const std::string& url) {
        HttpResponse res = send(HttpMethod::get, url);
        std::string where = display_url(url);
        if (res.status == 401 || res.status == 403)
            fail("token request GET " + where + " answered HTTP " + std::to_string(res.status) +
                 ": anonymous access is denied; " + kPrivateAdvice);
        if (res.status != 200)
            fail("token request GET " + where + " answered HTTP " + std::to_string(res.status) +
                 "; try again later");
        try {
            return core::parse_token_response(res.body, where);
        } catch (const Error& e) {
            fail(e.what());
        }
    }

    void check_status(const HttpResponse& res, HttpMethod method, const std::string& url,
                      const std::string& selector) const {
        if (res.status >= 200 && res.status < 300)
            return;
        std::string said = std::string(to_string(method)) + " " + display_url(url) +
                           " answered HTTP " + std::to_string(res.status);
        if (res.status == 404)
            fail(said + ": registry " + ref_.registry + " has no manifest '" + selector +
                 "' in repository " + ref_.repository + "; check the image name and tag");
        if (res.status == 401 || res.status == 403)
            fail(said +
                 " even with an anonymous token: the image is private (some registries answer so "
                 "for a misspelt name too); " +
                 kPrivateAdvice);
        if (res.status == 429)
            fail(said +
                 " (too many requests): the registry limits anonymous requests; try again later");
        if (res.status >= 500)
            fail(said + ": the registry has a problem; try again later");
        fail(said + ", which bootbench does not expect from a registry");
    }

    const ImageRef& ref_;
    HttpClient& http_;
    const RegistryOptions& options_;
    std::string base_;
    std::string token_;
};

// The digest the registry claims, checked; "" when it sent none.
std::string claimed_digest(const ManifestFetcher& f, const HttpResponse& res, const ImageRef& ref) {
    std::string digest = res.header("Docker-Content-Digest");
    if (!digest.empty() && !core::is_valid_digest(digest))
        f.fail("the registry sent Docker-Content-Digest '" + core::cap_text(digest, 200, "it") +
               "', which is not a digest");
    if (!ref.digest.empty() && !digest.empty() && digest != ref.digest)
        f.fail("the registry sent Docker-Content-Digest " + digest + " for " + ref.digest);
    return ref.digest.empty() ? digest : ref.digest;
}

void check_content(const ManifestFetcher& f, const HttpResponse& res, const std::string& digest) {
    std::string actual = content_digest(res.body, digest.substr(0, digest.find(':')));
    if (actual != digest)
        f.fail("GET " + display_url(res.final_url) + " returned content whose digest is " + actual +
               ", not " + digest + ": the registry or a proxy changed it; try again later");
}

// Runs a core/ decision; its error becomes "cannot resolve <image>: ...".
template <class F> auto decided(const ManifestFetcher& f, F decide) {
    try {
        return decide();
    } catch (const Error& e) {
        f.fail(e.what());
    }
}

} // namespace

core::ResolvedImage resolve_digest(const ImageRef& ref, HttpClient& http,
                                   const core::Platform& platform, const RegistryOptions& options) {
    ManifestFetcher f(ref, http, options);
    HttpResponse head = f.fetch(HttpMethod::head, core::manifest_selector(ref));
    std::string digest = claimed_digest(f, head, ref);
    auto kind = decided(
        f, [&] { return core::manifest_kind_of(head.header("Content-Type"), "the manifest"); });
    if (kind == core::ManifestKind::image && !digest.empty())
        return decided(f, [&] { return core::make_resolved(ref, "", digest, platform); });
    HttpResponse get =
        f.fetch(HttpMethod::get, digest.empty() ? core::manifest_selector(ref) : digest);
    if (digest.empty())
        digest = content_digest(get.body, "sha256");
    check_content(f, get, digest);
    return decided(f, [&] {
        if (core::manifest_kind(get.header("Content-Type"), get.body, "the manifest") ==
            core::ManifestKind::image)
            return core::make_resolved(ref, "", digest, platform);
        auto entries = core::parse_index(get.body, "the index");
        return core::make_resolved(
            ref, digest, core::pick_platform(entries, platform, "the index").digest, platform);
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
