#pragma once
// A deployment's tree facts (core/deployment/tree_facts) read from its
// checkout without booting it: usr/lib/modules, the package database (rpm's
// through the rpm program, read-only; dpkg's status file), the systemd units
// its links and presets enable, its sysctl.d files. A category that cannot
// be read says why in the record ("rpm not found", "FILE:LINE: truncated");
// it never stops the others.
#include "core/deployment/tree_facts.hpp"

#include <filesystem>

namespace bootbench::sys {

namespace fs = std::filesystem;

// `tree`: a deployment's checkout (Sysroot::deployment_dir), or any root
// folder laid out the same way. Its /etc is etc/ where the tree has one (a
// deployment), else usr/etc (a commit checked out bare).
core::TreeFacts read_tree_facts(const fs::path& tree);

// `rel` inside `tree`, every link on the way resolved inside the tree as a
// chroot would (an absolute target starts again at `tree`).
fs::path in_tree(const fs::path& tree, const fs::path& rel);

} // namespace bootbench::sys
