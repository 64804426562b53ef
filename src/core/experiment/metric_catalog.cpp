#include "core/experiment/metric_catalog.hpp"

namespace bootbench::core {

namespace {

MetricSpec builtin(const char* key, const char* unit, Better better) {
    MetricSpec m;
    m.key = key;
    m.unit = unit;
    m.better = better;
    return m;
}

} // namespace

const std::vector<MetricInfo>& metric_catalog() {
    static const std::vector<MetricInfo> catalog = {
        {"sched_pipe_usecs_op", "us/op", Better::lower, "context switch (perf sched pipe)", MetricFrom::bench},
        {"sched_pipe_ops_sec", "ops/s", Better::higher, "context switch rate (perf sched pipe)", MetricFrom::bench},
        {"sched_messaging_total_s", "s", Better::lower, "perf sched messaging total", MetricFrom::bench},
        {"sysbench_events", "events", Better::higher, "sysbench threads events", MetricFrom::bench},
        {"sysbench_lat_avg_ms", "ms", Better::lower, "sysbench threads latency avg", MetricFrom::bench},
        {"sysbench_lat_95th_ms", "ms", Better::lower, "sysbench threads latency p95", MetricFrom::bench},
        {"schbench_p50_us", "us", Better::lower, "schbench wakeup latency p50", MetricFrom::bench},
        {"schbench_p99_us", "us", Better::lower, "schbench wakeup latency p99", MetricFrom::bench},
        // after the settle time, before the benches (core/bench/host_metrics)
        {"mem_used_mib", "MiB", Better::lower, "memory in use after settle (MemTotal - MemAvailable)", MetricFrom::system},
        {"mem_slab_mib", "MiB", Better::lower, "kernel slab after settle", MetricFrom::system},
        {"processes", "processes", Better::lower, "processes after settle", MetricFrom::system},
        // systemd's timestamps of this boot, as systemd-analyze adds them up (core/bench/boot_times)
        {"boot_firmware_s", "s", Better::lower, "boot: firmware", MetricFrom::system},
        {"boot_loader_s", "s", Better::lower, "boot: boot loader", MetricFrom::system},
        {"boot_kernel_s", "s", Better::lower, "boot: kernel", MetricFrom::system},
        {"boot_initrd_s", "s", Better::lower, "boot: initrd", MetricFrom::system},
        {"boot_userspace_s", "s", Better::lower, "boot: userspace (until boot finished)", MetricFrom::system},
        {"boot_total_s", "s", Better::lower, "boot: total (systemd-analyze's Startup finished)", MetricFrom::system},
    };
    return catalog;
}

std::optional<MetricInfo> find_metric(const std::string& key) {
    for (const auto& m : metric_catalog())
        if (m.key == key)
            return m;
    return std::nullopt;
}

std::vector<MetricSpec> expected_metrics(const Bench& bench) {
    switch (bench.kind) {
    case BenchKind::perf_sched_pipe:
        return {builtin("sched_pipe_usecs_op", "us/op", Better::lower),
                builtin("sched_pipe_ops_sec", "ops/s", Better::higher)};
    case BenchKind::perf_sched_messaging:
        return {builtin("sched_messaging_total_s", "s", Better::lower)};
    case BenchKind::sysbench_threads:
        return {builtin("sysbench_events", "events", Better::higher),
                builtin("sysbench_lat_avg_ms", "ms", Better::lower),
                builtin("sysbench_lat_95th_ms", "ms", Better::lower)};
    case BenchKind::schbench:
        return {builtin("schbench_p50_us", "us", Better::lower),
                builtin("schbench_p99_us", "us", Better::lower)};
    case BenchKind::command:
        return bench.metrics;
    }
    return {};
}

std::string per_watt_key(const std::string& metric) {
    return metric + "_per_watt";
}

} // namespace bootbench::core
