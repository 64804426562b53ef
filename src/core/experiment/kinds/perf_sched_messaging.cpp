// perf-sched-messaging: `perf bench sched messaging`, groups of senders and
// receivers over sockets: the scheduler under many tasks waking each other.
#include "core/experiment/experiment.hpp"
#include "core/experiment/kinds/bench_keys.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/kinds/output_text.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

constexpr int kGroups = 20;
constexpr int kLoops = 1000;

int groups(const Bench& b) { return b.groups.value_or(kGroups); }
int loops(const Bench& b) { return b.loops.value_or(kLoops); }

void read_keys(BenchKeys& k, Bench& b) {
    k.allow({"kind", "name", "groups", "loops", "timeout_s", "repeat", "counters"});
    b.groups = k.integer("groups", kGroups, 1, 1000);
    b.loops = k.integer("loops", kLoops, 1, 1000000);
}

} // namespace

std::vector<MetricValue> parse_perf_sched_messaging(std::string_view out) {
    std::vector<MetricValue> values;
    for (auto line : lines_of(out))
        add(values, "sched_messaging_total_s", value_after(line, "Total time:", "[sec]"));
    return values;
}

extern const BenchKindInfo kPerfSchedMessaging{
    BenchKind::perf_sched_messaging,
    read_keys,
    [](Bench& b) { b.loops = std::max(10, loops(b) / 20); },
    [](const Bench& b) { return kBenchStartSeconds + groups(b) * loops(b) * 150e-6; },
    [](const Bench& b, int) -> std::vector<std::string> {
        return {"perf", "bench", "sched", "messaging", "-g", std::to_string(groups(b)), "-l",
                std::to_string(loops(b))};
    },
    same_on_every_machine,
    [](const Bench&, std::string_view out) { return ParsedOutput{parse_perf_sched_messaging(out), {}}; },
    {{"sched_messaging_total_s", "s", Better::lower, "perf sched messaging total", MetricFrom::bench}},
    BenchTool{"perf", "linux-perf", "perf", false},
    "", // fixed work: groups x loops
};

} // namespace bootbench::core
