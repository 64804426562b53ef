#pragma once
// What a raw write into another deployment's /etc needs on a real host.
#include "core/state/state.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace bootbench::sys {

// Fedora mounts /sysroot read-only. Before the first raw write, this process
// enters a private mount namespace and remounts /sysroot read-write there:
// nothing changes for the rest of the system. A no-op where /sysroot is
// already writable or absent.
void make_sysroot_writable_privately();

// With SELinux enabled, labels `files` (paths inside the deployment, e.g.
// "/etc/systemd/system/x.service") by the deployment's own policy; files
// created from outside would otherwise inherit the folder's label.
void label_in_deployment(const std::filesystem::path& deployment_dir,
                         const std::vector<std::string>& files);

// With SELinux enabled, labels `file` (the binary the unit runs, a path on
// the running system) as the booted deployment's policy labels that path,
// then apply_exec_label. Files created there inherit their folder's label,
// which need not be the one the policy gives the path.
void label_executable(const std::filesystem::path& file);

// Sets `file`'s security.selinux to `label` (none when ""), reads it back and
// throws, saying what is wrong and how to look, when systemd may not run it.
void apply_exec_label(const std::filesystem::path& file, const std::string& label);

} // namespace bootbench::sys
