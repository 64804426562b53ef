#pragma once
// How long an experiment takes, before it runs: for `plan` and `status`.
#include "core/experiment/bench_kind.hpp"
#include "core/experiment/experiment.hpp"
#include "core/state/state.hpp"

namespace bootbench::core {

// Assumed seconds from "reboot" to the unit starting; a laptop with a disk
// encryption prompt takes longer, a VM under emulation about 25 s.
inline constexpr double kAssumedBootSeconds = 60;
// The sandbox's emulated boot: state, result and default deployment
// written, no reboot (measured by bench/estimate.py: docs/performance.md).
inline constexpr double kSandboxBootSeconds = 0.5;

// One iteration of the bench (its timeout is per iteration too).
double estimate_bench_seconds(const Bench& b);
// Every bench, each `repeat` times.
double estimate_suite_seconds(const Experiment& e);
// One run: boot, settle, and the suite (temperature waits not included).
double estimate_run_seconds(const Experiment& e);
// One run of `simulate`: the emulated boot and the suite; no settle, as the
// machine it runs on booted long before.
double estimate_simulated_run_seconds(const Experiment& e);

// Seconds per run as the experiment goes: the measured wall time of the
// runs measured so far (their settles and suites) plus the boot, or the
// estimate before any run was measured.
double pace_seconds(const State& s, const Experiment& e, bool simulated);

// "1 h 05 min", "3 min 20 s", "45 s".
std::string format_duration(double seconds);

} // namespace bootbench::core
