#include "core/bench/iterations.hpp"

#include "core/stats/stats.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

// Each key once, in the order of first appearance, with every value.
std::vector<Metric> gather(const std::vector<BenchIteration>& done) {
    std::vector<Metric> out;
    for (const auto& it : done)
        for (const auto& m : it.metrics.metrics) {
            auto same = std::find_if(out.begin(), out.end(), [&](const Metric& x) { return x.key == m.key; });
            if (same == out.end()) {
                out.push_back(m);
                out.back().iterations.clear();
                same = out.end() - 1;
            }
            same->iterations.push_back(m.value);
        }
    for (auto& m : out)
        m.value = median(m.iterations);
    return out;
}

// The first iteration's reason for each key no iteration gave.
std::vector<MissingMetric> still_missing(const std::vector<BenchIteration>& done,
                                         const std::vector<Metric>& got) {
    std::vector<MissingMetric> out;
    for (const auto& it : done)
        for (const auto& m : it.metrics.missing) {
            bool given = std::any_of(got.begin(), got.end(), [&](const Metric& x) { return x.key == m.key; });
            bool listed = std::any_of(out.begin(), out.end(), [&](const MissingMetric& x) { return x.key == m.key; });
            if (!given && !listed)
                out.push_back(m);
        }
    return out;
}

BenchRecord fold_records(const std::vector<BenchIteration>& done, int planned) {
    BenchRecord r = done.front().record;
    r.iterations = static_cast<int>(done.size());
    r.wall_s = 0;
    for (const auto& it : done)
        r.wall_s += it.record.wall_s;
    const BenchRecord& last = done.back().record;
    r.status = last.status;
    r.exit_status = last.exit_status;
    r.reason = last.reason.empty() ? "" : "iteration " + std::to_string(done.size()) + " of " +
                                              std::to_string(planned) + ": " + last.reason;
    return r;
}

std::optional<double> mean_freq(const std::vector<BenchIteration>& done) {
    double sum = 0;
    int n = 0;
    for (const auto& d : done)
        if (d.freq_mhz) {
            sum += *d.freq_mhz;
            ++n;
        }
    return n ? std::optional<double>(sum / n) : std::nullopt;
}

CounterValue& value_for(BenchCounters& out, const CounterValue& v) {
    auto same = std::find_if(out.values.begin(), out.values.end(),
                             [&](const CounterValue& x) { return x.event == v.event; });
    if (same != out.values.end())
        return *same;
    out.values.push_back(CounterValue{v.event, 0, v.unit, v.running_pct});
    return out.values.back();
}

std::optional<BenchCounters> fold_counters(const std::vector<BenchIteration>& done) {
    std::vector<const BenchCounters*> counted;
    for (const auto& it : done)
        if (it.counters)
            counted.push_back(&*it.counters);
    if (counted.empty())
        return std::nullopt;
    BenchCounters out{counted.front()->bench, {}};
    for (const BenchCounters* c : counted)
        for (const auto& v : c->values) {
            CounterValue& into = value_for(out, v);
            into.iterations.push_back(v.value);
            into.running_pct = std::min(into.running_pct, v.running_pct);
        }
    for (auto& v : out.values)
        v.value = median(v.iterations);
    for (const BenchCounters* c : counted)
        for (const auto& u : c->unavailable)
            if (!out.find(u.key) && std::none_of(out.unavailable.begin(), out.unavailable.end(),
                                                 [&](const MissingMetric& x) { return x.key == u.key; }))
                out.unavailable.push_back(u);
    if (out.values.empty())
        out.failure = counted.front()->failure;
    return out;
}

} // namespace

BenchIteration fold_iterations(std::vector<BenchIteration> done, int planned) {
    if (done.size() == 1 && planned <= 1)
        return std::move(done.front());
    BenchIteration out;
    out.record = fold_records(done, planned);
    out.metrics.metrics = gather(done);
    out.metrics.missing = still_missing(done, out.metrics.metrics);
    out.freq_mhz = mean_freq(done);
    out.counters = fold_counters(done);
    return out;
}

std::string iteration_stem(const std::string& bench, int index) {
    return index <= 1 ? bench : bench + ".iter-" + std::to_string(index);
}

} // namespace bootbench::core
