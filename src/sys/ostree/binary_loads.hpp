#pragma once
// Whether this bootbench binary loads in another deployment: run with that
// deployment's own dynamic loader and libraries (no chroot: the loader is
// run from the deployment's folder with --library-path on its lib folders
// and --inhibit-cache, so neither this machine's ld.so.cache nor its
// libraries stand in for the deployment's).
#include "core/experiment/experiment.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::sys {

namespace fs = std::filesystem;

// This binary's program interpreter (PT_INTERP), e.g. /lib64/ld-linux-x86-64.so.2.
std::string program_interpreter();

// `path` (absolute) inside the tree `root`, following symbolic links as the
// kernel would with `root` as / (an absolute link restarts at `root`).
// nullopt when it does not exist there.
std::optional<fs::path> path_in_tree(const fs::path& root, const fs::path& path);

// What stops `binary` from running in the deployment folder `deployment`,
// "" when it loads and runs (`--version`) there. A bootbench sandbox tree
// without a loader is "": its emulated boots run on this machine's loader.
std::string binary_load_problem(const fs::path& deployment, const fs::path& binary);

class Sysroot;

// One refusal (core::binary_load_message) per target of `e` that resolves on
// `sysroot` to a deployment `binary` does not run in; each deployment is
// loaded once. Unresolved targets are left to the resolution's own message.
std::vector<std::string> binary_load_refusals(Sysroot& sysroot, const core::Experiment& e,
                                              const fs::path& binary);

// /proc/self/exe: the binary start copies for the unit.
fs::path running_binary();

} // namespace bootbench::sys
