#include "core/experiment/metric_catalog.hpp"

#include "core/experiment/kinds/kinds.hpp"

namespace bootbench::core {

namespace {

MetricSpec spec_of(const MetricInfo& info) {
    MetricSpec m;
    m.key = info.key;
    m.unit = info.unit;
    m.better = info.better;
    return m;
}

std::vector<MetricInfo> catalog_of(std::vector<MetricInfo> system) {
    std::vector<MetricInfo> out;
    for (const auto& [name, kind] : kBenchKindNames)
        for (const auto& m : bench_kind(kind).metrics)
            out.push_back(m);
    out.insert(out.end(), system.begin(), system.end());
    return out;
}

} // namespace

// The kinds' metrics in the order of kBenchKindNames (the order readers
// know), then the system's.
const std::vector<MetricInfo>& metric_catalog() {
    static const std::vector<MetricInfo> catalog = catalog_of({
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
    });
    return catalog;
}

std::optional<MetricInfo> find_metric(const std::string& key) {
    for (const auto& m : metric_catalog())
        if (m.key == key)
            return m;
    return std::nullopt;
}

std::vector<MetricSpec> expected_metrics(const Bench& bench) {
    const auto& kind = bench_kind(bench.kind);
    if (kind.metrics.empty())
        return bench.metrics;
    std::vector<MetricSpec> out;
    for (const auto& m : kind.metrics)
        out.push_back(spec_of(m));
    return out;
}

std::string per_watt_key(const std::string& metric) {
    return metric + "_per_watt";
}

} // namespace bootbench::core
