#include "core/sizing/adaptive.hpp"

#include "core/base/error.hpp"
#include "core/state/estimate.hpp"
#include "core/report/report.hpp"
#include "core/base/time.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace bootbench::core {

namespace {

bool is_primary(const Experiment& e, const std::string& key) {
    const auto& p = e.adaptive ? e.adaptive->primary : std::vector<std::string>{};
    return p.empty() || std::find(p.begin(), p.end(), key) != p.end();
}

// The report's exclusions that name runs already there (a later run's id
// is not an error yet).
std::vector<Exclusion> present_exclusions(const Experiment& e, const std::vector<RunResult>& runs) {
    std::vector<Exclusion> out;
    for (const auto& id : e.report.exclude)
        for (const auto& r : runs)
            if (r.run_id == id)
                out.push_back({id, "excluded in the experiment file"});
    return out;
}

MetricPrecision precision_of(const MetricReport& m, const std::string& target) {
    MetricPrecision p{m.key, target, std::nullopt, ""};
    if (!m.comparison)
        p.why_none = "no value in one of the targets";
    else if (!m.comparison->no_interval.empty())
        p.why_none = m.comparison->no_interval;
    else
        p.half_width = (m.comparison->ci.hi - m.comparison->ci.lo) / 2 / m.comparison->ratio;
    return p;
}

// One comparison's primary metrics; none when the runs compare nothing yet.
void add_comparison(const Experiment& e, const std::vector<RunResult>& runs, const std::string& subject,
                    std::vector<MetricPrecision>& out) {
    ReportInput in;
    in.runs = runs;
    in.baseline = e.baseline;
    in.subject = subject;
    in.exclude = present_exclusions(e, runs);
    in.per_watt = e.report.per_watt;
    std::set<std::string> seen;
    try {
        for (const auto& m : build_report(in).metrics)
            if (is_primary(e, m.key) && seen.insert(m.key).second)
                out.push_back(precision_of(m, subject));
    } catch (const Error&) { // no runs of a target yet, or no metric in common
    }
    if (e.adaptive)
        for (const auto& key : e.adaptive->primary)
            if (!seen.count(key))
                out.push_back({key, subject, std::nullopt, "no run has it yet"});
}

bool all_within(const std::vector<MetricPrecision>& p, double target) {
    return !p.empty() && std::all_of(p.begin(), p.end(), [&](const MetricPrecision& x) {
               return x.half_width && *x.half_width <= target;
           });
}

std::string rounds_text(int n) {
    return std::to_string(n) + (n == 1 ? " round" : " rounds");
}

} // namespace

std::vector<MetricPrecision> primary_precision(const Experiment& e, const std::vector<RunResult>& runs) {
    std::vector<MetricPrecision> out;
    for (const auto& t : e.targets)
        if (t.name != e.baseline)
            add_comparison(e, runs, t.name, out);
    return out;
}

RoundDecision decide_after_round(const Experiment& e, const std::vector<RunResult>& runs, int rounds,
                                 const RoundClock& clock) {
    RoundDecision d;
    d.precision = primary_precision(e, runs);
    const Adaptive a = e.adaptive.value_or(Adaptive{});
    double round_s = clock.pace_s * static_cast<double>(e.targets.size());
    if (a.precision > 0 && rounds >= a.min_runs && all_within(d.precision, a.precision))
        d = {StopReason::precision, "every primary metric within +-" + percent_text(a.precision) + " after " +
                                        rounds_text(rounds), d.precision};
    else if (rounds >= e.runs)
        d = {StopReason::max_runs, "max " + std::to_string(e.runs) + " runs reached", d.precision};
    else if (clock.deadline >= 0 && clock.now + round_s > clock.deadline)
        d = {StopReason::until, "the next round would end after " + a.until, d.precision};
    return d;
}

std::optional<double> epoch_of(const std::string& iso8601) {
    auto t = parse_instant(iso8601);
    return t ? std::optional(static_cast<double>(t->epoch_s)) : std::nullopt;
}

double deadline_of(const Experiment& e, const std::string& started_at) {
    auto start = parse_instant(started_at);
    if (!e.adaptive || e.adaptive->until_minutes < 0 || !start)
        return -1;
    double epoch = static_cast<double>(start->epoch_s);
    double deadline = epoch - static_cast<double>(start->local_second_of_day()) + e.adaptive->until_minutes * 60.0;
    return deadline <= epoch ? deadline + 86400 : deadline;
}

int rounds_that_fit(double now, double deadline, double round_s) {
    if (round_s <= 0 || deadline <= now)
        return 0;
    return static_cast<int>(std::floor((deadline - now) / round_s));
}

std::string until_text(const Experiment& e, int fit, double round_s) {
    std::string head = "until " + e.adaptive.value_or(Adaptive{}).until + ": ";
    std::string pace = " from now (" + format_duration(round_s) + " per round): ";
    std::string bounds = "min " + std::to_string(e.adaptive.value_or(Adaptive{}).min_runs) + ", max " +
                         std::to_string(e.runs);
    if (fit <= 0)
        return head + "no round fits" + pace + "the first round runs anyway, then it stops (of " + bounds + ")";
    return head + std::to_string(fit) + (fit == 1 ? " round fits" : " rounds fit") + pace + "at most " +
           std::to_string(std::min(fit, e.runs)) + " of " + bounds;
}

int rounds_in(const State& s, const Experiment& e) {
    return e.targets.empty() ? 0 : static_cast<int>(s.runs.size() / e.targets.size());
}

bool round_decision_due(const State& s, const Experiment& e) {
    return e.adaptive && s.phase == Phase::finishing && !s.aborted && s.stop_reason.empty() &&
           s.stopped_because.empty() && s.current >= s.runs.size();
}

State add_round(State s, const Experiment& e) {
    auto round = plan_round(e, rounds_in(s, e) + 1); // before s is moved from
    return add_runs(std::move(s), round);
}

std::string percent_text(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g%%", fraction * 100);
    return buf;
}

nlohmann::json precision_json(const Experiment& e, const std::vector<MetricPrecision>& p) {
    nlohmann::json metrics = nlohmann::json::array();
    for (const auto& x : p)
        metrics.push_back({{"metric", x.metric},
                           {"target", x.target},
                           {"half_width", x.half_width ? nlohmann::json(*x.half_width) : nlohmann::json(nullptr)},
                           {"why_none", x.why_none}});
    const Adaptive a = e.adaptive.value_or(Adaptive{});
    return {{"runs_min", a.min_runs},     {"runs_max", e.runs},
            {"until", a.until},           {"precision", a.precision > 0 ? nlohmann::json(a.precision) : nlohmann::json(nullptr)},
            {"metrics", metrics}};
}

std::string precision_text(const Experiment& e, const std::vector<MetricPrecision>& p) {
    const Adaptive a = e.adaptive.value_or(Adaptive{});
    std::string target = a.precision > 0 ? " (target +-" + percent_text(a.precision) + ")" : " (no precision target)";
    std::string out = "  rounds: min " + std::to_string(a.min_runs) + ", max " + std::to_string(e.runs) +
                      (a.until.empty() ? "" : ", until " + a.until) + "\n  precision" + target + ":\n";
    for (const auto& x : p)
        out += "    " + x.metric + " (" + x.target + "): " +
               (x.half_width ? "+-" + percent_text(*x.half_width) +
                                   (a.precision > 0 ? (*x.half_width <= a.precision ? " ok" : " not yet") : "")
                             : "no interval yet (" + x.why_none + ")") +
               "\n";
    return out;
}

} // namespace bootbench::core
