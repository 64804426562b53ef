#pragma once
// The post-boot unit in a deployment's /etc, and the binary it runs.
#include <filesystem>
#include <string>
#include <vector>

namespace bootbench::sys {

namespace fs = std::filesystem;

// The unit file's text with its time limit filled in.
std::string resume_unit_text(int timeout_s, bool container_tools = false);
// Writes etc/systemd/system/bootbench-resume.service and its
// multi-user.target.wants link. Idempotent. Returns the paths written, as
// seen inside the deployment ("/etc/..."), for labelling.
std::vector<std::string> install_unit(const fs::path& etc_dir, int timeout_s, bool container_tools = false);
// Removes both; absent files are fine.
void remove_unit(const fs::path& etc_dir);
bool unit_installed(const fs::path& etc_dir);
// The words of a unit's ExecStart= (split on spaces: bootbench's own unit has
// no quoting); empty when it has none.
std::vector<std::string> exec_start_argv(const std::string& unit_text);
// The unit file in `etc_dir` ("" when there is none).
fs::path unit_file(const fs::path& etc_dir);
// Copies `source` (empty: the running binary) to `dest` (atomically, mode 0755).
void install_binary(const fs::path& dest, const fs::path& source = {});

} // namespace bootbench::sys
