#pragma once
// Statistics across machines: hosts are the top level, runs are nested in
// them. Pure and deterministic like core/stats.
#include "core/stats.hpp"

#include <cstdint>
#include <vector>

namespace bootbench::core {

// One machine's values of a metric: the subject's runs and the baseline's.
struct HostSamples {
    std::vector<double> subject, baseline;
};

// exp(mean(log x)); requires values above 0 and a non-empty vector.
double geometric_mean(const std::vector<double>& values);

// The geometric mean over hosts of better_ratio(median(subject), median(baseline)).
double pooled_ratio(const std::vector<HostSamples>& hosts, Better better);

// Percentile 95% interval of pooled_ratio by a two-level bootstrap: each
// resample draws hosts with replacement, then each drawn host's subject and
// baseline runs with replacement; from a SplitMix64 seeded with `seed`.
// Requires every value above 0 and every sample non-empty.
Interval bootstrap_hosts_ci(const std::vector<HostSamples>& hosts, Better better,
                            std::uint64_t seed, int resamples = kBootstrapResamples);

} // namespace bootbench::core
