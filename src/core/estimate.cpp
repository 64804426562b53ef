#include "core/estimate.hpp"

#include <cmath>
#include <cstdio>

namespace bootbench::core {

double estimate_bench_seconds(const Bench& b) {
    switch (b.kind) {
    case BenchKind::perf_sched_pipe:
        return 1 + b.loops * 10e-6; // ~5-10 us per round trip on current laptops
    case BenchKind::perf_sched_messaging:
        return 1 + b.groups * b.loops * 150e-6;
    case BenchKind::sysbench_threads:
    case BenchKind::schbench:
        return 1 + b.runtime_s;
    case BenchKind::command:
        return b.timeout_s / 2.0;
    }
    return 0;
}

double estimate_run_seconds(const Experiment& e) {
    double s = kAssumedBootSeconds + e.conditions.settle_s;
    for (const auto& b : e.benches)
        s += estimate_bench_seconds(b);
    return s;
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
