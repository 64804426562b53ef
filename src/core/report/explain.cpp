#include "core/report/explain.hpp"

#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/report/format_number.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace bootbench::core {

namespace {

// What a metric is exposed to: its bench's kind, or its key for the
// system's metrics. Every metric has `any`.
enum class Trait { any, cpu_bound, switches, scheduler, wakeups, memory, boot, energy };

// What a difference between the arms is, for the catalogue.
enum class Topic {
    none,
    load,
    mitigation,
    microcode,
    sched_class,
    sched_tick,
    sched_tunable,
    power,
    thp,
    vm_tunable,
    kernel_version,
    bench_program
};

// The catalogue: a topic, the trait that makes a metric sensitive to it, how
// sensitive (0..1) and why, in words. "{present}" is the target that has
// the difference.
struct Sensitivity {
    Topic topic;
    Trait trait;
    double weight;
    const char* reason;
};

constexpr Sensitivity kCatalogue[] = {
    {Topic::load, Trait::cpu_bound, 1.0,
     "a unit enabled only in {present} runs beside the bench and takes CPU time from it"},
    {Topic::load, Trait::wakeups, 0.8,
     "a unit enabled only in {present} runs beside the bench: its tasks hold the CPUs the bench's "
     "tasks wake up on"},
    {Topic::load, Trait::boot, 0.9,
     "a unit enabled only in {present} starts at every boot and adds to its time"},
    {Topic::load, Trait::memory, 0.9,
     "a unit enabled only in {present} holds memory and processes after settle"},
    {Topic::load, Trait::energy, 0.6,
     "a unit enabled only in {present} draws power from the same package"},
    {Topic::load, Trait::any, 0.4,
     "a unit enabled only in {present} can take CPU time, memory or I/O from the bench"},
    {Topic::mitigation, Trait::switches, 1.0,
     "the mitigations of CPU vulnerabilities (page-table isolation, branch and return barriers, "
     "buffer clearing) cost time at every syscall and context switch, which this bench does in a "
     "tight loop"},
    {Topic::mitigation, Trait::any, 0.2,
     "the mitigations of CPU vulnerabilities cost time at every syscall and context switch"},
    {Topic::microcode, Trait::switches, 0.7,
     "the microcode revision sets the cost of the barriers (IBPB, VERW) the mitigations run at "
     "syscalls and context switches, which this bench does in a tight loop"},
    {Topic::microcode, Trait::any, 0.15,
     "the microcode revision can change the cost of some instructions"},
    {Topic::sched_class, Trait::scheduler, 0.9,
     "another scheduler decides where the bench's tasks run, when they wake and which preempts "
     "which"},
    {Topic::sched_class, Trait::wakeups, 0.9,
     "another scheduler decides how soon a woken task runs, and where"},
    {Topic::sched_class, Trait::switches, 0.6,
     "every context switch goes through the scheduler's choice"},
    {Topic::sched_class, Trait::cpu_bound, 0.4,
     "the scheduler places the bench's threads on CPUs and preempts them"},
    {Topic::sched_tick, Trait::wakeups, 0.7,
     "the tick rate and the preemption model decide how soon a woken task preempts a running one"},
    {Topic::sched_tick, Trait::scheduler, 0.6,
     "the tick rate and the preemption model decide how often the scheduler preempts and "
     "rebalances"},
    {Topic::sched_tick, Trait::cpu_bound, 0.2,
     "a faster tick or a fuller preemption model interrupts the bench more"},
    {Topic::sched_tunable, Trait::scheduler, 0.7,
     "a scheduler tunable changes its decisions (migration cost, slices, wakeup preemption, NUMA "
     "balancing)"},
    {Topic::sched_tunable, Trait::wakeups, 0.7,
     "a scheduler tunable changes how soon a woken task runs"},
    {Topic::sched_tunable, Trait::cpu_bound, 0.3,
     "a scheduler tunable changes how the bench's threads are placed"},
    {Topic::power, Trait::switches, 0.8,
     "the power profile or governor sets the CPUs' frequency and idle states: a task that sleeps "
     "and wakes pays the idle state's exit time every time"},
    {Topic::power, Trait::wakeups, 0.8,
     "the power profile or governor sets the CPUs' idle states: a woken task waits for its CPU to "
     "leave one"},
    {Topic::power, Trait::energy, 1.0,
     "the power profile or governor sets the CPUs' frequency and voltage"},
    {Topic::power, Trait::any, 0.6,
     "the power profile or governor sets the CPUs' frequency, which every bench follows"},
    {Topic::thp, Trait::memory, 0.8,
     "transparent huge pages change how much memory processes map and how their page faults are "
     "served"},
    {Topic::thp, Trait::cpu_bound, 0.2,
     "khugepaged and THP compaction take CPU time and can stall allocations"},
    {Topic::vm_tunable, Trait::memory, 0.5,
     "a vm sysctl changes how the kernel reclaims and caches memory"},
    {Topic::kernel_version, Trait::boot, 0.5,
     "another kernel boots differently: its drivers, modules and initrd"},
    {Topic::kernel_version, Trait::any, 0.3,
     "another kernel changes most code paths the bench runs through (a weak, generic explanation)"},
    {Topic::bench_program, Trait::any, 0.5,
     "it is the bench's own program or the C library it calls"},
};

// Which topic a fact's name means: "NAME" exactly, "PREFIX*", or "*" for
// every name of its kind.
struct TopicRule {
    FactKind kind;
    const char* pattern;
    Topic topic;
};

constexpr TopicRule kTopics[] = {
    {FactKind::unit_enabled, "*", Topic::load},
    {FactKind::mitigation, "*", Topic::mitigation},
    {FactKind::microcode, "*", Topic::microcode},
    {FactKind::sched_ext, "*", Topic::sched_class},
    {FactKind::power_profile, "*", Topic::power},
    {FactKind::thp, "*", Topic::thp},
    {FactKind::kernel_version, "*", Topic::kernel_version},
    // the kernel's command line (Documentation/admin-guide/kernel-parameters.txt)
    {FactKind::kernel_arg, "mitigations", Topic::mitigation},
    {FactKind::kernel_arg, "nopti", Topic::mitigation},
    {FactKind::kernel_arg, "pti", Topic::mitigation},
    {FactKind::kernel_arg, "nospectre_*", Topic::mitigation},
    {FactKind::kernel_arg, "spectre_*", Topic::mitigation},
    {FactKind::kernel_arg, "spec_store_bypass_disable", Topic::mitigation},
    {FactKind::kernel_arg, "nospec_store_bypass_disable", Topic::mitigation},
    {FactKind::kernel_arg, "spec_rstack_overflow", Topic::mitigation},
    {FactKind::kernel_arg, "retbleed", Topic::mitigation},
    {FactKind::kernel_arg, "mds", Topic::mitigation},
    {FactKind::kernel_arg, "tsx_async_abort", Topic::mitigation},
    {FactKind::kernel_arg, "l1tf", Topic::mitigation},
    {FactKind::kernel_arg, "mmio_stale_data", Topic::mitigation},
    {FactKind::kernel_arg, "srbds", Topic::mitigation},
    {FactKind::kernel_arg, "gather_data_sampling", Topic::mitigation},
    {FactKind::kernel_arg, "reg_file_data_sampling", Topic::mitigation},
    {FactKind::kernel_arg, "dis_ucode_ldr", Topic::microcode},
    {FactKind::kernel_arg, "preempt", Topic::sched_tick},
    {FactKind::kernel_arg, "nohz", Topic::sched_tick},
    {FactKind::kernel_arg, "nohz_full", Topic::sched_tick},
    {FactKind::kernel_arg, "isolcpus", Topic::sched_class},
    {FactKind::kernel_arg, "intel_pstate", Topic::power},
    {FactKind::kernel_arg, "amd_pstate", Topic::power},
    {FactKind::kernel_arg, "cpufreq.default_governor", Topic::power},
    {FactKind::kernel_arg, "processor.max_cstate", Topic::power},
    {FactKind::kernel_arg, "intel_idle.max_cstate", Topic::power},
    {FactKind::kernel_arg, "idle", Topic::power},
    {FactKind::kernel_arg, "cpuidle.off", Topic::power},
    {FactKind::kernel_arg, "transparent_hugepage", Topic::thp},
    // the kernel config options core/deployment/kernel_config keeps
    {FactKind::kernel_config, "CONFIG_MITIGATION_*", Topic::mitigation},
    {FactKind::kernel_config, "CONFIG_SPECULATION_MITIGATIONS", Topic::mitigation},
    {FactKind::kernel_config, "CONFIG_HZ*", Topic::sched_tick},
    {FactKind::kernel_config, "CONFIG_NO_HZ*", Topic::sched_tick},
    {FactKind::kernel_config, "CONFIG_PREEMPT*", Topic::sched_tick},
    {FactKind::kernel_config, "CONFIG_SCHED_*", Topic::sched_class},
    {FactKind::kernel_config, "CONFIG_CACHY*", Topic::sched_class},
    {FactKind::kernel_config, "CONFIG_TRANSPARENT_HUGEPAGE*", Topic::thp},
    {FactKind::sysctl, "kernel.sched_*", Topic::sched_tunable},
    {FactKind::sysctl, "kernel.numa_balancing*", Topic::sched_tunable},
    {FactKind::sysctl, "vm.*", Topic::vm_tunable},
};

bool matches(const std::string& name, std::string pattern) {
    if (pattern.ends_with('*'))
        return name.starts_with(pattern.substr(0, pattern.size() - 1));
    return name == pattern;
}

// A package is a difference only when the bench runs it: its tool's
// package (its kind's descriptor) or the C library.
bool bench_program(const std::string& package, const MetricMove& m) {
    if (package.empty() || package == "glibc" || package == "libc6")
        return !package.empty();
    const auto& tool = bench_kind(m.kind).tool;
    return tool && (package == tool->debian || package == tool->fedora);
}

bool one_sided(const ArmFact& f) {
    return f.control.empty() != f.subject.empty();
}

bool system_metric(const MetricMove& m) {
    auto info = find_metric(m.metric);
    return info && info->from == MetricFrom::system;
}

Topic topic_of(const ArmFact& f, const MetricMove& m) {
    if (f.kind == FactKind::package)
        return !system_metric(m) && bench_program(f.name, m) ? Topic::bench_program : Topic::none;
    if (f.kind == FactKind::unit_enabled && !one_sided(f))
        return Topic::none; // enabled in both, in other ways: no more load in either
    for (const auto& rule : kTopics)
        if (rule.kind == f.kind && matches(f.name, rule.pattern))
            return rule.topic;
    return Topic::none;
}

std::vector<Trait> kind_traits(BenchKind kind) {
    switch (kind) {
    case BenchKind::perf_sched_pipe:
        return {Trait::switches, Trait::wakeups};
    case BenchKind::perf_sched_messaging:
        return {Trait::switches, Trait::scheduler, Trait::cpu_bound};
    case BenchKind::sysbench_threads:
        return {Trait::switches, Trait::scheduler, Trait::cpu_bound};
    case BenchKind::schbench:
        return {Trait::wakeups, Trait::scheduler, Trait::cpu_bound};
    case BenchKind::perf_bench_futex:
        return {Trait::switches, Trait::cpu_bound};
    case BenchKind::command:
        return {};
    }
    return {};
}

std::vector<Trait> traits_of(const MetricMove& m) {
    std::vector<Trait> t{Trait::any};
    if (m.metric.ends_with("_energy_j") || m.metric.ends_with("_power_w") ||
        m.metric.ends_with("_per_watt"))
        t.push_back(Trait::energy);
    if (system_metric(m)) {
        t.push_back(m.metric.starts_with("boot_") ? Trait::boot : Trait::memory);
        return t;
    }
    auto more = kind_traits(m.kind);
    t.insert(t.end(), more.begin(), more.end());
    return t;
}

// The catalogue's entry for the topic with the largest weight among the
// metric's traits; null when the metric is sensitive to none.
const Sensitivity* sensitivity(Topic topic, const std::vector<Trait>& traits) {
    const Sensitivity* best = nullptr;
    for (const auto& s : kCatalogue)
        if (s.topic == topic && std::find(traits.begin(), traits.end(), s.trait) != traits.end() &&
            (!best || s.weight > best->weight))
            best = &s;
    return best;
}

enum class Side { neither, control, subject };

// Fewer mitigations: a karg that turns one off, a config option off, a
// vulnerability the kernel leaves open.
bool fewer_mitigations(const std::string& v) {
    return v == "n" || v.starts_with("Vulnerable") || v.ends_with("=off") || v.starts_with("no");
}

Side slower_by(bool control_faster, bool subject_faster) {
    if (control_faster == subject_faster)
        return Side::neither;
    return control_faster ? Side::subject : Side::control;
}

bool has(const std::string& v, const char* word) {
    return v.find(word) != std::string::npos;
}

Side slower_power(const ArmFact& f) {
    Side s = slower_by(has(f.control, "performance"), has(f.subject, "performance"));
    if (s != Side::neither)
        return s;
    bool c_saves = has(f.control, "powersave") || has(f.control, "power-saver");
    bool s_saves = has(f.subject, "powersave") || has(f.subject, "power-saver");
    return slower_by(s_saves, c_saves);
}

// The target the difference would make slower, where the catalogue knows
// the direction: the one with the extra unit, the mitigations, the lower
// power profile.
Side expected_slower(const ArmFact& f, Topic topic) {
    switch (topic) {
    case Topic::load:
        return f.control.empty() ? Side::subject : Side::control;
    case Topic::mitigation:
        return slower_by(fewer_mitigations(f.control), fewer_mitigations(f.subject));
    case Topic::power:
        return slower_power(f);
    default:
        return Side::neither;
    }
}

// An explanation that predicts the other direction is no explanation.
bool consistent(Side slower, const MetricMove& m) {
    return slower == Side::neither || (slower == Side::subject) == (m.ratio < 1);
}

bool changed(const MetricMove& m) {
    if (!std::isfinite(m.ratio) || m.ratio <= 0 || std::fabs(m.ratio - 1) < kNoChange)
        return false;
    return !m.ci || !(m.ci->lo <= 1 && 1 <= m.ci->hi);
}

// The counters whose move supports a topic: each up when the metric got
// worse, "ipc" down.
struct CounterRule {
    Topic topic;
    const char* counter;
};

constexpr CounterRule kSupport[] = {
    {Topic::load, "context-switches"},
    {Topic::load, "cpu-migrations"},
    {Topic::sched_class, "context-switches"},
    {Topic::sched_class, "cpu-migrations"},
    {Topic::sched_tick, "context-switches"},
    {Topic::sched_tick, "cpu-migrations"},
    {Topic::sched_tunable, "context-switches"},
    {Topic::sched_tunable, "cpu-migrations"},
    {Topic::mitigation, "ipc"},
    {Topic::mitigation, "cycles"},
    {Topic::mitigation, "branch-misses"},
    {Topic::mitigation, "cache-misses"},
    {Topic::microcode, "ipc"},
    {Topic::microcode, "cycles"},
    {Topic::thp, "page-faults"},
    {Topic::thp, "dTLB-load-misses"},
    {Topic::vm_tunable, "page-faults"},
    {Topic::kernel_version, "ipc"},
    {Topic::kernel_version, "instructions"},
    {Topic::bench_program, "ipc"},
    {Topic::bench_program, "instructions"},
};

// "cycles:u" -> "cycles".
std::string event_of(const std::string& counter) {
    return counter.substr(0, counter.find(':'));
}

bool listed(Topic topic, const std::string& event) {
    return std::any_of(std::begin(kSupport), std::end(kSupport), [&](const CounterRule& r) {
        return r.topic == topic && event == r.counter;
    });
}

// Same direction as the metric, and at least a quarter of its move on a log
// scale (more is fine: an event's count can move far more than the time it
// costs).
bool moves_with(const CounterMove& c, const MetricMove& m) {
    if (!c.clear || !std::isfinite(c.ratio) || c.ratio <= 0)
        return false;
    double counter_log = std::log(c.ratio) * (event_of(c.counter) == "ipc" ? -1 : 1);
    double worse_log = -std::log(m.ratio);
    return counter_log * worse_log > 0 && std::fabs(counter_log) >= 0.25 * std::fabs(worse_log);
}

std::vector<std::string> evidence(Topic topic, const MetricMove& m,
                                  const std::vector<CounterMove>& counters) {
    std::vector<std::string> out;
    for (const auto& c : counters)
        if (listed(topic, event_of(c.counter)) && moves_with(c, m))
            out.push_back(c.counter + " " + format_ratio(c.ratio) + " in " + m.subject);
    return out;
}

constexpr size_t kMaxExplanations = 3;
constexpr double kVariesFactor = 0.5;
constexpr double kPerCounter = 0.5;
constexpr double kMaxSupport = 2;

double score(const Sensitivity& s, const ArmFact& f, size_t supporting) {
    double support = std::min(kMaxSupport, 1 + kPerCounter * static_cast<double>(supporting));
    return s.weight * (f.varies ? kVariesFactor : 1) * support;
}

std::string side_name(Side s, const MetricMove& m) {
    return s == Side::control ? m.control : m.subject;
}

std::string present_in(const ArmFact& f, const MetricMove& m) {
    return side_name(f.control.empty() ? Side::subject : Side::control, m);
}

std::string label_of(const ArmFact& f) {
    return f.kind == FactKind::kernel_version ? "kernel" : f.name;
}

// "mitigations=off in a only", "busy.service enabled in b only",
// "kernel: 6.1 in a, 6.2 in b".
std::string describe(const ArmFact& f, const MetricMove& m) {
    std::string only = " in " + present_in(f, m) + " only";
    std::string value = f.control.empty() ? f.subject : f.control;
    std::string text;
    if (f.kind == FactKind::unit_enabled)
        text = f.name + " enabled" + only;
    else if (one_sided(f))
        text = (f.kind == FactKind::kernel_arg ? value : label_of(f) + ": " + value) + only;
    else
        text = label_of(f) + ": " + f.control + " in " + m.control + ", " + f.subject + " in " +
               m.subject;
    return f.varies ? text + " (varies within a target)" : text;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

// A unit's package, when it differs too: "busy.service" <- "busy".
std::string with_package(std::string what, const ArmFact& unit, const std::vector<ArmFact>& facts,
                         const MetricMove& m) {
    std::string stem = unit.name.substr(0, unit.name.rfind('.'));
    for (const auto& f : facts)
        if (f.kind == FactKind::package && f.name == stem)
            return what + " (package " + describe(f, m) + ")";
    return what;
}

struct Candidate {
    Explanation e;
    Topic topic;
    size_t more = 0; // differences of its topic beyond the two its `what` names
};

std::optional<Candidate> candidate(const ArmFact& f, const MetricMove& m,
                                   const std::vector<ArmFact>& facts,
                                   const std::vector<CounterMove>& counters) {
    Topic topic = f.control == f.subject && !f.varies ? Topic::none : topic_of(f, m);
    const Sensitivity* s = topic == Topic::none ? nullptr : sensitivity(topic, traits_of(m));
    if (!s || !consistent(expected_slower(f, topic), m))
        return std::nullopt;
    Explanation e{describe(f, m), replace_all(s->reason, "{present}", present_in(f, m)), 0,
                  evidence(topic, m, counters)};
    if (f.kind == FactKind::unit_enabled)
        e.what = with_package(e.what, f, facts, m);
    e.score = score(*s, f, e.evidence.size());
    return Candidate{e, topic};
}

std::vector<Candidate> candidates(const MetricMove& m, const std::vector<ArmFact>& facts,
                                  const std::vector<CounterMove>& counters) {
    std::vector<Candidate> all;
    for (const auto& f : facts)
        if (auto c = candidate(f, m, facts, counters))
            all.push_back(std::move(*c));
    std::stable_sort(all.begin(), all.end(),
                     [](const Candidate& a, const Candidate& b) { return a.e.score > b.e.score; });
    return all;
}

// Differences of one topic are one cause (five vulnerabilities' lines and
// mitigations=off): the best-scored one names it, two more are added to
// it, the rest counted. Units are causes each.
void add(std::vector<Candidate>& ranked, Candidate c) {
    auto same = std::find_if(ranked.begin(), ranked.end(), [&](const Candidate& r) {
        return r.topic == c.topic && c.topic != Topic::load;
    });
    if (same == ranked.end())
        ranked.push_back(std::move(c));
    else if (++same->more <= 2)
        same->e.what += "; " + c.e.what;
}

Explanation finished(Candidate c) {
    if (c.more > 2)
        c.e.what += "; and " + std::to_string(c.more - 2) + " more of the kind";
    return std::move(c.e);
}

} // namespace

std::vector<Explanation> explain(const MetricMove& m, const std::vector<ArmFact>& facts,
                                 const std::vector<CounterMove>& counters) {
    if (!changed(m))
        return {};
    std::vector<Candidate> ranked;
    for (auto& c : candidates(m, facts, counters))
        add(ranked, std::move(c));
    std::vector<Explanation> out;
    for (size_t i = 0; i < ranked.size() && i < kMaxExplanations; ++i)
        out.push_back(finished(std::move(ranked[i])));
    return out;
}

namespace {

std::string metric_text(const MetricMove& m) {
    return m.metric + (m.bench.empty() ? "" : " (" + m.bench + ")");
}

} // namespace

std::string move_text(const MetricMove& m) {
    double worse = m.ratio < 1 ? 1 / m.ratio : m.ratio;
    return metric_text(m) + ", " + format_ratio(worse) + (m.ratio < 1 ? " worse" : " better") +
           " in " + m.subject;
}

std::string nothing_explains(const MetricMove& m) {
    if (!changed(m))
        return metric_text(m) + " did not change between " + m.control + " and " + m.subject +
               ": nothing to explain.";
    return "Nothing that differs between " + m.control + " and " + m.subject +
           " is known to move " + move_text(m) + ".";
}

std::string explanation_line(const Explanation& e) {
    std::string line = e.what + ": " + e.why;
    for (size_t i = 0; i < e.evidence.size(); ++i)
        line += (i == 0 ? " (moved with it: " : ", ") + e.evidence[i];
    return e.evidence.empty() ? line : line + ")";
}

} // namespace bootbench::core
