#include "sys/net/registry_session.hpp"

#include "core/base/error.hpp"

namespace bootbench::sys {

namespace {

std::string said(HttpMethod method, const std::string& url, long status) {
    return std::string(to_string(method)) + " " + display_url(url) + " answered HTTP " +
           std::to_string(status);
}

} // namespace

RegistrySession::RegistrySession(const core::ImageRef& ref, HttpClient& http,
                                 const RegistryOptions& options, std::string private_advice)
    : ref_(ref), http_(http), options_(options), private_advice_(std::move(private_advice)),
      base_(options.base_url.empty() ? core::registry_base_url(ref) : options.base_url) {
    if (base_.rfind("https://", 0) != 0 && base_.rfind("http://", 0) != 0)
        throw Error("registry base URL '" + base_ + "' must start with https:// or http://");
    while (!base_.empty() && base_.back() == '/')
        base_.pop_back();
}

std::string RegistrySession::url(const std::string& path) const {
    return base_ + "/v2/" + ref_.repository + "/" + path;
}

HttpResponse RegistrySession::fetch(HttpMethod method, const RegistryResource& resource) {
    HttpResponse res = send(method, resource.url, resource.accept);
    if (res.status == 401 && token_.empty()) {
        token_ = anonymous_token(res, method, resource.url);
        res = send(method, resource.url, resource.accept);
    }
    check_status(res, method, resource);
    return res;
}

void RegistrySession::check_status(const HttpResponse& res, HttpMethod method,
                                   const RegistryResource& resource) const {
    if (res.status >= 200 && res.status < 300)
        return;
    std::string what = said(method, resource.url, res.status);
    if (res.status == 404)
        throw Error(what + ": " + resource.missing);
    if (res.status == 401 || res.status == 403)
        throw Error(what +
                    " even with an anonymous token: the image is private (some registries answer "
                    "so for a misspelt name too); " +
                    private_advice_);
    if (res.status == 429)
        throw Error(
            what + " (too many requests): the registry limits anonymous requests; try again later");
    if (res.status >= 500)
        throw Error(what + ": the registry has a problem; try again later");
    throw Error(what + ", which bootbench does not expect from a registry");
}

// The token goes to the registry only: a next page or a redirect elsewhere
// (a CDN) is asked without it, as libcurl does for redirects.
HttpResponse RegistrySession::send(HttpMethod method, const std::string& url,
                                   const std::string& accept) {
    HttpRequest req;
    req.method = method;
    req.url = url;
    if (!accept.empty())
        req.headers.push_back({"Accept", accept});
    req.timeout_s = options_.timeout_s;
    req.connect_timeout_s = options_.connect_timeout_s;
    req.ca_file = options_.ca_file;
    if (!token_.empty() && url.rfind(base_ + "/", 0) == 0)
        req.headers.push_back({"Authorization", "Bearer " + token_});
    return http_.request(req);
}

std::string RegistrySession::anonymous_token(const HttpResponse& res, HttpMethod method,
                                             const std::string& url) {
    std::string what = said(method, url, res.status);
    std::vector<std::string> challenges = res.headers_named("WWW-Authenticate");
    if (challenges.empty())
        throw Error(what + " without a WWW-Authenticate challenge: the image is private; " +
                    private_advice_);
    core::BearerChallenge challenge;
    try {
        challenge = core::parse_bearer_challenge(challenges.front());
    } catch (const Error& e) {
        throw Error(what + ": " + e.what() + "; " + private_advice_);
    }
    return fetch_token(core::token_url(challenge, ref_.repository));
}

std::string RegistrySession::fetch_token(const std::string& url) {
    HttpResponse res = send(HttpMethod::get, url, "");
    std::string what = "token request " + said(HttpMethod::get, url, res.status);
    if (res.status == 401 || res.status == 403)
        throw Error(what + ": anonymous access is denied; " + private_advice_);
    if (res.status != 200)
        throw Error(what + "; try again later");
    return core::parse_token_response(res.body, display_url(url));
}

} // namespace bootbench::sys
