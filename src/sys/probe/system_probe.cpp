#include "sys/probe/system_probe.hpp"

#include "core/bench/host_metrics.hpp"
#include "sys/probe/probes.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace bootbench::sys {

namespace {

bool is_pid(const std::string& name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

core::BenchMetrics count_processes(const fs::path& proc) {
    std::error_code ec;
    int count = 0;
    fs::directory_iterator it(proc, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec))
        count += is_pid(it->path().filename().string()) ? 1 : 0;
    if (ec)
        return core::process_metric(std::nullopt, "cannot list " + proc.string() + ": " + ec.message());
    if (count == 0)
        return core::process_metric(std::nullopt, proc.string() + " has no process folders");
    return core::process_metric(count, "");
}

} // namespace

core::BenchMetrics probe_system_metrics(const fs::path& root) {
    fs::path meminfo = root / "proc/meminfo";
    errno = 0;
    auto text = read_probe(meminfo);
    std::string problem = errno ? std::strerror(errno) : "no such file or not readable";
    core::BenchMetrics out = core::memory_metrics(text, meminfo.string(), problem);
    core::BenchMetrics procs = count_processes(root / "proc");
    out.metrics.insert(out.metrics.end(), procs.metrics.begin(), procs.metrics.end());
    out.missing.insert(out.missing.end(), procs.missing.begin(), procs.missing.end());
    return out;
}

} // namespace bootbench::sys
