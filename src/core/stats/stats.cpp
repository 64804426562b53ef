#include "core/stats/stats.hpp"

#include "core/base/random.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace bootbench::core {

namespace {

// Mid-ranks, doubled so that ties stay integers: values a then b.
std::vector<long> doubled_ranks(const std::vector<double>& all) {
    std::vector<size_t> order(all.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return all[x] < all[y]; });
    std::vector<long> ranks(all.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && all[order[j + 1]] == all[order[i]])
            ++j;
        // positions i..j (0-based) share the rank ((i+1) + (j+1)) / 2, doubled
        for (size_t k = i; k <= j; ++k)
            ranks[order[k]] = static_cast<long>(i + j + 2);
        i = j + 1;
    }
    return ranks;
}

double choose(size_t n, size_t k) {
    double c = 1;
    for (size_t i = 1; i <= k; ++i)
        c = c * static_cast<double>(n - k + i) / static_cast<double>(i);
    return c;
}

// counts[s]: how many n1-subsets of the ranks have doubled rank sum s.
std::vector<double> rank_sum_counts(const std::vector<long>& ranks, size_t n1) {
    long max_sum = std::accumulate(ranks.begin(), ranks.end(), 0L);
    std::vector<std::vector<double>> c(n1 + 1,
                                       std::vector<double>(static_cast<size_t>(max_sum) + 1));
    c[0][0] = 1;
    for (size_t i = 0; i < ranks.size(); ++i) {
        auto r = static_cast<size_t>(ranks[i]);
        for (size_t k = std::min(i + 1, n1); k >= 1; --k)
            for (size_t s = static_cast<size_t>(max_sum); s >= r; --s)
                c[k][s] += c[k - 1][s - r];
    }
    return c[n1];
}

RankTest exact_test(const std::vector<long>& ranks, size_t n1) {
    long observed = std::accumulate(ranks.begin(), ranks.begin() + static_cast<long>(n1), 0L);
    long n = static_cast<long>(ranks.size());
    long expected = static_cast<long>(n1) * (n + 1); // doubled
    long deviation = std::labs(observed - expected);
    std::vector<double> counts = rank_sum_counts(ranks, n1);
    double total = choose(ranks.size(), n1), extreme = 0;
    for (size_t s = 0; s < counts.size(); ++s)
        if (std::labs(static_cast<long>(s) - expected) >= deviation)
            extreme += counts[s];
    RankTest t;
    t.method = PValueMethod::exact;
    t.p_value = std::min(1.0, extreme / total);
    t.min_p_value = std::min(1.0, 2.0 / total);
    return t;
}

// The variance of a's rank sum (U) under permutation, with the tie correction.
double rank_sum_variance(const std::vector<double>& all, size_t n1) {
    double n = static_cast<double>(all.size()), a = static_cast<double>(n1), b = n - a;
    std::vector<double> sorted = all;
    std::sort(sorted.begin(), sorted.end());
    double ties = 0;
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i;
        while (j < sorted.size() && sorted[j] == sorted[i])
            ++j;
        double t = static_cast<double>(j - i);
        ties += t * t * t - t;
        i = j;
    }
    return a * b / 12 * ((n + 1) - ties / (n * (n - 1)));
}

RankTest normal_test(const std::vector<long>& ranks, const std::vector<double>& all, size_t n1) {
    double a = static_cast<double>(n1), b = static_cast<double>(ranks.size()) - a;
    double r1 = std::accumulate(ranks.begin(), ranks.begin() + static_cast<long>(n1), 0.0) / 2;
    double u = r1 - a * (a + 1) / 2, mu = a * b / 2;
    double var = rank_sum_variance(all, n1);
    RankTest t;
    t.method = PValueMethod::normal;
    t.min_p_value = 0;
    if (var <= 0)
        return t;
    double z = std::max(0.0, std::fabs(u - mu) - 0.5) / std::sqrt(var);
    t.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
    return t;
}

