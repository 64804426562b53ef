#pragma once
// The facts `bootbench doctor` judges (core/host/doctor), read from this host:
// /proc, /sys and /run under `root` (tests: a fake tree), libostree on
// `root`, free space of `root`/var and `root`/boot, programs on PATH, podman's
// store, and the unit files through the UnitControl seam.
#include "core/host/doctor.hpp"
#include "sys/probe/quiet_units.hpp"

#include <filesystem>

namespace bootbench::sys {

// Never throws for a missing file or tool: what cannot be read is a fact too.
core::HostFacts probe_host(const std::filesystem::path& root, const core::DoctorNeeds& needs,
                           const core::Experiment* experiment, UnitControl& units);

// The benches' and the load's host tools: of `experiment`, or all of them.
std::vector<core::ToolFact> host_tools(const core::Experiment* experiment);

// Whether `root`/proc/self/mounts mounts /sysroot read-only (the last entry
// wins); nullopt when /sysroot is not a mount point.
std::optional<bool> sysroot_readonly(const std::filesystem::path& root);

} // namespace bootbench::sys
