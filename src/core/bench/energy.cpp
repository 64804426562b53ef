#include "core/bench/energy.hpp"

namespace bootbench::core {

namespace {

void both_missing(BenchMetrics& out, const std::string& bench, const std::string& why) {
    for (const char* suffix : {"_energy_j", "_power_w"})
        out.missing.push_back({bench + suffix, "energy of bench " + bench + " not measured: " + why});
}

// Why the two snapshots cannot be subtracted, or "".
std::string mismatch(const RaplSnapshot& before, const RaplSnapshot& after) {
    if (!before.problem.empty())
        return before.problem;
    if (!after.problem.empty())
        return after.problem;
    if (before.zones.size() != after.zones.size())
        return "the RAPL zones changed during the bench";
    for (size_t i = 0; i < before.zones.size(); ++i)
        if (before.zones[i].zone != after.zones[i].zone)
            return "the RAPL zones changed during the bench";
    return "";
}

} // namespace

uint64_t rapl_delta_uj(uint64_t before, uint64_t after, uint64_t max_range_uj) {
    if (after >= before)
        return after - before;
    return max_range_uj - before + after;
}

BenchMetrics energy_metrics(const std::string& bench, const RaplSnapshot& before,
                            const RaplSnapshot& after, double wall_s) {
    BenchMetrics out;
    if (std::string why = mismatch(before, after); !why.empty()) {
        both_missing(out, bench, why);
        return out;
    }
    uint64_t uj = 0;
    for (size_t i = 0; i < before.zones.size(); ++i)
        uj += rapl_delta_uj(before.zones[i].energy_uj, after.zones[i].energy_uj,
                            after.zones[i].max_range_uj);
    double joules = static_cast<double>(uj) / 1e6;
    out.metrics.push_back({bench + "_energy_j", joules, "J", Better::lower, bench});
    if (wall_s > 0)
        out.metrics.push_back({bench + "_power_w", joules / wall_s, "W", Better::lower, bench});
    else
        out.missing.push_back({bench + "_power_w", "bench " + bench + " has no wall time to divide by"});
    return out;
}

} // namespace bootbench::core
