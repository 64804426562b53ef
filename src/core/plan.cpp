#include "core/plan.hpp"

#include "core/adaptive.hpp"

#include <map>

namespace bootbench::core {

unsigned long long SplitMix64::next() {
    unsigned long long z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

unsigned long long SplitMix64::below(unsigned long long bound) {
    unsigned long long limit = ~0ULL - (~0ULL % bound);
    unsigned long long x;
    do
        x = next();
    while (x >= limit);
    return x % bound;
}

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

} // namespace bootbench::core
