#pragma once
// The report's "Counters" table (`[[bench]] counters`): perf's counts per
// target, per unit of work where the bench reports one, and what perf could
// not count. They explain a metric's change; they are never compared with
// a test, never in Holm's family, never a verdict.
#include "core/result/run_result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// Said above the table in every format.
inline constexpr const char* kCountersNote = "perf's counts while each bench ran, the median of "
                                             "each target's runs. They explain the metrics; "
                                             "they are not tested and decide no verdict.";

struct CounterTarget {
    std::string target;
    int runs = 0;      // runs that counted the event
    double median = 0; // of those runs' values (per unit of work when `per`)
    std::vector<double> values{}; // those runs' values, in run order (the explanations' `clear`)
};

struct CounterRow {
    std::string bench, event;
    std::string
        per; // the work metric the values are divided by ("sysbench_events"), "" for per run
    std::vector<CounterTarget> targets; // the report's targets that counted it, in its order
    // The subject's median over the baseline's; absent when either lacks it or the baseline's is 0.
    std::optional<double> change;
};

struct CountersSection {
    std::vector<CounterRow> rows;
    // "a, bench cpu: cycles, instructions: not supported: ... (2 of 2 runs)".
    std::vector<std::string> unavailable;

    bool empty() const { return rows.empty() && unavailable.empty(); }
};

// From the included runs (in start order), for `targets` in the report's
// order; `change` is subject over baseline.
CountersSection counters_section(const std::vector<const RunResult*>& included,
                                 const std::vector<std::string>& targets,
                                 const std::string& baseline, const std::string& subject);

} // namespace bootbench::core
