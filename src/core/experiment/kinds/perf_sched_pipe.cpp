// perf-sched-pipe: `perf bench sched pipe`, two tasks passing a token
// through a pipe: the cost of a context switch.
#include "core/experiment/experiment.hpp"
#include "core/experiment/kinds/bench_keys.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/kinds/output_text.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

constexpr int kLoops = 1000000;

int loops(const Bench& b) { return b.loops.value_or(kLoops); }

void read_keys(BenchKeys& k, Bench& b) {
    k.allow({"kind", "name", "loops", "timeout_s", "repeat", "counters"});
    b.loops = k.integer("loops", kLoops, 1, 1000000000);
}

} // namespace

std::vector<MetricValue> parse_perf_sched_pipe(std::string_view out) {
    std::vector<MetricValue> values;
    for (auto line : lines_of(out)) {
        add(values, "sched_pipe_usecs_op", value_before(line, "usecs/op"));
        add(values, "sched_pipe_ops_sec", value_before(line, "ops/sec"));
    }
    return values;
}

extern const BenchKindInfo kPerfSchedPipe{
    BenchKind::perf_sched_pipe,
    read_keys,
    [](Bench& b) { b.loops = std::max(1000, loops(b) / 50); },
    // ~5-10 us per round trip on current laptops
    [](const Bench& b) { return kBenchStartSeconds + loops(b) * 10e-6; },
    [](const Bench& b, int) -> std::vector<std::string> {
        return {"perf", "bench", "sched", "pipe", "-l", std::to_string(loops(b))};
    },
    same_on_every_machine,
    [](const Bench&, std::string_view out) { return ParsedOutput{parse_perf_sched_pipe(out), {}}; },
    {{"sched_pipe_usecs_op", "us/op", Better::lower, "context switch (perf sched pipe)", MetricFrom::bench},
     {"sched_pipe_ops_sec", "ops/s", Better::higher, "context switch rate (perf sched pipe)", MetricFrom::bench}},
    BenchTool{"perf", "linux-perf", "perf", false},
    "", // fixed work: loops
};

} // namespace bootbench::core
