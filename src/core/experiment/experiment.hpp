#pragma once
// The experiment file's model: plain values, validated once at parse time.
#include "core/base/string_table.hpp"
#include "core/experiment/bench.hpp"
#include "core/experiment/names.hpp"
#include "core/experiment/source_pos.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bootbench::core {

// Limits on the experiment file: each bounds what a value can make bootbench
// allocate or wait for. The README lists every key's range.
inline constexpr int kMaxRuns = 1000;          // experiment.runs, per target
inline constexpr int kMaxPlannedRuns = 10000;  // runs x targets
inline constexpr int kMaxBenches = 100;        // [[bench]] tables
inline constexpr int kMaxSeconds = 86400;      // every *_s key: one day
inline constexpr int kMaxRepeat = 1000;        // [[bench]] repeat: iterations in one boot

enum class Order { blocked, interleaved, counterbalanced, random };
enum class SelectorKind { image, refspec, checksum, deployment };

// The names experiment files, states and results use (core/base/string_table).
inline constexpr Named<Order> kOrderNames[] = {{"blocked", Order::blocked},
                                               {"interleaved", Order::interleaved},
                                               {"counterbalanced", Order::counterbalanced},
                                               {"random", Order::random}};
inline constexpr Named<SelectorKind> kSelectorKindNames[] = {{"image", SelectorKind::image},
                                                             {"refspec", SelectorKind::refspec},
                                                             {"checksum", SelectorKind::checksum},
                                                             {"deployment", SelectorKind::deployment}};
enum class OnTempTimeout { run, fail };
enum class OnBootFailure { skip, stop };
inline constexpr Named<OnTempTimeout> kOnTempTimeoutNames[] = {{"run", OnTempTimeout::run},
                                                               {"fail", OnTempTimeout::fail}};
inline constexpr Named<OnBootFailure> kOnBootFailureNames[] = {{"skip", OnBootFailure::skip},
                                                               {"stop", OnBootFailure::stop}};

struct Selector {
    SelectorKind kind = SelectorKind::deployment;
    std::string value; // image reference, refspec or checksum (prefix)
    int index = -1;    // deployment index, for SelectorKind::deployment
};

struct Target {
    std::string name;
    Selector selector;
    std::vector<std::string> kargs;
    std::string expect_kernel; // glob on uname -r; empty = any
    bool stage = false;        // may be staged with bootc / rpm-ostree when absent
    bool pin_digest = false;   // stage by digest instead of tag
    bool allow_layered = false; // an image target may run on a deployment with rpm-ostree layered packages
    SourcePos pos;
};

struct Conditions {
    std::string governor;  // "" = don't care
    bool set_governor = false;
    std::string sched_ext; // "" = don't care
    int settle_s = 60;
    double max_start_temp_c = 55.0;
    int temp_wait_timeout_s = 1800;
    OnTempTimeout on_temp_timeout = OnTempTimeout::run;
    std::optional<double> start_temp_band_c;
    // Units stopped (runtime masks) at each boot before settling; absent:
    // core::default_stop_units(), the update, trim and indexing timers.
    std::optional<std::vector<std::string>> stop_units;
};

// Background load: stress-ng --cpu N for the length of the suite.
struct Load {
    enum class Kind { none, half, all, count };
    Kind kind = Kind::none;
    int count = 0;
};

struct ReportConfig {
    std::vector<std::string> exclude; // run ids
    std::vector<std::string> per_watt; // higher-is-better metrics also compared per watt (core/result/per_watt)
};

// [boot]: what bootbench records of the boot itself.
struct BootConfig {
    bool measure = true; // systemd's boot times as metrics (core/bench/boot_times)
};

struct Notify {
    std::string url;
    std::string format = "text"; // text | json
    std::vector<std::string> on;
    std::string token_file;
    std::string token_env;
};

// An experiment that sizes itself to the night (core/sizing/adaptive): runs are
// added one round at a time (one run per target) until every primary
// metric's ratio interval is within `precision`, or `runs` (the max) is
// reached, or the next round would end after `until`.
struct Adaptive {
    int min_runs = 1;                 // rounds before precision may stop it
    std::string until;                // "06:30" as written; "" = no deadline
    int until_minutes = -1;           // minutes after local midnight; -1 = none
    double precision = 0;             // relative half-width of the 95% interval; 0 = none
    std::vector<std::string> primary; // empty = every metric
};

struct Experiment {
    std::string name;
    std::string title;
    int runs = 1;
    Order order = Order::interleaved;
    unsigned long long seed = 1;
    std::string baseline;
    int max_attempts = 3;
    OnBootFailure on_boot_failure = OnBootFailure::skip;
    std::vector<Target> targets;
    Conditions conditions;
    Load load;
    std::vector<Bench> benches;
    ReportConfig report;
    std::optional<Notify> notify;
    // [tools] image: the container image every bench and the load run in
    // (the same bytes in every arm); "" runs the host's own tools.
    std::string tools_image;
    BootConfig boot;
    // runs = { min, max }, until or precision: e.runs is then the max.
    std::optional<Adaptive> adaptive;
    bool quick = false;      // a rehearsal: run times scaled down (see quick_version)
    std::string source_file; // the path it was read from

    const Target* find_target(const std::string& target_name) const;
    // The first target that is not the baseline: the report's subject.
    const Target& subject() const;
};

const char* to_string(Order order);
const char* to_string(SelectorKind kind);
const char* to_string(BenchKind kind);
const char* to_string(Better better);

// Scales run times down for rehearsals: no settling, short benches. Applied
// once: an experiment that is already quick comes back unchanged.
Experiment quick_version(Experiment e);

// What a file is for: an A/B experiment names its [[target]] tables and its
// baseline; a bisect (core/bisect) names its builds in [bisect] instead.
enum class ExperimentFile { ab, bisect };

// Parses and validates an experiment file's text. Throws bootbench::Error
// (exit 2) whose message has one line per mistake: "FILE:LINE:COL: what".
Experiment parse_experiment(const std::string& text, const std::string& file_name);

} // namespace bootbench::core
