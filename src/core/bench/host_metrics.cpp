#include "core/bench/host_metrics.hpp"

namespace bootbench::core {

namespace {

Metric system_metric(const char* key, double value, const char* unit) {
    return {key, value, unit, Better::lower, kSystemBench};
}

bool field_starts_line(std::string_view text, size_t at) {
    return at == 0 || text[at - 1] == '\n';
}

std::string no_line(const std::string& where, const char* field) {
    return where + " has no '" + field + ":' line with a number of kB";
}

} // namespace

std::optional<double> meminfo_kib(std::string_view meminfo, std::string_view field) {
    std::string key = std::string(field) + ":";
    for (size_t at = meminfo.find(key); at != std::string_view::npos;
         at = meminfo.find(key, at + 1)) {
        if (!field_starts_line(meminfo, at))
            continue;
        std::string_view rest = meminfo.substr(at + key.size());
        rest = rest.substr(0, rest.find('\n'));
        size_t b = rest.find_first_not_of(" \t");
        size_t e = rest.find_first_of(" \t", b);
        if (b == std::string_view::npos)
            return std::nullopt;
        return parse_number(rest.substr(b, e == std::string_view::npos ? e : e - b));
    }
    return std::nullopt;
}

BenchMetrics memory_metrics(const std::optional<std::string>& meminfo, const std::string& where,
                            const std::string& problem) {
    BenchMetrics out;
    if (!meminfo) {
        for (const char* key : {"mem_used_mib", "mem_slab_mib"})
            out.missing.push_back({key, "cannot read " + where + ": " + problem});
        return out;
    }
    auto total = meminfo_kib(*meminfo, "MemTotal");
    auto available = meminfo_kib(*meminfo, "MemAvailable");
    auto slab = meminfo_kib(*meminfo, "Slab");
    if (total && available)
        out.metrics.push_back(system_metric("mem_used_mib", (*total - *available) / 1024, "MiB"));
    else
        out.missing.push_back(
            {"mem_used_mib", no_line(where, total ? "MemAvailable" : "MemTotal")});
    if (slab)
        out.metrics.push_back(system_metric("mem_slab_mib", *slab / 1024, "MiB"));
    else
        out.missing.push_back({"mem_slab_mib", no_line(where, "Slab")});
    return out;
}

BenchMetrics process_metric(std::optional<int> count, const std::string& problem) {
    BenchMetrics out;
    if (count)
        out.metrics.push_back(system_metric("processes", *count, "processes"));
    else
        out.missing.push_back({"processes", "processes not counted: " + problem});
    return out;
}

} // namespace bootbench::core
