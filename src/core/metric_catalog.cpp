#include "core/metric_catalog.hpp"

namespace bootbench::core {

const std::vector<MetricInfo>& metric_catalog() {
    static const std::vector<MetricInfo> catalog = {
        {"sched_pipe_usecs_op", "us/op", Better::lower, "context switch (perf sched pipe)"},
        {"sched_pipe_ops_sec", "ops/s", Better::higher, "context switch rate (perf sched pipe)"},
        {"sched_messaging_total_s", "s", Better::lower, "perf sched messaging total"},
        {"sysbench_events", "events", Better::higher, "sysbench threads events"},
        {"sysbench_lat_avg_ms", "ms", Better::lower, "sysbench threads latency avg"},
        {"sysbench_lat_95th_ms", "ms", Better::lower, "sysbench threads latency p95"},
        {"schbench_p50_us", "us", Better::lower, "schbench wakeup latency p50"},
        {"schbench_p99_us", "us", Better::lower, "schbench wakeup latency p99"},
    };
    return catalog;
}

std::optional<MetricInfo> find_metric(const std::string& key) {
    for (const auto& m : metric_catalog())
        if (m.key == key)
            return m;
    return std::nullopt;
}

} // namespace bootbench::core
