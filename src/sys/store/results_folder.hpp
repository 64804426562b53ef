#pragma once
// Copying an experiment's results to a folder the user names (simulate
// --results), without ever deleting what bootbench did not write: a folder
// is replaced only when it is bootbench's own results folder, and only after
// the new copy is complete beside it.
#include <filesystem>
#include <optional>
#include <string>

namespace bootbench::sys {

namespace fs = std::filesystem;

// The file every results folder copied by bootbench holds, so that the next
// copy knows the folder is its own to replace.
inline constexpr const char* kResultsMarker = ".bootbench-results";

// Why `dir` may not be replaced by a results folder, or nullopt when it may:
// it does not exist, is empty, or holds only what bootbench writes there.
std::optional<std::string> results_destination_problem(const fs::path& dir);

// Throws bootbench::Error (exit 2) with the problem and what to do.
void check_results_destination(const fs::path& dir);

// Whether `dir` holds runs of a real machine: a runs/*.json whose environment
// does not say it ran on a sandbox (one that cannot be read counts too).
// `simulate` moves such a folder aside instead of replacing it.
bool holds_measured_runs(const fs::path& dir);

// Moves an existing `dir` aside to `dir.before-NOW` (NOW an ISO time;
// "-2", "-3"... when that name is taken: two moves can fall in one second)
// and returns where; nullopt when `dir` does not exist. Throws naming both.
std::optional<fs::path> move_results_aside(const fs::path& dir, const std::string& now);

// Copies the results folder `from` to `to`: into a sibling temp folder
// `to.new-XXXXXX` first, then swapped in with one atomic rename, then the old
// folder removed. A failed or interrupted copy leaves `to` as it was.
void install_results_folder(const fs::path& from, const fs::path& to);

} // namespace bootbench::sys
