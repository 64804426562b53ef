#pragma once
// The bisect report's files (core/bisect/bisect_report: bisect.md, .svg,
// .html, .json) beside the runs, written when the search ends, while its
// builds are still deployed: the commits' subjects and versions from the
// ref's history, what changed between the last good and the first bad build
// read from their trees and boot entries.
#include "core/bisect/bisect_run.hpp"
#include "sys/ostree/host.hpp"

#include <filesystem>
#include <string>

namespace bootbench::sys {

namespace fs = std::filesystem;

// Returns the Markdown file's path. Throws bootbench::Error when a file
// cannot be written; what cannot be read (a tree, the history) is said in
// the report instead.
fs::path write_bisect_report(Host& host, const core::State& s, const core::BisectRun& run, const fs::path& results);

} // namespace bootbench::sys
