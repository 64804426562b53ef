#pragma once
// Statistics across machines: hosts are the top level, runs are nested in
// them. Pure and deterministic like core/stats/stats.
#include "core/stats/stats.hpp"

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

// Above this many values on all machines together the stratified test uses
// the normal approximation (the exact one convolves every machine's
// distribution, which grows with the square of a machine's runs).
inline constexpr size_t kStratifiedExactMaxN = 4 * kExactTestMaxN;

// Mann-Whitney stratified by machine (van Elteren's test, unweighted): the
// sum over machines of the subject's rank sum among that machine's runs.
// Under no difference the labels are exchangeable within a machine only,
// so a machine that is faster than another adds nothing to the statistic.
// Exact (the convolution of the machines' permutation distributions) while
// every machine has at most kExactTestMaxN values and all together at most
// kStratifiedExactMaxN; else the normal approximation with the machines'
// tie-corrected variances summed and a continuity correction. Two-sided; one
// machine gives mann_whitney's p. Machines with an empty side are left out.
RankTest stratified_rank_test(const std::vector<HostSamples>& hosts);

} // namespace bootbench::core
