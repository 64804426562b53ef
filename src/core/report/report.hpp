#pragma once
// The comparison report as a value: aggregated from run results, then handed
// to the renderers (render_markdown, render_svg, render_html, render_json).
// Building it is pure: no files, no clock.
#include "core/base/string_table.hpp"
#include "core/report/explain.hpp"
#include "core/report/report_arms.hpp"
#include "core/report/report_counters.hpp"
#include "core/result/run_result.hpp"
#include "core/stats/stats.hpp"
#include "core/stats/variance.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace bootbench::core {

inline constexpr const char* kReportSchema = "bootbench-report/1";
// Start temperatures whose target medians differ by more than this are a warning.
inline constexpr double kMaxStartTempGapC = 8.0;
// An end temperature from which a laptop CPU is at its thermal limit
// (Tjmax is 95-105 C): the last part of the suite ran throttled.
inline constexpr double kHotEndC = 95.0;
// Said after "Incomplete: <why>." at the top of an aborted experiment's report.
inline constexpr const char* kIncompleteText =
    "The comparison is of the runs so far, not of the experiment as planned.";

struct Exclusion {
    std::string run;
    std::string reason;
};

struct ReportInput {
    std::vector<RunResult> runs;
    std::string title;    // "" = "<subject> vs <baseline>"
    std::string baseline; // required
    std::string subject;  // "" = the first target (by name) that is not the baseline
    std::vector<Exclusion> exclude;
    // Environment keys the experiment varies on purpose (kernel arguments),
    // which are therefore not a comparability warning.
    std::set<std::string> varied_keys;
    // Why an adaptive experiment stopped (results/<name>/adaptive.json); "" for fixed runs.
    std::string stopped{};
    // Across machines: each machine's own (environment.machine_id -> why).
    std::map<std::string, std::string> stopped_by_machine{};
    // [report] per_watt: metrics also compared per watt of their bench (core/result/per_watt).
    std::vector<std::string> per_watt{};
    // [conditions] settle_s: part of a boot's cost when the runs' times cannot measure it.
    int settle_s = Conditions{}.settle_s;
    // Why the runs planned are not all here ("aborted by the user after 2 of
    // 4 runs", core::incomplete_text); "" for an experiment that ran to its end.
    std::string incomplete{};
    // What start read of each target's deployment (results/<name>/arms.json);
    // empty for results without it.
    std::vector<ArmFacts> arms{};
};

struct Sample {
    std::string run;
    double value = 0;                // the boot's value: the median of its iterations
    std::vector<double> iterations{}; // empty when the bench ran once in the boot
};

// One target's variance split of a metric whose bench ran `repeat` > 1 times
// per boot (core/stats/variance), and the boots x iterations it advises.
struct TargetVariance {
    std::string target;
    VarianceSplit split;
    std::optional<Advice> advice; // absent when the mean is not above 0
};

// What one boot costs beside the benches (reboot, settle), for the advice.
struct BootCost {
    double seconds = 0;
    bool measured = false; // false: the estimate's boot + settle figure
    int settle_s = 0;      // the settle in that estimate
};

struct MetricTarget {
    std::string target;
    std::vector<Sample> samples; // in the target's run order
    Summary summary;             // n = 0 when no run of the target has the metric
};

enum class Verdict { better, worse, same };
inline constexpr Named<Verdict> kVerdictNames[] = {
    {"better", Verdict::better}, {"worse", Verdict::worse}, {"same", Verdict::same}};

struct Comparison {
    double ratio = 1; // > 1: the subject is better
    Interval ci;      // NaN when there is none: see no_interval
    RankTest test;
    Verdict verdict = Verdict::same;
    // Why there is no interval ("fewer than 6 runs ...", "a value of b is
    // 0"). "" when ci is there.
    std::string no_interval;
    // The smallest and largest ratio of one subject run to one baseline run
    // (as ratio: > 1 the subject is better); NaN when a value is 0 or below.
    Interval run_range;
    // test.p_value adjusted by Holm's method over the report's compared
    // metrics: what the verdict uses.
    double p_adjusted = 1;
};

// better or worse only when the Holm-adjusted p is below kAlpha and the
// interval, where there is one, excludes 1.00x on the ratio's side.
Verdict verdict_of(const Comparison& c);

struct MetricReport {
    std::string key, unit, label;
    Better better = Better::lower;
    // Who decided `better`: "the metric catalog", or "the first run (<file>)"
    // for a metric the catalog does not know; and the runs' files that say
    // the other direction, for a warning.
    std::string better_from;
    std::vector<std::string> better_disputed;
    std::vector<MetricTarget> targets;    // in the report's target order
    std::optional<Comparison> comparison; // absent when one side has no value
    // Only for a metric with iterations inside boots: per target, and the
    // median wall time of one iteration of its bench (c_iter; 0 unknown).
    std::vector<TargetVariance> variance{};
    double iteration_s = 0;
    std::string bench{}; // the bench that gave it (its first run's), with variance only

    const MetricTarget* find(const std::string& target) const;
};

struct FailedRun {
    std::string run;
    std::string failure;
};

