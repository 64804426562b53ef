#pragma once
// The run order: which target each boot measures. Pure and deterministic.
#include "core/experiment.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

struct PlannedRun {
    std::string run_id; // "<target>-<k>", k counting from 1 per target in run order
    std::string target;
    int index = 0;      // the k above
};

// An adaptive experiment's (core/adaptive) longest plan: every round to max.
std::vector<PlannedRun> plan_runs(const Experiment& e);

// A small, portable PRNG (splitmix64): the same seed gives the same order on
// every platform, which std::shuffle with std::mt19937 does not promise.
class SplitMix64 {
public:
    explicit SplitMix64(unsigned long long seed) : state_(seed) {}
    unsigned long long next();
    // Uniform in [0, bound), without modulo bias.
    unsigned long long below(unsigned long long bound);

private:
    unsigned long long state_;
};

} // namespace bootbench::core
