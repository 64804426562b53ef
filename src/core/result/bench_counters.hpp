#pragma once
// perf stat's counts for one bench of a run (`[[bench]] counters`), and
// their JSON in the run's file ("counters", absent when none were asked).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bootbench::core {

// A metric (or a counter) a run lacks, and why.
struct MissingMetric {
    std::string key;
    std::string reason;
};

// One perf event counted while a bench ran (`counters`): it explains a
// metric, it is never one (no verdict, not in Holm's family).
struct CounterValue {
    std::string event; // as perf printed it; "ipc" is instructions / cycles
    double value = 0;
    std::string unit{};               // perf's unit ("msec" for task-clock), mostly ""
    double running_pct = 100;         // below 100: multiplexed, perf scaled the count
    std::vector<double> iterations{}; // as Metric::iterations, with `repeat`
};

// What perf counted for one bench, the events it could not count and why,
// or why nothing was counted ("" when perf ran).
struct BenchCounters {
    std::string bench;
    std::vector<CounterValue> values;
    std::vector<MissingMetric> unavailable{}; // event, "not supported" / "not counted"
    std::string failure{};                    // "counters unavailable: ..."

    const CounterValue* find(const std::string& event) const;
};

nlohmann::json to_json(const BenchCounters& c);
// Throws bootbench::Error naming `where` when `j` is not a bench's counters.
BenchCounters bench_counters_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
