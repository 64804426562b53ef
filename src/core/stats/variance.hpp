#pragma once
// Two levels of noise when a bench runs `repeat` times in each boot, after
// Kalibera and Jones, "Rigorous benchmarking in reasonable time" (ISMM 2013):
// how much of the variance is inside a boot (iterations) and how much
// between boots, and how many boots x iterations reach a given precision at
// the least cost. Pure; docs/statistics.md, "Iterations inside a boot".
#include <optional>
#include <vector>

namespace bootbench::core {

// The relative half-width the advice aims at: +-2% of the mean, at 95%.
inline constexpr double kAdviceHalfWidth = 0.02;

struct VarianceSplit {
    int boots = 0;         // n2
    double iterations = 0; // n1: iterations per boot (the mean when boots differ)
    double mean = 0;       // the mean of the boot means
    double s1_sq = 0;      // S1^2: within a boot, pooled
    double s2_sq = 0;      // S2^2: between the boot means
    double t1_sq = 0;      // T1^2 = S1^2
    double t2_sq = 0;      // T2^2 = S2^2 - S1^2 / n1; <= 0: not detectable
    // T1^2 and T2^2 as shares of their sum (T2^2 counted as 0 when <= 0);
    // NaN when the sum is 0 or not finite.
    double within_share = 0, between_share = 0;

    bool between_detectable() const { return t2_sq > 0; }
};

// Each boot's iterations. nullopt below 2 boots or when no boot has 2
// iterations: there is nothing to split. S1^2 pools sum (Y_jk - mean_j)^2
// over sum (n_j - 1), which is Kalibera and Jones' n2 (n1 - 1) when every
// boot has n1 iterations.
std::optional<VarianceSplit> variance_split(const std::vector<std::vector<double>>& boots);

struct Advice {
    int boots = 0;      // B per target (n2)
    int iterations = 0; // R per boot (r1)
    // false: T2^2 <= 0 (or the costs are unknown), so R is the pilot's
    // repeat and not derived from the costs.
    bool iterations_from_costs = false;
    bool capped = false; // B would exceed the largest `runs` (kMaxRuns)
};

// r1 = ceil(sqrt((c_boot / c_iter) * T1^2 / T2^2)), at most kMaxRepeat; then
// the smallest n2 >= (t_{0.975, n2-1} * sqrt(V) / (h * mean))^2, where V =
// max(T2^2, 0) + T1^2 / r1 is the variance of a boot's mean with r1
// iterations (S2^2 when r1 is the pilot's n1). nullopt when mean <= 0.
std::optional<Advice> advise(const VarianceSplit& v, double c_boot_s, double c_iter_s,
                             double half_width = kAdviceHalfWidth);

// The boots x iterations for the interval the report gives: that of the
// ratio of two targets' medians (a's and b's splits), by the two-level
// bootstrap. R is advise()'s, the larger of the two targets' (one bench
// runs in both); B the smallest with
//   B >= (t_{0.975, B-1} / h)^2 x pi/2 x (w_a + w_b),
// where w = (max(T2^2, 0) + c T1^2 / R) / mean^2 is the relative variance
// of one boot's value as the bootstrap sees it (c = pi for R > 1: the median
// of R iterations has about pi/2 the variance of their mean, and the
// bootstrap draws the iterations again inside each drawn boot; c = 1 for
// one iteration) and pi/2 the variance of a median of B values against
// their mean's. nullopt when a mean is not above 0.
std::optional<Advice> advise_ratio(const VarianceSplit& a, const VarianceSplit& b, double c_boot_s,
                                   double c_iter_s, double half_width = kAdviceHalfWidth);

// Student's t quantile t_{0.975, df} (df >= 1): exact to 4 decimals.
double t975(int df);

} // namespace bootbench::core
