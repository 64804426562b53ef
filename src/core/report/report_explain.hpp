#pragma once
// The report's "Likely explanations": "What differs between the arms"
// (report_arms) as explain's facts, the Counters table (report_counters) as
// its counter moves, and explain() of every metric with a verdict. Pure.
#include "core/report/explain.hpp"
#include "core/report/report.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

// A counter moved clearly only when each side has at least this many runs
// and every subject run is beyond every control run: two sets of 3 separate
// by chance 1 time in 10, 1 in 20 in the direction an explanation needs.
inline constexpr int kClearCounterRuns = 3;

// What differs between the baseline (s.targets[0]) and `subject`, in
// explain's conventions (core/report/explain.hpp): a kernel arguments row
// split per argument key, a per-boot key's prefix mapped to its kind, a
// cell with no value as "", a varying cell as the value most of its runs
// had (a value before none), marked varies; the packages of `subject` against the baseline. A
// value not recorded is no difference; the same fact from the tree and a
// boot is given once.
std::vector<ArmFact> arm_facts(const ArmsSection& s, const std::string& subject);

// The counters of `bench` that changed from `baseline` to `subject`, as
// explain's (ratio subject / baseline; clear as kClearCounterRuns says).
std::vector<CounterMove> counter_moves(const CountersSection& c, const std::string& bench,
                                       const std::string& baseline, const std::string& subject);

// Every metric of `r` with a verdict (better or worse), explained; empty
// when `r` has no "What differs between the arms". `included` names each
// metric's bench and its kind.
std::vector<MetricExplanation> explain_report(const Report& r,
                                              const std::vector<const RunResult*>& included);

} // namespace bootbench::core
