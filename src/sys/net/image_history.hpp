#pragma once
// An image bisection's builds, from the registry: the repository's tags
// listed and matched against bisect.tags (or the listed candidates), each
// image's config read for its creation time, ordered and pinned by digest
// (core/bisect/image_history decides; this file asks the registry).
#include "core/bisect/bisect_config.hpp"
#include "core/deployment/deployment.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace bootbench::sys {

struct ImageHistory {
    std::string image;                    // registry/repository
    std::vector<core::CommitInfo> builds; // oldest first: good ... bad
    std::vector<std::string> images;      // per build, pinned by digest
};

// Says on `out` what it asks the registry. Throws bootbench::Error: exit 2
// for the file's mistakes (a tag that is not there, one image twice, good
// not older than bad), exit 1 for a registry that cannot answer.
ImageHistory image_history(const core::BisectConfig& c, std::ostream& out);

} // namespace bootbench::sys
