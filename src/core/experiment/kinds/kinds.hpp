#pragma once
// The bench kinds: one descriptor each (core/experiment/bench_kind), one
// file each in this folder, and the table that maps a BenchKind to its
// descriptor (kinds.cpp).
#include "core/experiment/bench_kind.hpp"

#include <cstddef>
#include <string_view>
#include <vector>

namespace bootbench::core {

// The descriptor of a kind.
const BenchKindInfo& bench_kind(BenchKind kind);

// One line per kind, defined in its file.
extern const BenchKindInfo kPerfSchedPipe;
extern const BenchKindInfo kPerfSchedMessaging;
extern const BenchKindInfo kSysbenchThreads;
extern const BenchKindInfo kSchbench;
extern const BenchKindInfo kCommand;
extern const BenchKindInfo kPerfBenchFutex;

// `per_cpu_argv` of a kind whose command line is the same on every machine.
void same_on_every_machine(std::vector<std::string>& argv, int nproc);

// The built-in kinds' parsers, each from the text its tool printed.
// `perf bench sched pipe`: sched_pipe_usecs_op, sched_pipe_ops_sec.
std::vector<MetricValue> parse_perf_sched_pipe(std::string_view out);
// `perf bench sched messaging`: sched_messaging_total_s.
std::vector<MetricValue> parse_perf_sched_messaging(std::string_view out);
// `sysbench threads ... run`: sysbench_events, sysbench_lat_avg_ms, sysbench_lat_95th_ms.
std::vector<MetricValue> parse_sysbench_threads(std::string_view out);
// schbench's last "Wakeup Latencies percentiles" block: schbench_p50_us, schbench_p99_us.
std::vector<MetricValue> parse_schbench(std::string_view out);

// A metric regex sees at most this much of each line.
inline constexpr size_t kMaxMetricLine = 64 * 1024;

// A command bench: the first match of each spec's regex, capture group 1.
// A regex that gives up on a line (PCRE2's limits) is not tried further.
ParsedOutput parse_command(std::string_view out, const std::vector<MetricSpec>& specs);

} // namespace bootbench::core
