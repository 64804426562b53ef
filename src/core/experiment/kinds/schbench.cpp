// schbench: message threads waking worker threads, the wakeup latency's
// percentiles (schbench is not packaged in Debian 12: an optional tool).
#include "core/base/number.hpp"
#include "core/experiment/experiment.hpp"
#include "core/experiment/kinds/bench_keys.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/kinds/output_text.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace bootbench::core {

namespace {

constexpr int kRuntime = 30;

constexpr auto runtime_s = runtime_of<kRuntime>;

void read_keys(BenchKeys& k, Bench& b) {
    k.allow({"kind", "name", "runtime_s", "threads", "message_threads", "timeout_s", "repeat", "counters"});
    b.runtime_s = k.integer("runtime_s", kRuntime, 1, kMaxSeconds);
    b.threads = k.integer("threads", 0, 0, kMaxThreads);
    b.message_threads = k.integer("message_threads", 0, 0, kMaxThreads);
}

std::vector<std::string> argv(const Bench& b, int) {
    std::vector<std::string> argv = {"schbench"};
    if (b.message_threads > 0)
        argv.insert(argv.end(), {"-m", std::to_string(b.message_threads)});
    if (b.threads > 0)
        argv.insert(argv.end(), {"-t", std::to_string(b.threads)});
    argv.insert(argv.end(), {"-r", std::to_string(runtime_s(b))});
    return argv;
}

// schbench's percentile line: "\t* 99.0th: 9776       (123 samples)".
std::optional<std::pair<std::string, double>> schbench_percentile(std::string_view line) {
    line = trim_blanks(line);
    if (starts_with(line, "*"))
        line = trim_blanks(line.substr(1));
    size_t colon = line.find("th:");
    if (colon == std::string_view::npos)
        return std::nullopt;
    std::string pct(line.substr(0, colon));
    std::string_view rest = trim_blanks(line.substr(colon + 3));
    size_t paren = rest.find('(');
    if (paren == std::string_view::npos)
        return std::nullopt; // cut before the sample count: incomplete line
    auto v = parse_number(rest.substr(0, paren));
    if (!v)
        return std::nullopt;
    return std::make_pair(pct, *v);
}

bool is_schbench_final_marker(std::string_view line) {
    line = trim_blanks(line);
    return starts_with(line, "average rps:") || starts_with(line, "final rps goal");
}

} // namespace

std::vector<MetricValue> parse_schbench(std::string_view out) {
    auto lines = lines_of(out);
    size_t head = lines.size();
    for (size_t i = 0; i < lines.size(); ++i)
        if (starts_with(trim_blanks(lines[i]), "Wakeup Latencies percentiles (usec)"))
            head = i;
    bool final_block = false;
    for (size_t i = head; i < lines.size(); ++i)
        final_block = final_block || is_schbench_final_marker(lines[i]);
    std::vector<MetricValue> values;
    if (!final_block)
        return values; // an interval report, or cut short: not the run's result
    for (size_t i = head + 1;
         i < lines.size() && trim_blanks(lines[i]).find("min=") == std::string_view::npos; ++i) {
        auto p = schbench_percentile(lines[i]);
        if (p && p->first == "50.0")
            add(values, "schbench_p50_us", p->second);
        if (p && p->first == "99.0")
            add(values, "schbench_p99_us", p->second);
    }
    return values;
}

extern const BenchKindInfo kSchbench{
    BenchKind::schbench,
    read_keys,
    quick_runtime<kRuntime>,
    runtime_seconds<kRuntime>,
    argv,
    same_on_every_machine,
    [](const Bench&, std::string_view out) { return ParsedOutput{parse_schbench(out), {}}; },
    {{"schbench_p50_us", "us", Better::lower, "schbench wakeup latency p50", MetricFrom::bench},
     {"schbench_p99_us", "us", Better::lower, "schbench wakeup latency p99", MetricFrom::bench}},
    BenchTool{"schbench", "", "schbench", true},
    "", // latencies over a fixed time: no count of requests
};

} // namespace bootbench::core