struct TargetReport {
    std::string name;
    std::vector<std::string> runs; // included runs with metrics, in start order
    std::vector<Exclusion> excluded;
    std::vector<FailedRun> failed;
    // The exact images its runs measured ("reference@sha256:..."), from the
    // digests resolved at start; more than one is a warning.
    std::vector<std::string> images;
    // The kernels ("6.8.9-300.fc40.x86_64") and deployments ("fedora:fedora/40/x86_64/silverblue
    // (40.20240601.0)") its runs booted, each once, in start order.
    std::vector<std::string> kernels{}, deployments{};
    // What rpm-ostree layered on the image in the deployments its runs booted
    // (core::describe(Layering)), each once; empty when nothing was layered.
    std::vector<std::string> layered{};
    // bench name -> the commands its runs ran (core::command_inside, joined
    // by spaces), each once: what reproduce compares as bench parameters.
    std::map<std::string, std::vector<std::string>> commands{};
};

struct Outlier {
    std::string run, target, metric;
    double value = 0;
    double rest_median = 0; // the median of the target's values not flagged
};

// A run during whose benches something happened that can add noise
// (core/host/canaries): kept in the report, marked and listed in the warnings.
struct RunCanary {
    std::string run, target;
    std::string text; // core::canary_text
};

// What the caption says about where and when the runs were taken.
struct Caption {
    std::string machine;    // CPU model, CPUs, product
    std::string dates;      // first and last start date
    std::string conditions; // governor, sched_ext, SMT, AC power
    // Said first and on the chart when the runs are not a measurement of the
    // targets: a sandbox simulation, a --quick rehearsal. Empty otherwise.
    std::string provenance{};
    std::string provenance_tag{}; // the same in a few words, for the chart: "sandbox simulation, --quick"
};

struct Report {
    std::string title, baseline, subject;
    Caption caption;
    std::vector<TargetReport> targets; // baseline first, then subject, then the others
    std::vector<MetricReport> metrics;
    std::vector<Outlier> outliers;
    std::vector<RunCanary> canaries; // included runs, in start order
    std::vector<std::string> warnings;
    BootCost boot_cost{}; // set when a metric has a variance split
    // Why an adaptive experiment stopped ("every primary metric within +-2%
    // after 8 rounds"); "" for fixed runs.
    std::string stopped{};
    // ReportInput::incomplete; the title then ends in " (incomplete)".
    std::string incomplete{};
    // "What differs between the arms" (core/report/report_arms); empty without
    // arms facts or live values.
    ArmsSection arms{};
    // `[[bench]] counters`: beside the metrics, never a verdict (report_counters).
    CountersSection counters{};
    // "Likely explanations" of every metric with a verdict (core/report/report_explain);
    // empty when `arms` is.
    std::vector<MetricExplanation> explanations{};

    const RunCanary* find_canary(const std::string& run) const;

    const TargetReport* find_target(const std::string& name) const;
};

// Adds the commands of the benches `r` ran (core::command_inside, joined by
// spaces) to bench name -> commands, each once: TargetReport::commands.
void note_commands(std::map<std::string, std::vector<std::string>>& commands, const RunResult& r);

// The subject a report compares: `in.subject`, else the first target by name
// that is not the baseline; "" when there is none.
std::string subject_of(const ReportInput& in);

// Throws bootbench::Error (exit 2) for an unknown baseline or subject, an
// excluded run that is not in the results, or no metric common to both.
Report build_report(const ReportInput& input);

const char* to_string(Verdict v);

// "a: kernel 6.8.9, fedora:fedora/40 (40.1); b: ...": what each target booted.
std::string systems_line(const Report& r);

// The comparability warnings (environment, temperatures, run order, sample
// sizes, missing metrics): report_checks.cpp.
std::vector<std::string> comparability_warnings(const Report& report,
                                                const std::vector<const RunResult*>& included,
                                                const std::set<std::string>& varied_keys);
Caption make_caption(const std::vector<const RunResult*>& included);
// The environment keys that the targets' kernel arguments set on purpose
// (mitigations=off, nosmt, maxcpus=...), which differ by design.
std::set<std::string> varied_environment_keys(const Experiment& e);

// Each boot's iterations, or its one value: what the two-level bootstrap draws.
std::vector<std::vector<double>> boots_of(const MetricTarget& t);
// The variance split and advice of every metric with iterations inside boots,
// with the measured boot cost (else boot + `settle_s`): report_variance.cpp.
void add_variance(Report& report, const std::vector<const RunResult*>& included, int settle_s);
// A boot's cost from the runs (in start order): the median time from one run's
// start to the next's minus the first one's benches; the estimate's boot +
// settle (`settle_s`) when fewer than two runs have times.
BootCost measured_boot_cost(const std::vector<const RunResult*>& runs, int settle_s);

// Every metric of `r` with a verdict (better or worse), explained from
// r.arms and r.counters (report_explain.cpp); empty when `r` has no "What
// differs between the arms". `included` names each metric's bench and kind.
std::vector<MetricExplanation> explain_report(const Report& r,
                                              const std::vector<const RunResult*>& included);

// "name: ref@digest" for every target whose runs name their image; "" when none do.
std::string images_line(const Report& r);
std::string images_text(const TargetReport& t);
// "b: packages htop, vim": the targets whose runs booted layered packages, "" when none.
std::string layered_line(const Report& r);

} // namespace bootbench::core
