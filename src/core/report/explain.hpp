#pragma once
// The likely explanations of a metric's change between the arms (issue 31,
// section 3): which differences between the control (baseline) and the
// subject target the metric's bench is known to be sensitive to, from a
// small catalogue with the reason in words, ranked by a documented score
// (docs/statistics.md, "Likely explanations") and lifted by perf counters
// that moved with the metric. Pure: the report feeds it from "What differs
// between the arms" and the counters table.
#include "core/experiment/bench.hpp"
#include "core/stats/stats.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

enum class FactKind {
    kernel_version,
    kernel_arg,
    kernel_config,
    package,
    unit_enabled,
    sysctl,
    sched_ext,
    power_profile,
    mitigation,
    microcode,
    thp,
    other
};

// One difference between the control (baseline) and the subject target.
// "" = absent on that side. A kernel_arg's name is its key ("mitigations",
// "nopti") and its values the argument as written ("mitigations=off",
// "nopti"); a mitigation's name is the vulnerability ("spectre_v2") and its
// values the kernel's line ("Vulnerable", "Mitigation: Retpolines"); a
// unit_enabled's values say how the unit is enabled ("" = not enabled).
struct ArmFact {
    FactKind kind = FactKind::other;
    std::string name;
    std::string control, subject;
    bool varies = false; // the value varied within a target (across its boots)
};

// A perf counter's change between the arms ("context-switches", "ipc",
// "page-faults": perf's event names, "ipc" = instructions / cycles).
struct CounterMove {
    std::string counter;
    double ratio = 1;   // subject / control, per unit of work where known
    bool clear = false; // its interval excludes 1
};

// A metric with a verdict.
struct MetricMove {
    std::string metric;
    BenchKind kind =
        BenchKind::command; // ignored for the system's metrics (boot times, memory), known by key
    std::string bench;
    double ratio = 1; // better_ratio of the report: < 1 subject worse
    std::string control = "control", subject = "subject"; // the targets' names, for the sentences
    std::optional<Interval> ci{}; // the ratio's interval, where the report has one
};

struct Explanation {
    std::string what; // the difference: "busy.service enabled in b only"
    std::string why;  // the catalogue's reason, in the targets' names
    double score = 0;
    std::vector<std::string>
        evidence{}; // counters that moved with it: "context-switches 2.40x in b"
};

// A metric with a verdict and what explains it, as the report keeps it
// (core/report/report_explain).
struct MetricExplanation {
    MetricMove move;
    std::vector<Explanation> explanations; // best first
    std::string nothing; // nothing_explains(move) when `explanations` is empty, else ""
};

// A metric moving by less than this (|ratio - 1|) did not change: nothing is
// explained, whatever the verdict says.
inline constexpr double kNoChange = 0.005;

// Up to three, best first; empty when nothing explains it (the renderers
// then say so plainly: nothing_explains).
std::vector<Explanation> explain(const MetricMove& m, const std::vector<ArmFact>& facts,
                                 const std::vector<CounterMove>& counters);

// "sched_pipe_usecs_op (perf-sched-pipe), 1.35x worse in b".
std::string move_text(const MetricMove& m);

// The plain sentence: "Nothing that differs between a and b is known to
// move sched_pipe_usecs_op (perf-sched-pipe), 1.35x worse in b."
std::string nothing_explains(const MetricMove& m);

// One line: "WHAT: WHY (moved with it: E1, E2)".
std::string explanation_line(const Explanation& e);

} // namespace bootbench::core
