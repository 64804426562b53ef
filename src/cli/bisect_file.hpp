#pragma once
// A bisect file read from disk, and the builds it names on this sysroot:
// shared by `bisect` and `simulate` (which builds a sandbox history for it).
#include "core/bisect/bisect_config.hpp"
#include "core/bisect/bisect_run.hpp"
#include "core/deployment/deployment.hpp"

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

// Throws bootbench::Error (exit 2) as read_experiment_file does, and for an
// image bisection, which this bootbench does not run.
BisectFileText read_bisect_file(const std::string& path);

// The builds to bisect, oldest first (good first, bad last): the ref's
// commits between good and bad, or only the listed candidates among them.
// Throws (exit 2) for a candidate that is not in the history.
std::vector<core::CommitInfo> bisect_history(sys::Sysroot& sr, const core::BisectFile& f);

// The search over `history`, seeded by the experiment's seed.
core::BisectRun bisect_run_of(const core::BisectFile& f, const std::vector<core::CommitInfo>& history);

} // namespace bootbench::cli
