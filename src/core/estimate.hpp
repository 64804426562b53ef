#pragma once
// How long an experiment takes, before it runs: for `plan` and `status`.
#include "core/experiment.hpp"

namespace bootbench::core {

// Assumed seconds from "reboot" to the unit starting; a laptop with a disk
// encryption prompt takes longer, a VM under emulation about 25 s.
inline constexpr double kAssumedBootSeconds = 60;

double estimate_bench_seconds(const Bench& b);
// One run: boot, settle, and the suite (temperature waits not included).
double estimate_run_seconds(const Experiment& e);

// "1 h 05 min", "3 min 20 s", "45 s".
std::string format_duration(double seconds);

} // namespace bootbench::core
