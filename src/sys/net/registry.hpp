#pragma once
// Resolves an image target's tag to its manifest digest with the OCI
// distribution API, anonymously (the bearer-token flow of ghcr.io, quay.io
// and Docker Hub: sys/net/registry_session). The decisions are core/image/oci's;
// this file does the requests.
#include "core/experiment/experiment.hpp"
#include "core/image/oci.hpp"
#include "sys/net/http.hpp"
#include "sys/net/registry_session.hpp"

#include <string>

namespace bootbench::sys {

// HEAD /v2/<repo>/manifests/<tag> (a HEAD is not counted as a pull by Docker
// Hub), then a GET by digest only for an index, or when the registry sent no
// Docker-Content-Digest (the digest is then the body's sha256). On 401: one
// anonymous token from the challenge's realm and one retry with it. A body
// whose hash is not the digest asked for is an error.
//
// Throws bootbench::Error "cannot resolve <image> to a digest: ..." naming
// the request, the HTTP status and what to do (a private image needs
// pin_digest = false or a checksum selector).
core::ResolvedImage resolve_digest(const core::ImageRef& ref, HttpClient& http,
                                   const core::Platform& platform,
                                   const RegistryOptions& options = {});

// An image target's record for this machine: parse_image_ref(selector.value)
// then resolve_digest for host_platform(). Throws bootbench::Error prefixed
// "target '<name>': " (exit 2 for a bad reference, 1 for a failed lookup);
// a target that is not selected by image is an error too.
core::ResolvedImage resolve_target_image(const core::Target& target, HttpClient& http,
                                         const RegistryOptions& options = {});

// This machine's platform, from uname(2).
core::Platform host_platform();

} // namespace bootbench::sys
