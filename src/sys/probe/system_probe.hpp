#pragma once
// The system's figures after the settle time (core/bench/host_metrics), read
// under a probe root (tests: a fake tree).
#include "core/bench/parsers.hpp"

#include <filesystem>

namespace bootbench::sys {

// mem_used_mib, mem_slab_mib from <root>/proc/meminfo and `processes` (the
// numeric folders of <root>/proc); each missing with why when unreadable.
core::BenchMetrics probe_system_metrics(const std::filesystem::path& root);

} // namespace bootbench::sys
