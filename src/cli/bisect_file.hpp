#pragma once
// A bisect file read from disk, and the builds it names on this sysroot:
// shared by `bisect` and `simulate` (which builds a sandbox history for it).
#include "core/bisect/bisect_config.hpp"
#include "core/bisect/bisect_run.hpp"
#include "core/deployment/deployment.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace bootbench::sys {
class Sysroot;
}

namespace bootbench::cli {

struct BisectFileText {
    core::BisectFile file;
    std::string text; // as read, kept for every later boot
};

// Whether the file at `path` is a bisect file (a [bisect] table).
bool is_bisect_file(const std::string& path);

// Throws bootbench::Error (exit 2) as read_experiment_file does.
BisectFileText read_bisect_file(const std::string& path);

// The builds to bisect, oldest first (good first, bad last).
struct BisectBuilds {
    std::string source;                    // the refspec, or the image's repository
    std::vector<core::CommitInfo> history; // per build
    std::vector<std::string> images;       // per image build, pinned by digest; none for a ref
};

// A ref's commits between good and bad, or only the listed candidates among
// them; an image's registry builds (sys/net/image_history, which says on
// `out` what it asks). Throws (exit 2) for a candidate not in the history.
BisectBuilds bisect_builds(sys::Sysroot& sr, const core::BisectFile& f, std::ostream& out);

// The search over the builds, seeded by the experiment's seed.
core::BisectRun bisect_run_of(const core::BisectFile& f, BisectBuilds b);

} // namespace bootbench::cli
