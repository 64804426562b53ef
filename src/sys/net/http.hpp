#pragma once
// The HttpClient seam: libcurl for real, a loopback server in tests
// (tests/http). Registry lookups and notifications go through it.
#include "core/base/string_table.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace bootbench::sys {

enum class HttpMethod { get, head, post };
inline constexpr core::Named<HttpMethod> kMethodNames[] = {
    {"GET", HttpMethod::get}, {"HEAD", HttpMethod::head}, {"POST", HttpMethod::post}};
const char* to_string(HttpMethod method);

struct HttpHeader {
    std::string name;
    std::string value;
};
using HttpHeaders = std::vector<HttpHeader>;

struct HttpRequest {
    HttpMethod method = HttpMethod::get;
    std::string url;
    HttpHeaders headers;
    std::string body;              // sent with post
    double timeout_s = 30;         // the whole exchange, redirects included
    double connect_timeout_s = 10; // each connection; capped by timeout_s
    // A PEM bundle to trust instead of the system's CAs (a registry behind a
    // private CA; the tests' self-signed server). Verification stays on.
    std::string ca_file;
};

struct HttpResponse {
    long status = 0;
    HttpHeaders headers; // of the final response, after redirects
    std::string body;
    std::string final_url; // where the redirects ended

    // The first header named `name` (case-insensitive), or "".
    std::string header(std::string_view name) const;
    std::vector<std::string> headers_named(std::string_view name) const;
};

// Redirects followed before the request fails; manifests and notification
// services need one or two.
inline constexpr long kMaxRedirects = 5;
// Manifests and notification answers are small; a larger body is an error,
// not a memory hazard (the OCI spec lets registries refuse manifests > 4 MiB).
inline constexpr size_t kMaxBodyBytes = 8u << 20;

class HttpClient {
  public:
    virtual ~HttpClient() = default;
    // Every HTTP status is a response. A transport failure (name lookup,
    // connect, TLS, timeout, too many redirects, body too large) throws
    // bootbench::Error naming the method and the URL (without credentials).
    virtual HttpResponse request(const HttpRequest& request) = 0;
};

// libcurl's easy API. TLS peers and host names are always verified; a
// redirect from https never goes to plain http; Authorization headers are
// not sent to another host after a redirect (libcurl's own rule).
class CurlHttpClient final : public HttpClient {
  public:
    CurlHttpClient();
    HttpResponse request(const HttpRequest& request) override;
};

// `url` without "user:password@", for messages and logs.
std::string display_url(const std::string& url);

} // namespace bootbench::sys
