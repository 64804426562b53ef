#pragma once
// The system's own figures after the settle time, recorded as ordinary
// metrics of the run (bench "system"): memory in use and slab from
// /proc/meminfo, and the number of processes. Lower is better for each
// (core/experiment/metric_catalog).
#include "core/bench/parsers.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace bootbench::core {

inline constexpr const char* kSystemBench = "system";

// A "Field:   1234 kB" line's value in KiB; nullopt when the field is absent
// or its value is not a number.
std::optional<double> meminfo_kib(std::string_view meminfo, std::string_view field);

// mem_used_mib (MemTotal - MemAvailable) and mem_slab_mib (Slab) from the
// text of `where`; nullopt text: it could not be read (`problem` says why).
// A figure that cannot be computed is missing, with the reason.
BenchMetrics memory_metrics(const std::optional<std::string>& meminfo, const std::string& where,
                            const std::string& problem);

// `processes`, or missing with `problem` when there is no count.
BenchMetrics process_metric(std::optional<int> count, const std::string& problem);

} // namespace bootbench::core
