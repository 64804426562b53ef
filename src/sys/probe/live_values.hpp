#pragma once
// The values of the running system that can move a benchmark and that a
// deployment or a boot can change: the kernel command line, a fixed list of
// sysctls (every kernel.sched_* the kernel has), transparent huge pages,
// sched_ext, tuned's and power-profiles-daemon's profile, the CPU
// vulnerabilities' lines, the microcode revision, the running kernel's
// config options that matter (core/deployment/kernel_config: from
// usr/lib/modules/RELEASE/config, /boot/config-RELEASE or /proc/config.gz) and the booted
// deployment's origin (a signed bootc image says so in it). Recorded in
// every run as environment.live (core/result/environment_record), compared
// between the arms by the report (core/report/report_arms). Read under a
// root folder (tests: a fake tree); a file the machine does not have is an
// absent key, never an error.
#include <filesystem>
#include <map>
#include <string>

namespace bootbench::sys {

using LiveValues = std::map<std::string, std::string>;

LiveValues probe_live(const std::filesystem::path& root);

} // namespace bootbench::sys
