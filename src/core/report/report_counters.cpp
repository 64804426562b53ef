#include "core/report/report_counters.hpp"

#include "core/base/text.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/stats/stats.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace bootbench::core {

namespace {

// The work metric of `bench` in `r` (its kind's), "" when its work is fixed.
std::string work_metric_of(const RunResult& r, const std::string& bench) {
    for (const auto& b : r.benches)
        if (b.name == bench)
            return bench_kind(b.kind).work_metric;
    return "";
}

std::optional<double> work_of(const RunResult& r, const std::string& bench,
                              const std::string& metric) {
    for (const auto& m : r.metrics)
        if (m.key == metric && m.bench == bench && m.value > 0)
            return m.value;
    return std::nullopt;
}

// (bench, event) -> per, target -> values; in order of first appearance.
struct Gathered {
    std::vector<std::pair<std::string, std::string>> order;
    std::map<std::pair<std::string, std::string>, std::string> per;
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<double>> values;
};

void gather_run(Gathered& g, const RunResult& r) {
    for (const auto& c : r.counters) {
        std::string per = work_metric_of(r, c.bench);
        std::optional<double> work = per.empty() ? std::nullopt : work_of(r, c.bench, per);
        for (const auto& v : c.values) {
            bool divided = !per.empty() && v.event != "ipc";
            if (divided && !work)
                continue; // no work counted: a value per run would not compare
            auto key = std::make_pair(c.bench, v.event);
            if (!g.per.count(key))
                g.order.push_back(key);
            g.per[key] = divided ? per : "";
            g.values[{c.bench, v.event, r.target}].push_back(divided ? v.value / *work : v.value);
        }
    }
}

CounterRow row_of(const Gathered& g, const std::pair<std::string, std::string>& key,
                  const std::vector<std::string>& targets) {
    CounterRow row{key.first, key.second, g.per.at(key), {}, std::nullopt};
    for (const auto& t : targets) {
        auto found = g.values.find({key.first, key.second, t});
        if (found != g.values.end())
            row.targets.push_back(
                {t, static_cast<int>(found->second.size()), median(found->second), found->second});
    }
    return row;
}

const CounterTarget* find(const CounterRow& row, const std::string& target) {
    for (const auto& t : row.targets)
        if (t.target == target)
            return &t;
    return nullptr;
}

void set_change(CounterRow& row, const std::string& baseline, const std::string& subject) {
    const CounterTarget* b = find(row, baseline);
    const CounterTarget* s = find(row, subject);
    if (b && s && b->median != 0)
        row.change = s->median / b->median;
}

// What perf could not count: each (target, bench, why) with its events and
// the runs that said it, in order of first appearance.
class Unavailable {
  public:
    void add(const RunResult& r) {
        runs_of_[r.target]++;
        for (const auto& c : r.counters) {
            if (!c.failure.empty())
                note(r, c.bench, c.failure, "");
            for (const auto& u : c.unavailable)
                note(r, c.bench, u.reason, u.key);
        }
    }

    std::vector<std::string> lines() const {
        std::vector<std::string> out;
        for (const auto& key : order_) {
            const auto& [target, bench, why] = key;
            const auto& [events, runs] = said_.at(key);
            out.push_back(target + ", bench " + bench + ": " +
                          (events.empty() ? "" : join(events, ", ") + ": ") + why + " (" +
                          std::to_string(runs.size()) + " of " +
                          std::to_string(runs_of_.at(target)) + " runs)");
        }
        return out;
    }

  private:
    using Key = std::tuple<std::string, std::string, std::string>;

    void note(const RunResult& r, const std::string& bench, const std::string& why,
              const std::string& event) {
        Key key{r.target, bench, why};
        if (!said_.count(key))
            order_.push_back(key);
        auto& [events, runs] = said_[key];
        if (!event.empty() && std::find(events.begin(), events.end(), event) == events.end())
            events.push_back(event);
        runs.insert(r.run_id);
    }

    std::map<std::string, int> runs_of_;
    std::map<Key, std::pair<std::vector<std::string>, std::set<std::string>>> said_;
    std::vector<Key> order_;
};

} // namespace

CountersSection counters_section(const std::vector<const RunResult*>& included,
                                 const std::vector<std::string>& targets,
                                 const std::string& baseline, const std::string& subject) {
    Gathered g;
    for (const RunResult* r : included)
        gather_run(g, *r);
    CountersSection out;
    for (const auto& key : g.order) {
        out.rows.push_back(row_of(g, key, targets));
        set_change(out.rows.back(), baseline, subject);
    }
    Unavailable unavailable;
    for (const RunResult* r : included)
        unavailable.add(*r);
    out.unavailable = unavailable.lines();
    return out;
}

} // namespace bootbench::core
