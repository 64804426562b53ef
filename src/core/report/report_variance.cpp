// The report's variance split: for each metric whose bench ran more than
// once per boot, within- and between-boot variance per target and the boots
// x iterations for the ratio's 95% interval within +-2% (core/stats/variance), from
// the measured costs.
#include "core/state/estimate.hpp"
#include "core/report/report.hpp"
#include "core/base/time.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

bool has_iterations(const MetricReport& m) {
    for (const auto& t : m.targets)
        for (const auto& s : t.samples)
            if (s.iterations.size() > 1)
                return true;
    return false;
}

double bench_seconds(const RunResult& r) {
    double s = 0;
    for (const auto& b : r.benches)
        s += b.wall_s;
    return s;
}

std::string bench_of(const std::string& key, const std::vector<const RunResult*>& runs) {
    for (const RunResult* r : runs)
        if (const Metric* x = r->find(key))
            return x->bench;
    return "";
}

// c_iter: the median over runs of the metric's bench's wall time per iteration.
double iteration_seconds(const std::string& key, const std::vector<const RunResult*>& runs) {
    std::vector<double> per;
    for (const RunResult* r : runs)
        if (const Metric* x = r->find(key))
            for (const auto& b : r->benches)
                if (b.name == x->bench && b.iterations > 0 && b.wall_s > 0)
                    per.push_back(b.wall_s / b.iterations);
    return per.empty() ? 0 : median(per);
}

// The split of the target a target's ratio is taken against (the baseline's,
// or the subject's for the baseline); its own when that one has none.
const VarianceSplit& partner(const MetricReport& m, const TargetVariance& t, const Report& report) {
    const std::string& other = t.target == report.baseline ? report.subject : report.baseline;
    for (const auto& v : m.variance)
        if (v.target == other)
            return v.split;
    return t.split;
}

void split_metric(MetricReport& m, const Report& report, const std::vector<const RunResult*>& runs) {
    m.iteration_s = iteration_seconds(m.key, runs);
    m.bench = bench_of(m.key, runs);
    for (const auto& t : m.targets)
        if (auto split = variance_split(boots_of(t)))
            m.variance.push_back({t.target, *split, std::nullopt});
    for (auto& t : m.variance)
        t.advice = advise_ratio(t.split, partner(m, t, report), report.boot_cost.seconds, m.iteration_s);
}

} // namespace

std::vector<std::vector<double>> boots_of(const MetricTarget& t) {
    std::vector<std::vector<double>> out;
    for (const auto& s : t.samples)
        out.push_back(s.iterations.empty() ? std::vector<double>{s.value} : s.iterations);
    return out;
}

BootCost measured_boot_cost(const std::vector<const RunResult*>& runs, int settle_s) {
    std::vector<double> gaps;
    for (size_t i = 0; i + 1 < runs.size(); ++i) {
        auto a = parse_instant(runs[i]->started_at), b = parse_instant(runs[i + 1]->started_at);
        if (a && b)
            gaps.push_back(static_cast<double>(b->epoch_s - a->epoch_s) - bench_seconds(*runs[i]));
    }
    double measured = gaps.empty() ? 0 : median(gaps);
    if (measured > 0)
        return {measured, true, 0};
    return {kAssumedBootSeconds + settle_s, false, settle_s};
}

void add_variance(Report& report, const std::vector<const RunResult*>& included, int settle_s) {
    bool any = std::any_of(report.metrics.begin(), report.metrics.end(), has_iterations);
    if (!any)
        return;
    report.boot_cost = measured_boot_cost(included, settle_s);
    for (auto& m : report.metrics)
        if (has_iterations(m))
            split_metric(m, report, included);
}

} // namespace bootbench::core
