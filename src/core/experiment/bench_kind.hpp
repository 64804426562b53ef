#pragma once
// A bench kind's descriptor: everything bootbench knows of one kind of
// benchmark, decided once. The kinds are in core/experiment/kinds/, one file
// each, and in one table there (kinds.cpp); nothing else names a kind.
#include "core/experiment/bench.hpp"
#include "core/experiment/metric_info.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bootbench::core {

class BenchKeys; // core/experiment/kinds/bench_keys: a [[bench]] table being read

// The program a kind runs and the packages that provide it.
struct BenchTool {
    std::string program;
    std::string debian;    // the Debian package, or why there is none
    std::string fedora;    // the Fedora package
    bool optional = false; // a missing optional tool skips its bench
};

struct MetricValue {
    std::string key;
    double value = 0;
};

// Why a metric is missing when the parser knows more than "not in the
// output" (a command regex that gave up or does not compile).
struct MetricProblem {
    std::string key;
    std::string reason;
};

struct ParsedOutput {
    std::vector<MetricValue> values;
    std::vector<MetricProblem> problems;
};

// Starting and ending one bench (process start, output read, metrics).
inline constexpr double kBenchStartSeconds = 0.5;

struct BenchKindInfo {
    BenchKind kind;
    // Its keys and their defaults and ranges (the shared ones, kind, name,
    // timeout_s and repeat, are read by core/experiment/experiment_bench).
    void (*read_keys)(BenchKeys& keys, Bench& b);
    // `--quick` (core::quick_version): a shorter run of the same work.
    void (*quick)(Bench& b);
    // How long one iteration is expected to take (core/state/estimate).
    double (*seconds)(const Bench& b);
    // Its command line on a machine of `nproc` CPUs (sys/run/bench_command).
    std::vector<std::string> (*argv)(const Bench& b, int nproc);
    // Its recorded command line as reports compare it across machines: what
    // follows from the CPU count `nproc` written as such (core/report/report_inputs).
    void (*per_cpu_argv)(std::vector<std::string>& argv, int nproc);
    // Its output as numbers; never throws on odd output (core/bench/parsers).
    ParsedOutput (*parse)(const Bench& b, std::string_view out);
    // The metrics it reports, each with its unit and direction, once; empty
    // for a kind whose metrics the experiment file defines (`command`).
    std::vector<MetricInfo> metrics;
    // The tool doctor looks for and the suite needs; none for `command`.
    std::optional<BenchTool> tool;
    // The metric that counts the work a run did, when it varies (a bench that
    // runs for a fixed time): the report shows `counters` per unit of it.
    // "" when the work is fixed by the bench's keys, or not known.
    std::string work_metric;
};

} // namespace bootbench::core
