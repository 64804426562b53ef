#include "core/state/estimate.hpp"

#include "core/experiment/kinds/kinds.hpp"

#include <cmath>
#include <cstdio>

namespace bootbench::core {

double estimate_bench_seconds(const Bench& b) {
    return bench_kind(b.kind).seconds(b);
}

double estimate_suite_seconds(const Experiment& e) {
    double s = 0;
    for (const auto& b : e.benches)
        s += estimate_bench_seconds(b) * b.repeat;
    return s;
}

double estimate_run_seconds(const Experiment& e) {
    return kAssumedBootSeconds + e.conditions.settle_s + estimate_suite_seconds(e);
}

double estimate_simulated_run_seconds(const Experiment& e) {
    return kSandboxBootSeconds + estimate_suite_seconds(e);
}

double pace_seconds(const State& s, const Experiment& e, bool simulated) {
    double sum = 0;
    int n = 0;
    for (const auto& r : s.runs)
        if (r.status == SlotStatus::done && r.seconds > 0) {
            sum += r.seconds;
            ++n;
        }
    if (n == 0)
        return simulated ? estimate_simulated_run_seconds(e) : estimate_run_seconds(e);
    return sum / n + (simulated ? kSandboxBootSeconds : kAssumedBootSeconds);
}

std::string format_duration(double seconds) {
    long total = std::lround(std::max(0.0, seconds));
    char buf[48];
    if (total >= 3600)
        std::snprintf(buf, sizeof buf, "%ld h %02ld min", total / 3600, (total % 3600) / 60);
    else if (total >= 60)
        std::snprintf(buf, sizeof buf, "%ld min %02ld s", total / 60, total % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld s", total);
    return buf;
}

} // namespace bootbench::core
