#include "core/stats/stats_hosts.hpp"

#include "core/base/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace bootbench::core {

namespace {

double host_ratio(const HostSamples& h, Better better) {
    return better_ratio(median(h.subject), median(h.baseline), better);
}

bool exact_strata(const std::vector<HostSamples>& hosts) {
    size_t total = 0;
    for (const auto& h : hosts) {
        size_t n = h.subject.size() + h.baseline.size();
        if (n > kExactTestMaxN)
            return false;
        total += n;
    }
    return total <= kStratifiedExactMaxN;
}

std::vector<double> convolve(const std::vector<double>& x, const std::vector<double>& y) {
    std::vector<double> out(x.size() + y.size() - 1);
    for (size_t i = 0; i < x.size(); ++i)
        if (x[i] != 0)
            for (size_t j = 0; j < y.size(); ++j)
                out[i + j] += x[i] * y[j];
    return out;
}

RankTest exact_stratified(const std::vector<RankSumNull>& strata, long observed, long expected) {
    std::vector<double> distribution{1.0};
    double arrangements = 1, extreme = 0;
    for (const auto& s : strata) {
        distribution = convolve(distribution, s.probability);
        arrangements *= s.arrangements;
    }
    long deviation = std::labs(observed - expected);
    for (size_t s = 0; s < distribution.size(); ++s)
        if (std::labs(static_cast<long>(s) - expected) >= deviation)
            extreme += distribution[s];
    RankTest t;
    t.p_value = std::min(1.0, extreme);
    t.min_p_value = std::min(1.0, 2 / arrangements);
    return t;
}

// The sums are doubled: half the deviation is in units of U.
RankTest normal_stratified(long observed, long expected, double variance) {
    RankTest t;
    t.method = PValueMethod::normal;
    t.min_p_value = 0;
    if (variance <= 0)
        return t;
    double z = std::max(0.0, std::labs(observed - expected) / 2.0 - 0.5) / std::sqrt(variance / 4);
    t.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
    return t;
}

} // namespace

RankTest stratified_rank_test(const std::vector<HostSamples>& hosts) {
    bool exact = exact_strata(hosts);
    std::vector<RankSumNull> strata;
    long observed = 0, expected = 0;
    double variance = 0;
    for (const auto& h : hosts)
        if (!h.subject.empty() && !h.baseline.empty()) {
            strata.push_back(rank_sum_null(h.subject, h.baseline, exact));
            observed += strata.back().observed, expected += strata.back().expected;
            variance += strata.back().variance;
        }
    if (strata.empty())
        return {};
    return exact ? exact_stratified(strata, observed, expected) : normal_stratified(observed, expected, variance);
}

double geometric_mean(const std::vector<double>& values) {
    double sum = 0;
    for (double v : values)
        sum += std::log(v);
    return std::exp(sum / static_cast<double>(values.size()));
}

double pooled_ratio(const std::vector<HostSamples>& hosts, Better better) {
    std::vector<double> ratios;
    for (const auto& h : hosts)
        ratios.push_back(host_ratio(h, better));
    return geometric_mean(ratios);
}

Interval bootstrap_hosts_ci(const std::vector<HostSamples>& hosts, Better better,
                            std::uint64_t seed, int resamples) {
    SplitMix64 rng(seed);
    std::vector<double> pooled, ratios(hosts.size()), scratch;
    pooled.reserve(static_cast<size_t>(resamples));
    for (int i = 0; i < resamples; ++i) {
        for (double& r : ratios) {
            const HostSamples& h = hosts[rng.below(hosts.size())];
            r = better_ratio(resampled_median(h.subject, rng, scratch),
                             resampled_median(h.baseline, rng, scratch), better);
        }
        pooled.push_back(geometric_mean(ratios));
    }
    std::sort(pooled.begin(), pooled.end());
    return {quantile_sorted(pooled, 0.025), quantile_sorted(pooled, 0.975)};
}

} // namespace bootbench::core
