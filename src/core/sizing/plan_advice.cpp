#include "core/sizing/plan_advice.hpp"

#include "core/base/error.hpp"
#include "core/state/estimate.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

void take_runs(PlanAdvice& a, const MetricReport& m, const TargetVariance& t) {
    if (!t.advice)
        return;
    a.capped = a.capped || t.advice->capped;
    if (t.advice->boots > a.runs) {
        a.runs = t.advice->boots;
        a.runs_from = m.key + " on " + t.target;
    }
}

void take_repeat(PlanAdvice& a, const MetricReport& m, const TargetVariance& t) {
    auto b = std::find_if(a.benches.begin(), a.benches.end(),
                          [&](const BenchRepeat& x) { return x.bench == m.bench; });
    if (!t.advice || b == a.benches.end() || t.advice->iterations <= b->repeat)
        return;
    b->repeat = t.advice->iterations;
    b->metric = m.key + " on " + t.target;
}

void seed_benches(PlanAdvice& a, const Report& pilot, const Experiment& e) {
    for (const auto& b : e.benches)
        for (const auto& m : pilot.metrics)
            if (!m.variance.empty() && m.bench == b.name &&
                std::none_of(a.benches.begin(), a.benches.end(),
                             [&](const BenchRepeat& x) { return x.bench == b.name; }))
                a.benches.push_back({b.name, 0, b.repeat, ""});
}

std::string change(int advised, int current) {
    return advised == current ? " (as now)" : " (now " + std::to_string(current) + ")";
}

} // namespace

PlanAdvice plan_advice(const Report& pilot, const Experiment& e) {
    PlanAdvice a;
    a.current_runs = e.runs;
    seed_benches(a, pilot, e);
    if (a.benches.empty())
        throw input_error("the pilot's results have no bench that ran more than once per boot and is in " +
                          e.source_file + ": run a pilot with repeat = 3 (or more) on the benches, "
                          "e.g. runs = 4, then plan --from its results");
    for (const auto& m : pilot.metrics)
        for (const auto& t : m.variance) {
            take_runs(a, m, t);
            take_repeat(a, m, t);
        }
    a.runs = std::clamp(a.runs, 2, kMaxRuns);
    for (auto& b : a.benches)
        if (b.repeat == 0) // no metric of it had advice (a mean not above 0)
            b.repeat = b.current;
    a.sized = e;
    a.sized.runs = a.runs;
    for (auto& b : a.sized.benches)
        for (const auto& r : a.benches)
            if (r.bench == b.name)
                b.repeat = r.repeat;
    return a;
}

std::string plan_advice_text(const PlanAdvice& a, const std::string& file) {
    std::string s = "for the ratio's 95% CI within +-" + std::to_string(static_cast<int>(kAdviceHalfWidth * 100)) +
                    "% on every metric of the pilot, set in " + file + ":\n  [experiment] runs = " +
                    std::to_string(a.runs) + change(a.runs, a.current_runs) +
                    (a.runs_from.empty() ? "" : ", for " + a.runs_from) + "\n";
    for (const auto& b : a.benches)
        s += "  [[bench]] '" + b.bench + "' repeat = " + std::to_string(b.repeat) +
             change(b.repeat, b.current) + (b.metric.empty() ? "" : ", for " + b.metric) + "\n";
    if (a.capped)
        s += "  (a metric needs more than " + std::to_string(kMaxRuns) +
             " boots per target for that: it is too noisy for +-2%; runs is capped)\n";
    size_t targets = a.sized.targets.size();
    double per_run = estimate_run_seconds(a.sized);
    return s + "estimate with these: " + format_duration(per_run * static_cast<double>(a.runs * targets)) +
           " (" + std::to_string(a.runs * targets) + " runs of " + format_duration(per_run) + ")\n";
}

} // namespace bootbench::core
