// sysbench-threads: `sysbench threads`, threads contending for a few mutexes
// and yielding: the scheduler's throughput and latency under contention.
#include "core/base/number.hpp"
#include "core/experiment/experiment.hpp"
#include "core/experiment/kinds/bench_keys.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/kinds/output_text.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

constexpr int kRuntime = 30;

constexpr auto runtime_s = runtime_of<kRuntime>;

constexpr const char* kThreads = "--threads=";

void read_keys(BenchKeys& k, Bench& b) {
    k.allow({"kind", "name", "runtime_s", "threads", "timeout_s", "repeat", "counters"});
    b.runtime_s = k.integer("runtime_s", kRuntime, 1, kMaxSeconds);
    b.threads = k.integer("threads", 0, 0, kMaxThreads);
}

std::vector<std::string> argv(const Bench& b, int nproc) {
    return {"sysbench",
            "threads",
            kThreads + std::to_string(b.threads > 0 ? b.threads : nproc),
            "--time=" + std::to_string(runtime_s(b)),
            "--thread-yields=1000",
            "--thread-locks=8",
            "run"};
}

// One thread per CPU unless the experiment says how many: machines of a lab
// with other CPU counts ran the same bench.
void threads_per_cpu(std::vector<std::string>& argv, int nproc) {
    std::replace(argv.begin(), argv.end(), kThreads + std::to_string(nproc), kThreads + std::string("(one per CPU)"));
}

} // namespace

std::vector<MetricValue> parse_sysbench_threads(std::string_view out) {
    std::vector<MetricValue> values;
    bool in_latency = false;
    for (auto line : lines_of(out)) {
        if (trim_blanks(line).empty())
            in_latency = false;
        add(values, "sysbench_events", value_after(line, "total number of events:"));
        if (in_latency) {
            add(values, "sysbench_lat_avg_ms", value_after(line, "avg:"));
            add(values, "sysbench_lat_95th_ms", value_after(line, "95th percentile:"));
        }
        if (trim_blanks(line) == "Latency (ms):")
            in_latency = true;
    }
    return values;
}

extern const BenchKindInfo kSysbenchThreads{
    BenchKind::sysbench_threads,
    read_keys,
    quick_runtime<kRuntime>,
    runtime_seconds<kRuntime>,
    argv,
    threads_per_cpu,
    [](const Bench&, std::string_view out) { return ParsedOutput{parse_sysbench_threads(out), {}}; },
    {{"sysbench_events", "events", Better::higher, "sysbench threads events", MetricFrom::bench},
     {"sysbench_lat_avg_ms", "ms", Better::lower, "sysbench threads latency avg", MetricFrom::bench},
     {"sysbench_lat_95th_ms", "ms", Better::lower, "sysbench threads latency p95", MetricFrom::bench}},
    BenchTool{"sysbench", "sysbench", "sysbench", false},
    "sysbench_events",
};

} // namespace bootbench::core
