#pragma once
// One [[bench]] of an experiment: its kind and the values of its keys. What
// each kind means (keys, defaults, command line, parser, metrics) is its
// descriptor's (core/experiment/kinds).
#include "core/base/string_table.hpp"
#include "core/experiment/source_pos.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

enum class Better { lower, higher };
inline constexpr Named<Better> kBetterNames[] = {{"lower", Better::lower}, {"higher", Better::higher}};

struct MetricSpec {
    std::string key;
    std::string regex;
    std::string unit;
    Better better = Better::lower;
    SourcePos pos;
};

// Each value has its descriptor in core/experiment/kinds/ and its line in
// that folder's table (kinds.cpp).
enum class BenchKind { perf_sched_pipe, perf_sched_messaging, sysbench_threads, schbench, command, perf_bench_futex };

// The one table of bench kind names: experiment files and result files.
inline constexpr Named<BenchKind> kBenchKindNames[] = {
    {"perf-sched-pipe", BenchKind::perf_sched_pipe},
    {"perf-sched-messaging", BenchKind::perf_sched_messaging},
    {"sysbench-threads", BenchKind::sysbench_threads},
    {"schbench", BenchKind::schbench},
    {"command", BenchKind::command},
    {"perf-bench-futex", BenchKind::perf_bench_futex}};

// `counters = true`: what a run records of the scheduler and the PMU (a VM's
// PMU often lacks the hardware ones: recorded as unavailable).
inline constexpr const char* kDefaultCounters[] = {"cycles",       "instructions", "context-switches",
                                                   "cpu-migrations", "page-faults", "cache-misses",
                                                   "branch-misses"};
// Events in one `counters` list; a perf event name's length.
inline constexpr int kMaxCounters = 32;
inline constexpr size_t kMaxEventName = 128;

// One benchmark of the suite. Which fields apply depends on the kind; the
// parser rejects keys that do not belong to it. An absent value is the
// kind's default (its descriptor's), so a Bench built in code gets the same
// values as one read from a file.
struct Bench {
    BenchKind kind = BenchKind::perf_sched_pipe;
    std::string name;               // defaults to the kind's name
    std::optional<int> loops;       // perf-sched-pipe, perf-sched-messaging (-l)
    std::optional<int> groups;      // perf-sched-messaging (-g)
    std::optional<int> runtime_s;   // sysbench-threads (--time), schbench, perf-bench-futex (-r)
    int threads = 0;                // sysbench-threads (0 = nproc), schbench, perf-bench-futex -t (0 = its default)
    int message_threads = 0;        // schbench -m (0 = its default)
    std::vector<std::string> argv;  // command
    int timeout_s = 0;              // 0 = derived from the kind's expected length (per iteration)
    int repeat = 1;                 // iterations in the same boot; the run's value is their median
    std::vector<MetricSpec> metrics; // command
    // perf events counted while it runs (`counters`); empty: not counted.
    std::vector<std::string> counters{};
    SourcePos pos;
};

} // namespace bootbench::core
