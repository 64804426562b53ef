#include "core/result/per_watt.hpp"

#include <map>
#include <set>

namespace bootbench::core {

namespace {

// The runs (their index) that have a listed metric of one bench, and those
// of them without the bench's power.
struct PowerCount {
    std::set<size_t> without;
    std::set<size_t> with_metric;
};

// Adds the run's per-watt metric; false when its bench has no power.
bool derive(RunResult& run, const std::string& key) {
    const Metric* m = run.find(key);
    const Metric* power = m ? run.find(m->bench + "_power_w") : nullptr;
    if (!power || power->value <= 0)
        return false;
    run.metrics.push_back({per_watt_key(key), m->value / power->value, m->unit + "/W", Better::higher, m->bench});
    return true;
}

std::string warning_of(const std::string& bench, const PowerCount& c) {
    std::string where = c.without.size() == c.with_metric.size()
                            ? ""
                            : " in " + std::to_string(c.without.size()) + " of " +
                                  std::to_string(c.with_metric.size()) + " runs";
    return "no RAPL power recorded for " + bench + where + ": performance per watt needs RAPL";
}

} // namespace

std::vector<std::string> add_per_watt(std::vector<RunResult>& runs, const std::vector<std::string>& metrics) {
    std::map<std::string, PowerCount> counts;
    for (size_t i = 0; i < runs.size(); ++i)
        for (const auto& key : metrics) {
            const Metric* m = runs[i].find(key);
            if (!m)
                continue;
            PowerCount& c = counts[m->bench];
            c.with_metric.insert(i);
            if (!derive(runs[i], key))
                c.without.insert(i);
        }
    std::vector<std::string> warnings;
    for (const auto& [bench, c] : counts)
        if (!c.without.empty())
            warnings.push_back(warning_of(bench, c));
    return warnings;
}

} // namespace bootbench::core
