#pragma once
// The report's "Likely explanations": "What differs between the arms"
// (report_arms) as explain's facts, the Counters table (report_counters) as
// its counter moves; explain_report (report.hpp) explains every metric with
// a verdict with them. Pure.
#include "core/report/explain.hpp"
#include "core/report/report_arms.hpp"
#include "core/report/report_counters.hpp"

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

} // namespace bootbench::core
