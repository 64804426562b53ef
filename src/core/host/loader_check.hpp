#pragma once
// Whether the one bootbench binary loads in another target deployment: what
// that deployment's own dynamic loader (ld.so --list, then a real run) said,
// read into the reason a user sees. Running the loader is sys/ostree/binary_loads.
#include <string>
#include <vector>

namespace bootbench::core {

// One line of `ld.so --list`: "libfoo.so.1 => /path/libfoo.so.1 (0x...)".
struct LoadedLibrary {
    std::string name;
    std::string path; // "" when the loader printed "not found"
};

// The libraries `ld.so --list` resolved (lines without "=>" are the vDSO and
// the loader itself, not searched for, and are left out).
std::vector<LoadedLibrary> parse_loader_list(const std::string& out);

// The first library the loader found outside `root`: ld.so falls back to its
// built-in directories, which are this machine's, not the deployment's.
// "" when every library is under `root`.
std::string library_outside(const std::vector<LoadedLibrary>& libs, const std::string& root);

// What the loader refused, in short, from its stderr:
//   "libstdc++.so.6 has no symbol version GLIBCXX_3.4.32"
//   "libcurl.so.4 is missing"
//   "symbol foo (version X) is missing"
// else its first line. "" when it printed no refusal.
std::string loader_refusal(const std::string& err);

// The refusal start and plan print for one target.
std::string binary_load_message(const std::string& target, const std::string& deployment,
                                const std::string& problem);

} // namespace bootbench::core
