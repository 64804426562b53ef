#pragma once
// `plan --from PILOT FILE`: the runs and repeats a pilot experiment's
// variance split (core/stats/variance, via the report) advises for FILE. Pure.
#include "core/experiment/experiment.hpp"
#include "core/report/report.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

struct BenchRepeat {
    std::string bench;
    int repeat = 1;      // advised
    int current = 1;     // FILE's
    std::string metric;  // the metric and target that asked for the most
};

struct PlanAdvice {
    int runs = 0;          // per target: the most boots any metric and target advises
    int current_runs = 0;  // FILE's
    std::string runs_from; // "metric on target"
    bool capped = false;   // some metric needs more than kMaxRuns boots
    std::vector<BenchRepeat> benches; // FILE's benches that the pilot repeated
    Experiment sized;      // FILE with the advice applied, for the estimate
};

// Throws bootbench::Error (exit 2) when the pilot has no variance split (no
// bench ran more than once per boot) or none of its repeated benches is in FILE.
PlanAdvice plan_advice(const Report& pilot, const Experiment& e);

// The advice as lines for a terminal.
std::string plan_advice_text(const PlanAdvice& a, const std::string& file);

} // namespace bootbench::core