// The median of a resample, drawn as counts over the sorted sample so that
// no copy is sorted per resample.
class MedianResampler {
  public:
    explicit MedianResampler(const std::vector<double>& values)
        : sorted_(values), counts_(values.size()) {
        std::sort(sorted_.begin(), sorted_.end());
    }

    double draw(SplitMix64& rng) {
        std::uint64_t n = sorted_.size();
        std::fill(counts_.begin(), counts_.end(), 0u);
        // Two indices per 64-bit draw, each by multiply-shift of 32 random
        // bits: integer-only, so the same on every platform, and its bias
        // (n / 2^32) is far below the bootstrap's own noise.
        for (std::uint64_t i = 0; i + 1 < n; i += 2) {
            std::uint64_t x = rng.next();
            ++counts_[((x >> 32) * n) >> 32];
            ++counts_[((x & 0xffffffffULL) * n) >> 32];
        }
        if (n % 2 == 1)
            ++counts_[((rng.next() >> 32) * n) >> 32];
        return middle();
    }

  private:
    // The median of the drawn values: one scan of the counts up to the
    // middle ranks (n-1)/2 and n/2, not a sort: O(n) per resample.
    double middle() const {
        size_t n = counts_.size(), lo_rank = (n - 1) / 2, hi_rank = n / 2, seen = 0, i = 0;
        while (seen + counts_[i] <= lo_rank)
            seen += counts_[i++];
        double lo = sorted_[i];
        while (seen + counts_[i] <= hi_rank)
            seen += counts_[i++];
        return std::midpoint(lo, sorted_[i]);
    }

    std::vector<double> sorted_;
    std::vector<unsigned> counts_;
};

} // namespace

double median(std::vector<double> v) {
    size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(mid), v.end());
    double upper = v[mid];
    if (v.size() % 2 == 1)
        return upper;
    double lower = *std::max_element(v.begin(), v.begin() + static_cast<long>(mid));
    return std::midpoint(lower, upper); // (a + b) / 2 overflows near the largest double
}

double mad(const std::vector<double>& values) {
    double m = median(values);
    std::vector<double> dev;
    dev.reserve(values.size());
    for (double v : values)
        dev.push_back(std::fabs(v - m));
    return median(std::move(dev));
}

Summary summarize(const std::vector<double>& values) {
    Summary s;
    s.n = values.size();
    s.median = median(values);
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min = *lo;
    s.max = *hi;
    s.spread_pct = s.median == 0 ? 0 : (s.max - s.min) / std::fabs(s.median) * 100;
    return s;
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
    std::vector<size_t> order(p.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return p[x] < p[y]; });
    std::vector<double> out(p.size());
    double running = 0;
    for (size_t k = 0; k < order.size(); ++k) {
        double scaled = std::min(1.0, static_cast<double>(p.size() - k) * p[order[k]]);
        out[order[k]] = running = std::max(running, scaled);
    }
    return out;
}

RankTest mann_whitney(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.empty() || b.empty())
        return {};
    std::vector<double> all = a;
    all.insert(all.end(), b.begin(), b.end());
    std::vector<long> ranks = doubled_ranks(all);
    if (all.size() <= kExactTestMaxN)
        return exact_test(ranks, a.size());
    return normal_test(ranks, all, a.size());
}

RankSumNull rank_sum_null(const std::vector<double>& a, const std::vector<double>& b, bool exact) {
    std::vector<double> all = a;
    all.insert(all.end(), b.begin(), b.end());
    std::vector<long> ranks = doubled_ranks(all);
    RankSumNull out;
    out.observed = std::accumulate(ranks.begin(), ranks.begin() + static_cast<long>(a.size()), 0L);
    out.expected = static_cast<long>(a.size() * (all.size() + 1));
    out.variance = 4 * rank_sum_variance(all, a.size());
    out.arrangements = choose(all.size(), a.size());
    if (exact)
        out.probability = rank_sum_counts(ranks, a.size());
    for (double& p : out.probability)
        p /= out.arrangements;
    return out;
}

