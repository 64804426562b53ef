#pragma once
// Performance per watt ([report] per_watt): a run's value of a
// higher-is-better metric divided by the average package power of the bench
// that produced it (<bench>_power_w, core/bench/energy), as its own metric that the
// report compares like every other.
#include "core/experiment/metric_catalog.hpp"
#include "core/result/run_result.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

// Adds <metric>_per_watt (unit "<unit>/W", higher is better) to every run
// that has the metric and its bench's power. Returns one warning per bench
// whose power some run lacks (no RAPL): the per-watt value is then absent.
std::vector<std::string> add_per_watt(std::vector<RunResult>& runs, const std::vector<std::string>& metrics);

} // namespace bootbench::core
