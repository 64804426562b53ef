#pragma once
// An experiment that sizes itself to the night: runs are added in complete
// rounds (one run per target, in the experiment's order), and after each
// round a pure rule says whether another one starts. The rule looks only at
// the width of the ratio's interval, never at p or at which arm is ahead, so
// stopping early cannot make a difference look real (docs/statistics.md).
#include "core/experiment/experiment.hpp"
#include "core/state/plan.hpp"
#include "core/result/run_result.hpp"
#include "core/state/state.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

enum class StopReason { none, precision, max_runs, until };

// One primary metric of one comparison (subject vs baseline).
struct MetricPrecision {
    std::string metric;
    std::string target;                // the non-baseline target compared
    std::optional<double> half_width;  // relative half-width of the ratio's 95% interval
    std::string why_none;              // when there is no interval: the report's reason
};

struct RoundDecision {
    StopReason reason = StopReason::none; // none: another round
    std::string text;                     // "every primary metric within +-2% after 8 rounds"
    std::vector<MetricPrecision> precision;
    bool stop() const { return reason != StopReason::none; }
};

// When the rule runs and what it knows: rounds done, the time now and at the
// deadline (seconds since the epoch; deadline < 0: none) and the seconds one
// run takes at the pace measured so far.
struct RoundClock {
    double now = 0;
    double deadline = -1;
    double pace_s = 0;
};

// The relative half-width of the ratio's 95% interval for every primary
// metric (every metric when primary is empty) and every non-baseline
// target: the interval the report computes, from the same runs.
std::vector<MetricPrecision> primary_precision(const Experiment& e, const std::vector<RunResult>& runs);

// The rule, after `rounds` complete rounds: stop when rounds >= min and
// every primary metric's half-width <= precision; else when rounds >= max;
// else when the next round (pace x targets) would end after the deadline.
RoundDecision decide_after_round(const Experiment& e, const std::vector<RunResult>& runs, int rounds,
                                 const RoundClock& clock);

// Seconds since the epoch of "2026-12-01T03:40:12+01:00" (core/base/time);
// nullopt when it is not that form.
std::optional<double> epoch_of(const std::string& iso8601);
// The first `until` (local time of the start's offset) after the start;
// -1 when the experiment has no until or started_at cannot be read.
double deadline_of(const Experiment& e, const std::string& started_at);
// How many rounds of `round_s` seconds fit between now and the deadline.
int rounds_that_fit(double now, double deadline, double round_s);
// What plan says of `fit` rounds before `until` (the first round runs
// whatever the deadline: the rule only looks after a round).
std::string until_text(const Experiment& e, int fit, double round_s);

// Complete rounds in the state (runs / targets).
int rounds_in(const State& s, const Experiment& e);
// True when the state's planned runs are all over, nothing stopped the
// experiment, and it is adaptive: the rule must say what comes next.
bool round_decision_due(const State& s, const Experiment& e);
// The next round appended to the state, which runs again.
State add_round(State s, const Experiment& e);

// "2%", "1.5%": a fraction as people read it.
std::string percent_text(double fraction);
// What status says and writes: the half-widths against the target.
nlohmann::json precision_json(const Experiment& e, const std::vector<MetricPrecision>& p);
std::string precision_text(const Experiment& e, const std::vector<MetricPrecision>& p);

} // namespace bootbench::core
