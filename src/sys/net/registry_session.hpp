#pragma once
// The requests of one lookup in one repository of a registry: its base URL,
// and the anonymous bearer token a 401 asked for, fetched once and sent with
// every request after it (manifests, pages of tags, blobs). The token flow
// is written here only; sys/net/registry.cpp's lookups are built on it.
#include "core/image/oci.hpp"
#include "sys/net/http.hpp"

#include <string>

namespace bootbench::sys {

// How to reach a registry; every lookup in registry.hpp takes one.
struct RegistryOptions {
    // "" = https://<registry> (registry-1.docker.io for docker.io). Tests
    // give "http://127.0.0.1:PORT": plain http only when asked like that.
    std::string base_url;
    double timeout_s = 30; // each request
    double connect_timeout_s = 10;
    std::string ca_file; // "" = the system's CAs; see HttpRequest::ca_file
};

// What one request asks for.
struct RegistryResource {
    std::string url;     // absolute: RegistrySession::url() makes one from a path
    std::string accept;  // the Accept header; "" sends none
    std::string missing; // what a 404 means, in the user's words, with what to do
};

// Its errors are bootbench::Error with the registry's words in them as they
// came: the lookup that catches them makes them printable once, with its
// "cannot ... <image>: " in front (registry.cpp).
class RegistrySession {
  public:
    // `private_advice`: what to do when the registry asks for credentials,
    // which this lookup cannot give. Throws when the base URL is not http(s).
    RegistrySession(const core::ImageRef& ref, HttpClient& http, const RegistryOptions& options,
                    std::string private_advice);

    // "<base>/v2/<repository>/<path>".
    std::string url(const std::string& path) const;
    const std::string& base() const { return base_; }

    // The request, and on a 401 once more with an anonymous token. A status
    // outside 2xx, or a transport failure, is an error that names the
    // request and says what to do.
    HttpResponse fetch(HttpMethod method, const RegistryResource& resource);

  private:
    void check_status(const HttpResponse& res, HttpMethod method,
                      const RegistryResource& resource) const;
    HttpResponse send(HttpMethod method, const std::string& url, const std::string& accept);
    std::string anonymous_token(const HttpResponse& res, HttpMethod method, const std::string& url);
    std::string fetch_token(const std::string& url);

    const core::ImageRef& ref_;
    HttpClient& http_;
    const RegistryOptions& options_;
    std::string private_advice_;
    std::string base_;
    std::string token_;
};

} // namespace bootbench::sys