double better_ratio(double subject_median, double baseline_median, Better better) {
    return better == Better::lower ? baseline_median / subject_median
                                   : subject_median / baseline_median;
}

Interval bootstrap_ratio_ci(const std::vector<double>& subject, const std::vector<double>& baseline,
                            Better better, std::uint64_t seed, int resamples) {
    SplitMix64 rng(seed);
    MedianResampler s(subject), b(baseline);
    std::vector<double> ratios;
    ratios.reserve(static_cast<size_t>(resamples));
    for (int i = 0; i < resamples; ++i) {
        double sm = s.draw(rng);
        double bm = b.draw(rng);
        ratios.push_back(better_ratio(sm, bm, better));
    }
    std::sort(ratios.begin(), ratios.end());
    return {quantile_sorted(ratios, 0.025), quantile_sorted(ratios, 0.975)};
}

namespace {

bool one_value_each(const std::vector<std::vector<double>>& boots) {
    return std::all_of(boots.begin(), boots.end(), [](const auto& b) { return b.size() == 1; });
}

std::vector<double> firsts(const std::vector<std::vector<double>>& boots) {
    std::vector<double> out;
    for (const auto& b : boots)
        out.push_back(b.front());
    return out;
}

// An index below n from 32 random bits (multiply-shift, as MedianResampler).
size_t index_below(std::uint64_t bits32, size_t n) {
    return static_cast<size_t>((bits32 * n) >> 32);
}

// One two-level resample of a target: boots drawn, then their iterations.
double two_level_draw(const std::vector<std::vector<double>>& boots, SplitMix64& rng,
                      std::vector<double>& per_boot, std::vector<double>& scratch) {
    per_boot.clear();
    for (size_t i = 0; i < boots.size(); ++i) {
        const auto& boot = boots[index_below(rng.next() >> 32, boots.size())];
        per_boot.push_back(boot.size() == 1 ? boot.front() : resampled_median(boot, rng, scratch));
    }
    return median(per_boot);
}

} // namespace

double resampled_median(const std::vector<double>& values, SplitMix64& rng, std::vector<double>& scratch) {
    scratch.clear();
    for (size_t i = 0; i < values.size(); ++i)
        scratch.push_back(values[index_below(rng.next() >> 32, values.size())]);
    return median(scratch);
}

Interval hierarchical_ratio_ci(const std::vector<std::vector<double>>& subject,
                               const std::vector<std::vector<double>>& baseline, Better better,
                               std::uint64_t seed, int resamples) {
    if (one_value_each(subject) && one_value_each(baseline))
        return bootstrap_ratio_ci(firsts(subject), firsts(baseline), better, seed, resamples);
    SplitMix64 rng(seed);
    std::vector<double> ratios, per_boot, scratch;
    ratios.reserve(static_cast<size_t>(resamples));
    for (int i = 0; i < resamples; ++i) {
        double sm = two_level_draw(subject, rng, per_boot, scratch);
        double bm = two_level_draw(baseline, rng, per_boot, scratch);
        ratios.push_back(better_ratio(sm, bm, better));
    }
    std::sort(ratios.begin(), ratios.end());
    return {quantile_sorted(ratios, 0.025), quantile_sorted(ratios, 0.975)};
}

std::uint64_t seed_from(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text)
        h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

double quantile_sorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty())
        return 0;
    double pos = q * static_cast<double>(sorted.size() - 1);
    auto i = static_cast<size_t>(pos);
    if (i + 1 >= sorted.size())
        return sorted.back();
    double frac = pos - static_cast<double>(i);
    return sorted[i] + (sorted[i + 1] - sorted[i]) * frac;
}

} // namespace bootbench::core
