#include "core/state/plan.hpp"

#include <algorithm>
#include <map>

namespace bootbench::core {

namespace {

// Target indices in run order, before run ids are assigned.
std::vector<size_t> order_targets(const Experiment& e) {
    const size_t n = e.targets.size();
    const size_t runs = static_cast<size_t>(e.runs);
    std::vector<size_t> seq;
    switch (e.order) {
    case Order::blocked:
        for (size_t t = 0; t < n; ++t)
            seq.insert(seq.end(), runs, t);
        break;
    case Order::interleaved:
        for (size_t r = 0; r < runs; ++r)
            for (size_t t = 0; t < n; ++t)
                seq.push_back(t);
        break;
    case Order::counterbalanced: // ABBA: every other round reversed
        for (size_t r = 0; r < runs; ++r)
            for (size_t t = 0; t < n; ++t)
                seq.push_back(r % 2 == 0 ? t : n - 1 - t);
        break;
    case Order::random: {
        for (size_t t = 0; t < n; ++t)
            seq.insert(seq.end(), runs, t);
        SplitMix64 rng(e.seed);
        for (size_t i = seq.size(); i > 1; --i)
            std::swap(seq[i - 1], seq[rng.below(i)]);
        break;
    }
    }
    return seq;
}

std::vector<size_t> round_order(const Experiment& e, int round) {
    std::vector<size_t> seq(e.targets.size());
    for (size_t t = 0; t < seq.size(); ++t)
        seq[t] = t;
    if (e.order == Order::counterbalanced && round % 2 == 0)
        std::reverse(seq.begin(), seq.end());
    if (e.order == Order::random) {
        SplitMix64 rng(e.seed ^ (0x9e3779b97f4a7c15ULL * static_cast<unsigned long long>(round)));
        for (size_t i = seq.size(); i > 1; --i)
            std::swap(seq[i - 1], seq[rng.below(i)]);
    }
    return seq;
}

} // namespace

std::vector<PlannedRun> plan_runs(const Experiment& e) {
    std::vector<PlannedRun> out;
    for (int k = 1; e.adaptive && k <= e.runs; ++k) { // the longest night: every round to max
        auto round = plan_round(e, k);
        out.insert(out.end(), round.begin(), round.end());
    }
    if (e.adaptive)
        return out;
    std::map<size_t, int> counts;
    for (size_t t : order_targets(e)) {
        int k = ++counts[t];
        const std::string& name = e.targets[t].name;
        out.push_back({name + "-" + std::to_string(k), name, k});
    }
    return out;
}

std::vector<PlannedRun> plan_round(const Experiment& e, int round) {
    std::vector<PlannedRun> out;
    for (size_t t : round_order(e, round))
        out.push_back({e.targets[t].name + "-" + std::to_string(round), e.targets[t].name, round});
    return out;
}

std::vector<PlannedRun> initial_plan(const Experiment& e) {
    return e.adaptive ? plan_round(e, 1) : plan_runs(e);
}

} // namespace bootbench::core
