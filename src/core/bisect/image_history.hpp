#pragma once
// An image's history for bisect: the registry's builds between good's and
// bad's tags, oldest first, as the registry describes them (sys/net/registry
// lists the tags and reads each image's config; this file decides). A build
// is pinned by digest: a tag may move during the night, the digest cannot.
// Pure.
#include "core/bisect/bisect_config.hpp"
#include "core/deployment/deployment.hpp"
#include "core/image/image_builds.hpp"
#include "core/image/oci.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

// The repository good names, with bad and every listed candidate checked to
// name the same one (a bisect follows one image's builds). Throws
// bootbench::Error (exit 2) naming the reference that differs.
ImageRef bisect_image_repository(const BisectConfig& c);

// The tags to describe: those of `listed` that match c.tags, and good's and
// bad's (from their references), each once, in the listing's order.
std::vector<std::string> tags_to_describe(const BisectConfig& c, const std::vector<std::string>& listed);

// good's and bad's tags: a reference by digest alone cannot be found among tags.
std::string endpoint_tag(const BisectBuild& b, const char* which);

// The builds from good's tag to bad's, oldest first by creation time, a
// build whose digest an earlier one has left out (tags that name one image).
// Throws bootbench::Error (exit 2) when good or bad is missing, a build has
// no creation time, good is not older than bad, good and bad are one image,
// fewer than 2 builds lie between them, or two of them were created at one
// instant (no order: reproducible builds often write 1970-01-01).
std::vector<ImageBuild> order_image_builds(std::vector<ImageBuild> builds, const std::string& good_tag,
                                           const std::string& bad_tag, const std::string& image);

// An image build as the history of a bisection: checksum the digest's hex
// (the build's label is its first digits), subject the tag.
CommitInfo image_build_info(const ImageBuild& b);

// The reference each build is deployed from: the repository pinned to the
// build's digest, the transport kept (none: ostree-unverified-registry:).
std::string pinned_image(const ImageRef& repository, const ImageBuild& b);

// good, the listed candidates and bad as written (oldest first, the user's
// order): throws when two of them are one image.
void check_listed_builds(const std::vector<ImageBuild>& builds, const std::string& image);

} // namespace bootbench::core
