#include "core/bench/cpu_freq.hpp"

#include "core/stats/stats.hpp"

#include <cmath>
#include <numeric>

namespace bootbench::core {

namespace {

using Averages = std::map<std::string, std::vector<std::pair<std::string, double>>>; // bench -> (run, MHz)

// target -> bench -> every run's average.
std::map<std::string, Averages> by_target(const std::vector<const RunResult*>& runs) {
    std::map<std::string, Averages> out;
    for (const RunResult* r : runs) {
        if (const auto& freq = r->environment.cpu_freq_mhz.value)
            for (const auto& [bench, mhz] : *freq)
                out[r->target][bench].push_back({r->run_id, mhz});
    }
    return out;
}

std::string mhz_text(double mhz) { return std::to_string(std::lround(mhz)) + " MHz"; }

std::string drop_text(const std::string& bench, double mhz, double median_mhz, const std::string& target) {
    long pct = std::lround(100 * (1 - mhz / median_mhz));
    return "CPU frequency during " + bench + " averaged " + mhz_text(mhz) + ", " + std::to_string(pct) +
           "% below the median of " + target + "'s runs (" + mhz_text(median_mhz) + ")";
}

} // namespace

std::optional<double> average_mhz(const std::vector<double>& samples_khz) {
    if (samples_khz.empty())
        return std::nullopt;
    double sum = std::accumulate(samples_khz.begin(), samples_khz.end(), 0.0);
    return sum / static_cast<double>(samples_khz.size()) / 1000;
}

std::map<std::string, std::string> frequency_drops(const std::vector<const RunResult*>& runs) {
    std::map<std::string, std::string> out;
    for (const auto& [target, benches] : by_target(runs))
        for (const auto& [bench, values] : benches) {
            std::vector<double> mhz;
            for (const auto& v : values)
                mhz.push_back(v.second);
            double mid = median(mhz);
            for (const auto& [run, value] : values)
                if (mid > 0 && value < kFreqDropShare * mid)
                    out[run] += (out[run].empty() ? "" : "; ") + drop_text(bench, value, mid, target);
        }
    return out;
}

} // namespace bootbench::core
