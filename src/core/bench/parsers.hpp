#pragma once
// Parsers of the benchmark tools' text output: pure functions from the text
// a tool printed to the numbers it reported. They never throw on odd input:
// a value that is absent, truncated or not a finite number is simply not
// returned, and the caller records it as missing with a reason.
#include "core/experiment/experiment.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/base/number.hpp"
#include "core/result/run_result.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bootbench::core {

struct MetricValue {
    std::string key;
    double value = 0;
};

// `perf bench sched pipe`: sched_pipe_usecs_op, sched_pipe_ops_sec.
std::vector<MetricValue> parse_perf_sched_pipe(std::string_view out);
// `perf bench sched messaging`: sched_messaging_total_s.
std::vector<MetricValue> parse_perf_sched_messaging(std::string_view out);
// `sysbench threads ... run`: sysbench_events, sysbench_lat_avg_ms, sysbench_lat_95th_ms.
std::vector<MetricValue> parse_sysbench_threads(std::string_view out);
// schbench's last "Wakeup Latencies percentiles" block: schbench_p50_us, schbench_p99_us.
std::vector<MetricValue> parse_schbench(std::string_view out);
// What a parser found, and why a metric is missing when it knows more than
// "not in the output" (a command regex that gave up or does not compile).
struct ParsedOutput {
    std::vector<MetricValue> values;
    std::vector<MissingMetric> problems;
};

// A metric regex sees at most this much of each line.
inline constexpr size_t kMaxMetricLine = 64 * 1024;

// A command bench: the first match of each spec's regex, capture group 1.
// A regex that gives up on a line (PCRE2's limits) is not tried further.
ParsedOutput parse_command(std::string_view out, const std::vector<MetricSpec>& specs);

// Dispatches on the bench's kind.
ParsedOutput parse_bench_output(const Bench& bench, std::string_view out);

struct BenchMetrics {
    std::vector<Metric> metrics;
    std::vector<MissingMetric> missing;
};

// Turns a bench's output into metrics; every expected metric that the
// output lacks is missing, with a reason that names the bench and `log_hint`
// (where the raw output is). When `failure` is not empty the bench did not
// complete and every expected metric is missing with that reason.
BenchMetrics collect_metrics(const Bench& bench, std::string_view out, const std::string& failure,
                             const std::string& log_hint);

} // namespace bootbench::core
