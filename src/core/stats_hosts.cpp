#include "core/stats_hosts.hpp"

#include "core/plan.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::core {

namespace {

double host_ratio(const HostSamples& h, Better better) {
    return better_ratio(median(h.subject), median(h.baseline), better);
}

} // namespace

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
