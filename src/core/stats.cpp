#include "core/stats.hpp"

#include "core/plan.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace bootbench::core {

namespace {

// Mid-ranks, doubled so that ties stay integers: values a then b.
std::vector<long> doubled_ranks(const std::vector<double>& all) {
    std::vector<size_t> order(all.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return all[x] < all[y]; });
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
    std::vector<std::vector<double>> c(n1 + 1, std::vector<double>(static_cast<size_t>(max_sum) + 1));
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

RankTest normal_test(const std::vector<long>& ranks, const std::vector<double>& all, size_t n1) {
    double n = static_cast<double>(ranks.size()), a = static_cast<double>(n1), b = n - a;
    double r1 = std::accumulate(ranks.begin(), ranks.begin() + static_cast<long>(n1), 0.0) / 2;
    double u = r1 - a * (a + 1) / 2, mu = a * b / 2;
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
    double var = a * b / 12 * ((n + 1) - ties / (n * (n - 1)));
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
        size_t n = sorted_.size();
        std::fill(counts_.begin(), counts_.end(), 0u);
        for (size_t i = 0; i < n; ++i)
            ++counts_[uniform_index(rng, n)];
        size_t lo = (n - 1) / 2, hi = n / 2; // 0-based ranks of the middle values
        return (order_statistic(lo) + order_statistic(hi)) / 2;
    }

private:
    // (next >> 11) / 2^53 is uniform in [0, 1) on every IEEE platform; the
    // bias against a rejection sampler is below 2^-40 for any sample size here.
    static size_t uniform_index(SplitMix64& rng, size_t n) {
        double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
        return std::min(n - 1, static_cast<size_t>(u * static_cast<double>(n)));
    }

    double order_statistic(size_t rank) const {
        size_t seen = 0;
        for (size_t i = 0; i < counts_.size(); ++i) {
            seen += counts_[i];
            if (seen > rank)
                return sorted_[i];
        }
        return sorted_.back();
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
    return (lower + upper) / 2;
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

std::vector<double> robust_z(const std::vector<double>& values) {
    std::vector<double> z(values.size(), 0.0);
    if (values.empty())
        return z;
    double m = median(values), scale = mad(values) / 0.6745;
    if (scale == 0) {
        double sum = 0;
        for (double v : values)
            sum += std::fabs(v - m);
        scale = 1.2533 * sum / static_cast<double>(values.size());
    }
    if (scale == 0)
        return z;
    for (size_t i = 0; i < values.size(); ++i)
        z[i] = (values[i] - m) / scale;
    return z;
}

bool is_outlier(const std::vector<double>& values, const std::vector<double>& z, size_t index) {
    if (values.size() < 3 || std::fabs(z[index]) <= kOutlierZ)
        return false;
    double m = median(values);
    double deviation = std::fabs(values[index] - m);
    return m == 0 ? deviation > 0 : deviation / std::fabs(m) > kOutlierMinDeviation;
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
