#pragma once
// The one pseudo-random generator: the run order (core/state/plan) and the
// bootstrap (core/stats/stats) draw from it.

namespace bootbench::core {

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
