#pragma once
// Probes of /proc and /sys under a root folder (tests: a fake tree). A file
// the machine does not have is an absent value, never an error.
#include "core/result/environment_record.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::sys {

namespace fs = std::filesystem;

// uname -r of the running kernel ("" if uname fails).
std::string kernel_release();

// The file's text without surrounding blanks; nullopt when it cannot be read.
std::optional<std::string> read_probe(const fs::path& path);

// The file's SELinux context (its security.selinux attribute, without the
// trailing NUL); nullopt when it has none or cannot be read. Read the same
// way in a fake tree: a test sets the attribute on its file.
std::optional<std::string> selinux_label(const fs::path& file);

// The sub-folders of `dir` whose names start with `prefix`, sorted by name
// with numbers in numeric order (policy2 before policy10).
std::vector<fs::path> probe_dirs(const fs::path& dir, const std::string& prefix);

// CPUs in a list like "0-3,8-11"; nullopt when it does not parse.
std::optional<int> count_cpu_list(const std::string& list);

// Whether a mains supply (power_supply/*/type "Mains") is online: true when
// any one is; nullopt when the machine reports none (a desktop or a VM).
std::optional<bool> mains_online(const fs::path& root);

// The environment's probed fields (core::EnvironmentRecord), each null where
// the machine has none; the temperatures present and null (the suite adds
// them from its Sensors).
core::EnvironmentRecord probe_environment(const fs::path& root);

} // namespace bootbench::sys
