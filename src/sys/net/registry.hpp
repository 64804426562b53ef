#pragma once
// Resolves an image target's tag to its manifest digest, and lists and
// describes an image's builds for bisect, with the OCI distribution API,
// anonymously (the bearer-token flow of ghcr.io, quay.io and Docker Hub:
// sys/net/registry_session). The decisions are core/image/oci's and
// core/image/image_builds'; this file does the requests.
#include "core/experiment/experiment.hpp"
#include "core/image/image_builds.hpp"
#include "core/image/oci.hpp"
#include "sys/net/http.hpp"
#include "sys/net/registry_session.hpp"

#include <string>
#include <vector>

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

// The page size asked for (CNCF distribution refuses more than 1000 with
// HTTP 400; a registry may send fewer), and the most pages read.
inline constexpr int kTagsPerPage = 1000;
inline constexpr int kMaxTagPages = 100;

// The tags of `ref`'s repository (its tag and digest play no part), in the
// registry's order: GET <base>/v2/<repo>/tags/list?n=1000, then each page
// the Link header names rel="next", at most kMaxTagPages; on a 401 one
// anonymous token, as resolve_digest does. Throws bootbench::Error "cannot
// list the tags of <registry>/<repo>: ..." naming the request, the HTTP
// status and what to do.
std::vector<std::string> list_tags(const core::ImageRef& ref, HttpClient& http,
                                   const RegistryOptions& options = {});

// `ref` resolved for `platform` as resolve_digest does, then the platform
// manifest by its digest and that manifest's config blob (redirects
// followed: registries send blobs from a CDN), each checked against its
// digest, all on one token. Throws bootbench::Error "cannot read the image
// config of <image>: ..."; a tag that names a signature or another artifact
// is one.
core::ImageBuild describe_image(const core::ImageRef& ref, HttpClient& http,
                                const core::Platform& platform, const RegistryOptions& options = {});

// This machine's platform, from uname(2).
core::Platform host_platform();

} // namespace bootbench::sys
