#pragma once
// The statistics behind the report: summaries, an
// exact rank test and a seeded bootstrap. Pure and deterministic: the same
// values give the same numbers on every platform.
#include "core/experiment/experiment.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// The level below which a p-value counts as a real difference.
inline constexpr double kAlpha = 0.05;
// Below this many runs in either target no interval of the ratio is shown:
// a percentile bootstrap of 3 values is far narrower than 95%.
inline constexpr size_t kMinRunsForInterval = 6;
// Bootstrap resamples: enough for a stable 95% percentile interval, few
// enough that 5,000 runs per target stay fast.
inline constexpr int kBootstrapResamples = 2000;
// Up to this many values in both samples together, the p-value is exact.
inline constexpr size_t kExactTestMaxN = 60;

struct Summary {
    size_t n = 0;
    double median = 0, min = 0, max = 0;
    double spread_pct = 0; // (max - min) / |median|, in percent; 0 when the median is 0
};

double median(std::vector<double> values); // requires a non-empty vector
// Median absolute deviation from the median (unscaled).
double mad(const std::vector<double>& values);
Summary summarize(const std::vector<double>& values); // requires a non-empty vector

// Holm's step-down adjustment of p-values for testing them all at once, in
// the order given: the k-th smallest becomes max over j <= k of
// min(1, (m - j + 1) p_(j)).
std::vector<double> holm_adjust(const std::vector<double>& p);

enum class PValueMethod { exact, normal };
inline constexpr Named<PValueMethod> kPValueMethodNames[] = {{"exact", PValueMethod::exact},
                                                             {"normal", PValueMethod::normal}};

struct RankTest {
    double p_value = 1;     // two-sided
    double min_p_value = 1; // the smallest p these sample sizes allow (exact method)
    PValueMethod method = PValueMethod::exact;
};

// Mann-Whitney U (Wilcoxon rank sum), two-sided: the exact permutation
// distribution of the rank sum (mid-ranks for ties) while
// a.size() + b.size() <= kExactTestMaxN, the normal approximation with tie
// and continuity correction above. Empty samples give p = 1.
RankTest mann_whitney(const std::vector<double>& a, const std::vector<double>& b);

// The permutation distribution of a's doubled mid-rank sum among a and b
// (mid-ranks doubled so that ties stay integers): what the exact test sums,
// and what a test stratified by machine (core/stats/stats_hosts) convolves.
struct RankSumNull {
    long observed = 0, expected = 0; // doubled rank sums
    double variance = 0;             // of the doubled sum, tie-corrected
    double arrangements = 1;         // C(n, a.size())
    std::vector<double> probability; // [s]: P(doubled sum = s); empty unless exact
};
// Requires non-empty a and b; `exact` counts every arrangement (n <= kExactTestMaxN).
RankSumNull rank_sum_null(const std::vector<double>& a, const std::vector<double>& b, bool exact);

// Subject-is-better ratio of two medians: baseline/subject for lower-is-better
// metrics, subject/baseline for higher-is-better ones.
double better_ratio(double subject_median, double baseline_median, Better better);

struct Interval {
    double lo = 0, hi = 0;
};

// Percentile 95% bootstrap interval of better_ratio(median(subject*),
// median(baseline*)): each sample resampled with replacement `resamples`
// times, from a SplitMix64 seeded with `seed`.
Interval bootstrap_ratio_ci(const std::vector<double>& subject, const std::vector<double>& baseline,
                            Better better, std::uint64_t seed, int resamples = kBootstrapResamples);

class SplitMix64; // core/state/plan.hpp

// The median of `values` drawn with replacement (`scratch` holds the draw):
// one level of the two-level bootstraps, of iterations or of runs.
double resampled_median(const std::vector<double>& values, SplitMix64& rng, std::vector<double>& scratch);

// Two-level percentile 95% bootstrap for runs with iterations inside each
// boot (`repeat`): each resample draws boots with replacement, then each
// drawn boot's iterations with replacement; a boot's value is the median of
// its drawn iterations, a target's the median of its boots'. A boot is its
// iterations (one value for a boot without repeat). With one value per boot
// it is bootstrap_ratio_ci of those values: the same stream, the same numbers.
Interval hierarchical_ratio_ci(const std::vector<std::vector<double>>& subject,
                               const std::vector<std::vector<double>>& baseline, Better better,
                               std::uint64_t seed, int resamples = kBootstrapResamples);

// A stable seed from a text (FNV-1a), so a metric's interval does not depend
// on where it appears in the report.
std::uint64_t seed_from(const std::string& text);

// Linear-interpolated quantile (q in [0, 1]) of sorted values.
double quantile_sorted(const std::vector<double>& sorted, double q);

} // namespace bootbench::core
