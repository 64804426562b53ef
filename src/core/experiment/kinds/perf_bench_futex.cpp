// perf-bench-futex: `perf bench futex hash`, threads hammering private
// futexes: the kernel's futex hash table and its locks, per second.
#include "core/base/number.hpp"
#include "core/experiment/experiment.hpp"
#include "core/experiment/kinds/bench_keys.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/kinds/output_text.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

constexpr int kRuntime = 10; // perf's own default

constexpr auto runtime_s = runtime_of<kRuntime>;

void read_keys(BenchKeys& k, Bench& b) {
    k.allow({"kind", "name", "runtime_s", "threads", "timeout_s", "repeat", "counters"});
    b.runtime_s = k.integer("runtime_s", kRuntime, 1, kMaxSeconds);
    b.threads = k.integer("threads", 0, 0, kMaxThreads);
}

std::vector<std::string> argv(const Bench& b, int) {
    std::vector<std::string> argv = {"perf", "bench", "futex", "hash", "-r", std::to_string(runtime_s(b))};
    if (b.threads > 0) // else perf's default: one per CPU
        argv.insert(argv.end(), {"-t", std::to_string(b.threads)});
    return argv;
}

// perf's print_summary: "Averaged 2009600 operations/sec (+- 29.27%), total secs = 1".
std::optional<double> averaged(std::string_view line) {
    line = trim_blanks(line);
    size_t unit = line.find(" operations/sec");
    if (!starts_with(line, "Averaged ") || unit == std::string_view::npos)
        return std::nullopt;
    return parse_number(line.substr(9, unit - 9));
}

std::vector<MetricValue> parse(std::string_view out) {
    std::vector<MetricValue> values;
    for (auto line : lines_of(out))
        add(values, "futex_hash_ops_sec", averaged(line));
    return values;
}

} // namespace

extern const BenchKindInfo kPerfBenchFutex{
    BenchKind::perf_bench_futex,
    read_keys,
    quick_runtime<kRuntime>,
    runtime_seconds<kRuntime>,
    argv,
    same_on_every_machine,
    [](const Bench&, std::string_view out) { return ParsedOutput{parse(out), {}}; },
    {{"futex_hash_ops_sec", "ops/s", Better::higher, "futex hash operations (perf bench futex)", MetricFrom::bench}},
    BenchTool{"perf", "linux-perf", "perf", false},
    "", // a rate over a fixed time: no count of operations
};

} // namespace bootbench::core
