#include "core/stats/variance.hpp"

#include "core/experiment/experiment.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::core {

namespace {

double mean_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v)
        s += x;
    return s / static_cast<double>(v.size());
}

// t_{0.975, df} for df 1..30 (tables); above, the Cornish-Fisher expansion.
constexpr double kT975[] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
                            2.2622,  2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
                            2.1098,  2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
                            2.0595,  2.0555, 2.0518, 2.0484, 2.0452, 2.0423};

// NaN when there is no split: no variance at all, or variances that are
// not finite (values near the largest double).
void set_shares(VarianceSplit& v) {
    double between = std::max(v.t2_sq, 0.0), total = v.t1_sq + between;
    bool split = std::isfinite(total) && total > 0;
    v.within_share = split ? v.t1_sq / total : std::nan("");
    v.between_share = split ? between / total : std::nan("");
}

// r1 from the costs, or the pilot's n1 when they cannot decide it.
int iterations_for(const VarianceSplit& v, double c_boot_s, double c_iter_s, bool& from_costs) {
    from_costs = v.between_detectable() && c_boot_s > 0 && c_iter_s > 0;
    if (!from_costs)
        return std::max(1, static_cast<int>(std::lround(v.iterations)));
    double r = std::ceil(std::sqrt(c_boot_s / c_iter_s * v.t1_sq / v.t2_sq));
    return static_cast<int>(std::clamp(r, 1.0, static_cast<double>(kMaxRepeat)));
}

// The smallest n2 >= 2 with n2 >= t(0.975, n2-1)^2 x scale, counted up
// because t depends on n2; capped at kMaxRuns.
void count_boots(Advice& a, double scale) {
    a.capped = false;
    for (a.boots = 2; a.boots < kMaxRuns; ++a.boots) {
        double t = t975(a.boots - 1);
        if (a.boots >= t * t * scale)
            return;
    }
    a.capped = true;
}

// The boots' means and the pooled sum of squares within boots: boots of
// unequal length (after a failed iteration) pool their own n_j - 1.
struct WithinBoots {
    std::vector<double> means;
    double sum_sq = 0;
    size_t dof = 0, iterations = 0, repeated = 0;
};

WithinBoots within_boots(const std::vector<std::vector<double>>& boots) {
    WithinBoots w;
    for (const auto& b : boots) {
        if (b.empty())
            continue;
        double m = mean_of(b);
        w.means.push_back(m);
        for (double y : b)
            w.sum_sq += (y - m) * (y - m);
        w.repeated += b.size() > 1;
        w.iterations += b.size();
        w.dof += b.size() - 1;
    }
    return w;
}

} // namespace

std::optional<VarianceSplit> variance_split(const std::vector<std::vector<double>>& boots) {
    WithinBoots w = within_boots(boots);
    if (w.means.size() < 2 || w.repeated == 0)
        return std::nullopt;
    VarianceSplit v;
    v.boots = static_cast<int>(w.means.size());
    v.iterations = static_cast<double>(w.iterations) / static_cast<double>(w.means.size());
    v.mean = mean_of(w.means);
    for (double m : w.means)
        v.s2_sq += (m - v.mean) * (m - v.mean) / static_cast<double>(w.means.size() - 1);
    v.s1_sq = w.sum_sq / static_cast<double>(w.dof);
    v.t1_sq = v.s1_sq;
    v.t2_sq = v.s2_sq - v.s1_sq / v.iterations;
    set_shares(v);
    return v;
}

double t975(int df) {
    if (df <= 30)
        return kT975[std::max(df, 1) - 1];
    double z = 1.959963984540054, n = df, z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z,
           z9 = z7 * z * z;
    return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
           (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n) +
           (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * n * n * n * n);
}

std::optional<Advice> advise(const VarianceSplit& v, double c_boot_s, double c_iter_s,
                             double half_width) {
    if (v.mean <= 0 || half_width <= 0)
        return std::nullopt;
    Advice a;
    a.iterations = iterations_for(v, c_boot_s, c_iter_s, a.iterations_from_costs);
    double var = std::max(v.t2_sq, 0.0) + v.t1_sq / a.iterations;
    count_boots(a, var / (half_width * v.mean * half_width * v.mean));
    return a;
}

namespace {

constexpr double kPi = 3.14159265358979323846;

// A boot's relative variance as the report's two-level bootstrap sees it.
double bootstrap_boot_variance(const VarianceSplit& v, int iterations) {
    double c = iterations > 1 ? kPi : 1;
    return (std::max(v.t2_sq, 0.0) + c * v.t1_sq / iterations) / (v.mean * v.mean);
}

} // namespace

std::optional<Advice> advise_ratio(const VarianceSplit& a, const VarianceSplit& b, double c_boot_s,
                                   double c_iter_s, double half_width) {
    auto first = advise(a, c_boot_s, c_iter_s, half_width), second = advise(b, c_boot_s, c_iter_s, half_width);
    if (!first || !second)
        return std::nullopt;
    Advice out = first->iterations >= second->iterations ? *first : *second;
    double w = bootstrap_boot_variance(a, out.iterations) + bootstrap_boot_variance(b, out.iterations);
    count_boots(out, kPi / 2 * w / (half_width * half_width));
    return out;
}

} // namespace bootbench::core
