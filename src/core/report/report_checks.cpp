// What can make the comparison unfair or weak, as warnings for the top of
// the report, and the caption that says where the runs were taken.
#include "core/report/render_text.hpp"
#include "core/report/report.hpp"
#include "core/base/time.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <span>
#include <string_view>

namespace bootbench::core {

namespace {

struct EnvKey {
    EnvField field;
    const char* name; // what a reader calls it
};

// Differences in these make runs incomparable unless the experiment varies them.
const EnvKey kCompared[] = {
    {EnvField::governor, "CPU frequency governor"},
    {EnvField::epp, "energy/performance preference"},
    {EnvField::sched_ext_state, "sched_ext state"},
    {EnvField::sched_ext_ops, "sched_ext scheduler"},
    {EnvField::smt, "SMT"},
    {EnvField::mitigations, "CPU vulnerability mitigations"},
    {EnvField::nproc, "CPU count"},
    {EnvField::cpu_model, "CPU model"},
    {EnvField::ac_power, "AC power"},
    {EnvField::tools_image, "benchmark tools image"},
};

std::string display(const nlohmann::json& v) {
    // the kernel's words in /sys/devices/system/cpu/smt/control
    static const std::map<std::string, std::string> kernel_words = {{"notsupported", "not supported"},
                                                                    {"notimplemented", "not implemented"},
                                                                    {"forceoff", "forced off"}};
    if (v.is_string()) {
        auto it = kernel_words.find(v.get<std::string>());
        return ascii_safe(it == kernel_words.end() ? v.get<std::string>() : it->second);
    }
    if (v.is_boolean()) // ac_power, smt: "AC power yes" reads better than "true"
        return v.get<bool>() ? "yes" : "no";
    return ascii_safe(v.dump());
}

// "a-1, a-2, a-3, a-4 and 6 more": the first runs of `total`.
std::string run_list(const std::vector<std::string>& runs, size_t total = 0) {
    total = std::max(total, runs.size());
    std::string s;
    for (size_t i = 0; i < runs.size() && i < 4; ++i)
        s += (i ? ", " : "") + runs[i];
    if (total > 4)
        s += " and " + std::to_string(total - 4) + " more";
    return s;
}

// The distinct non-null values of an environment field, each with its runs.
// Compared as JSON values, not as text: thousands of runs share a few values.
using ValueGroups = std::vector<std::pair<nlohmann::json, std::vector<const RunResult*>>>;

ValueGroups group_by_value(const std::vector<const RunResult*>& runs, EnvField field) {
    ValueGroups groups;
    for (const RunResult* r : runs) {
        nlohmann::json value = value_of(r->environment, field);
        if (value.is_null())
            continue;
        auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == value; });
        if (g == groups.end())
            g = groups.emplace(groups.end(), std::move(value), std::vector<const RunResult*>{});
        g->second.push_back(r);
    }
    return groups;
}

void environment_warnings(const std::vector<const RunResult*>& runs,
                          const std::set<std::string>& varied, std::vector<std::string>& out) {
    for (const auto& k : kCompared) {
        if (varied.count(key_of(k.field)))
            continue;
        auto groups = group_by_value(runs, k.field);
        if (groups.size() < 2)
            continue;
        std::string s = std::string(k.name) + " (" + key_of(k.field) + ") differs between runs:";
        for (const auto& [value, group] : groups) {
            std::vector<std::string> ids;
            for (size_t i = 0; i < group.size() && i <= 4; ++i)
                ids.push_back(group[i]->run_id);
            s += " '" + display(value) + "' in " + run_list(ids, group.size()) + ";";
        }
        s.back() = '.';
        out.push_back(s + " Only the deployment should differ: fix the setting and run again.");
    }
}

void temperature_warning(const Report& report, const std::vector<const RunResult*>& runs,
                         std::vector<std::string>& out) {
    std::vector<std::pair<std::string, double>> medians;
    for (const auto& t : report.targets) {
        std::vector<double> temps;
        for (const RunResult* r : runs)
            if (auto c = r->environment.temp_start_c.value; c && r->target == t.name)
                temps.push_back(*c);
        if (!temps.empty())
            medians.emplace_back(t.name, median(temps));
    }
    if (medians.size() < 2)
        return;
    auto [lo, hi] =
        std::minmax_element(medians.begin(), medians.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; });
    if (hi->second - lo->second <= kMaxStartTempGapC)
        return;
    out.push_back("Start temperatures differ: median " + format_fixed(hi->second, 1) + " C for " +
                  hi->first + " against " + format_fixed(lo->second, 1) + " C for " + lo->first +
                  " (more than " + format_fixed(kMaxStartTempGapC, 0) +
                  " C apart); a warmer start throttles sooner. Lower max_start_temp_c.");
}

// Runs that ended at the CPU's thermal limit: their later benches measured
// the cooling as much as the system.
void hot_end_warning(const std::vector<const RunResult*>& runs, std::vector<std::string>& out) {
    std::vector<double> hot;
    for (const RunResult* r : runs)
        if (auto c = r->environment.temp_end_c.value; c && *c >= kHotEndC)
            hot.push_back(*c);
    if (hot.empty())
        return;
    auto [lo, hi] = std::minmax_element(hot.begin(), hot.end());
    out.push_back(std::to_string(hot.size()) + " of " + std::to_string(runs.size()) + " runs ended at " +
                  format_fixed(*lo, 1) + (*hi > *lo ? "-" + format_fixed(*hi, 1) : "") +
                  " C, at the CPU's thermal limit: their last benches ran throttled, so the results "
                  "measure the cooling too. Shorter benches, or a cooler room, keep them below " +
                  format_fixed(kHotEndC, 0) + " C.");
}

} // namespace


namespace {

void order_warning(const Report& report, const std::vector<const RunResult*>& runs,
                   std::vector<std::string>& out) {
    std::vector<std::pair<long long, std::string>> starts;
    for (const RunResult* r : runs) {
        auto t = parse_instant(r->started_at);
        if (!t)
            return;
        starts.emplace_back(t->epoch_s, r->target);
    }
    std::sort(starts.begin(), starts.end());
    std::vector<std::string> blocks;
    for (const auto& [t, target] : starts)
        if (blocks.empty() || blocks.back() != target)
            blocks.push_back(target);
    size_t targets_with_runs = 0;
    for (const auto& t : report.targets)
        targets_with_runs += t.runs.size() >= 2;
    if (targets_with_runs < 2 || blocks.size() != targets_with_runs)
        return;
    std::string seq;
    for (const auto& b : blocks)
        seq += (seq.empty() ? "all " : ", then all ") + b;
    out.push_back("Runs were taken in blocks (" + seq +
                  "): a drift over time is indistinguishable from the difference between targets. "
                  "Interleave the targets (order = \"interleaved\").");
}

// The smallest p-value the exact test can give for ns against nb values
// (fully separated, no ties).
double min_exact_p(size_t ns, size_t nb) {
    std::vector<double> x(ns), y(nb);
    for (size_t i = 0; i < ns; ++i)
        x[i] = static_cast<double>(i);
    for (size_t i = 0; i < nb; ++i)
        y[i] = static_cast<double>(ns + i);
    return mann_whitney(x, y).min_p_value;
}

size_t compared_metrics(const Report& r) {
    size_t n = 0;
    for (const auto& m : r.metrics)
        n += m.comparison.has_value();
    return n;
}

// The smallest p after Holm's adjustment over `metrics` tests: all of them
// at the smallest raw p.
double smallest_adjusted(double min_p, size_t metrics) {
    return std::min(1.0, min_p * static_cast<double>(std::max<size_t>(metrics, 1)));
}

// "0.029, and 0.229 after Holm's adjustment over 8 metrics,"
std::string smallest_p_text(double min_p, size_t metrics) {
    std::string text = format_fixed(min_p, 3);
    if (metrics > 1)
        text += ", and " + format_fixed(smallest_adjusted(min_p, metrics), 3) +
                " after Holm's adjustment over " + std::to_string(metrics) + " metrics,";
    return text;
}

// The fewest runs of each target that can show a difference in one of
// `metrics` compared metrics.
size_t runs_needed(size_t metrics) {
    size_t n = 2;
    while (n < kExactTestMaxN / 2 && smallest_adjusted(min_exact_p(n, n), metrics) >= kAlpha)
        ++n;
    return n;
}

// Whether it warned: then every verdict is ~ whatever each metric has.
bool run_count_warning(const Report& report, std::vector<std::string>& out) {
    size_t nb = report.find_target(report.baseline)->runs.size();
    size_t ns = report.find_target(report.subject)->runs.size();
    if (nb == 0 || ns == 0 || nb + ns > kExactTestMaxN)
        return false;
    double min_p = min_exact_p(ns, nb);
    size_t metrics = compared_metrics(report);
    if (smallest_adjusted(min_p, metrics) < kAlpha)
        return false;
    out.push_back("With " + std::to_string(ns) + (ns == 1 ? " run of " : " runs of ") +
                  report.subject + " and " + std::to_string(nb) + " of " + report.baseline +
                  ", the smallest p-value the exact test can give is " +
                  smallest_p_text(min_p, metrics) + " not below " + format_fixed(kAlpha, 2) +
                  ": no difference can be shown to be real, so every verdict is ~. Take at "
                  "least " + std::to_string(runs_needed(metrics)) + " runs of each target.");
    return true;
}

// The compared metrics by their (subject, baseline) value counts.
std::map<std::pair<size_t, size_t>, std::vector<std::string>> by_value_counts(const Report& r) {
    std::map<std::pair<size_t, size_t>, std::vector<std::string>> groups;
    for (const auto& m : r.metrics)
        if (m.comparison)
            groups[{m.find(r.subject)->summary.n, m.find(r.baseline)->summary.n}].push_back(m.key);
    return groups;
}

std::string value_count_text(const Report& r, const std::vector<std::string>& keys, size_t ns,
                             size_t nb, double min_p) {
    bool one = keys.size() == 1;
    return run_list(keys) + (one ? " has " : " have ") + std::to_string(ns) +
           (ns == 1 ? " value of " : " values of ") + r.subject + " and " + std::to_string(nb) +
           " of " + r.baseline + ": the smallest p-value the exact test can give is " +
           smallest_p_text(min_p, compared_metrics(r)) + " not below " + format_fixed(kAlpha, 2) +
           ", so " + (one ? "its verdict is ~" : "their verdicts are ~") + ". Take at least " +
           std::to_string(runs_needed(compared_metrics(r))) + " runs of each target that give " +
           (one ? "it." : "them.");
}

// A metric some runs lack can have too few values for a verdict while the
// runs have enough: one warning per value counts, naming the metrics.
void value_count_warnings(const Report& report, std::vector<std::string>& out) {
    for (const auto& [n, keys] : by_value_counts(report)) {
        auto [ns, nb] = n;
        double min_p = ns + nb > kExactTestMaxN ? 0 : min_exact_p(ns, nb);
        if (smallest_adjusted(min_p, compared_metrics(report)) >= kAlpha)
            out.push_back(value_count_text(report, keys, ns, nb, min_p));
    }
}

void sample_size_warnings(const Report& report, std::vector<std::string>& out) {
    if (!run_count_warning(report, out))
        value_count_warnings(report, out);
}

void missing_warnings(const Report& report, const std::vector<const RunResult*>& runs,
                      std::vector<std::string>& out) {
    for (const auto& m : report.metrics) {
        std::set<std::string_view> with; // from the samples: a lookup per run was quadratic in keys
        for (const auto& t : m.targets)
            for (const auto& s : t.samples)
                with.insert(s.run);
        std::vector<std::string> without;
        for (const RunResult* r : runs)
            if (!with.count(r->run_id))
                without.push_back(r->run_id);
        if (!without.empty())
            out.push_back(m.key + " is missing in " + std::to_string(without.size()) + " of " +
                          std::to_string(runs.size()) + " runs (" + run_list(without) +
                          "); its statistics use the runs that have it.");
    }
}

// Metrics that runs list as missing and no run has: the report would not
// show them at all. One line per reason, the metrics named.
struct Absent {
    std::set<std::string> keys;
    size_t runs = 0; // how many runs gave this reason
};

std::map<std::string, Absent> absent_by_reason(const Report& report,
                                               const std::vector<const RunResult*>& runs) {
    std::set<std::string> shown;
    for (const auto& m : report.metrics)
        shown.insert(m.key);
    std::map<std::string, Absent> by_reason;
    for (const RunResult* r : runs) {
        std::set<std::string> reasons_here;
        for (const auto& x : r->missing)
            if (!shown.count(x.key)) {
                by_reason[x.reason].keys.insert(x.key);
                reasons_here.insert(x.reason);
            }
        for (const auto& reason : reasons_here)
            ++by_reason[reason].runs;
    }
    return by_reason;
}

void absent_warnings(const Report& report, const std::vector<const RunResult*>& runs,
                     std::vector<std::string>& out) {
    for (const auto& [reason, absent] : absent_by_reason(report, runs)) {
        const auto& keys = absent.keys;
        out.push_back(run_list({keys.begin(), keys.end()}) + (keys.size() == 1 ? " is" : " are") +
                      " in no run: " + reason + " (said by " + std::to_string(absent.runs) + " of " +
                      std::to_string(runs.size()) + " runs).");
    }
}

// A run file whose direction for a metric is not the one the report uses.
void direction_warnings(const Report& report, std::vector<std::string>& out) {
    for (const auto& m : report.metrics) {
        if (m.better_disputed.empty())
            continue;
        std::string used = to_string(m.better);
        std::string other = m.better == Better::lower ? "higher" : "lower";
        out.push_back(m.key + ": " + run_list(m.better_disputed) +
                      (m.better_disputed.size() == 1 ? " says " : " say ") + other +
                      " is better; " + m.better_from + " says " + used +
                      ", and the report uses " + used + ".");
    }
}

void run_warnings(const Report& report, std::vector<std::string>& out) {
    size_t failed = 0;
    for (const auto& t : report.targets)
        failed += t.failed.size();
    if (failed)
        out.push_back(std::to_string(failed) +
                      (failed == 1 ? " run failed and has" : " runs failed and have") +
                      " no metrics (listed under Failed runs).");
    if (!report.outliers.empty()) {
        std::set<std::string> runs;
        for (const auto& o : report.outliers)
            runs.insert(o.run);
        bool one = runs.size() == 1;
        out.push_back(
            std::to_string(runs.size()) +
            (one ? " run is flagged as an outlier (" : " runs are flagged as outliers (") +
            run_list({runs.begin(), runs.end()}) +
            (one ? "); it is kept unless you exclude it"
                 : "); they are kept unless you exclude them") +
            " (--exclude RUN_ID).");
    }
}

// Benches that failed in an iteration after the first: their values are
// the median of the iterations before (core/bench/iterations). One line per bench.
void iteration_warnings(const std::vector<const RunResult*>& runs, std::vector<std::string>& out) {
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> stopped; // bench -> run, reason
    for (const RunResult* r : runs)
        for (const auto& b : r->benches)
            if (b.iterations > 1 && (b.status == BenchStatus::failed || b.status == BenchStatus::timeout))
                stopped[b.name].emplace_back(r->run_id, b.reason);
    for (const auto& [bench, list] : stopped) {
        std::vector<std::string> ids;
        for (const auto& x : list)
            ids.push_back(x.first);
        out.push_back("bench " + ascii_safe(bench) + " stopped before its last iteration in " +
                      std::to_string(list.size()) + " of " + std::to_string(runs.size()) + " runs (" +
                      run_list(ids) + "): their values are the median of the iterations before the failure (" +
                      list[0].first + ": " + ascii_safe(list[0].second) + ").");
    }
}

// "a / b" of the distinct values of an environment field, "" when no run has it.
std::string distinct_values(const std::vector<const RunResult*>& runs, EnvField field) {
    std::set<std::string> values;
    for (const auto& [value, group] : group_by_value(runs, field))
        values.insert(display(value));
    std::string s;
    for (const auto& v : values)
        s += (s.empty() ? "" : " / ") + v;
    return s;
}

// Kernel argument prefix -> the environment fields it changes.
constexpr EnvField kMitigations[] = {EnvField::mitigations};
constexpr EnvField kCpus[] = {EnvField::smt, EnvField::nproc};
constexpr EnvField kFrequency[] = {EnvField::governor, EnvField::epp};
const std::pair<const char*, std::span<const EnvField>> kKargEffects[] = {
    {"mitigations", kMitigations}, {"nospectre", kMitigations}, {"spectre", kMitigations},
    {"pti", kMitigations},         {"nopti", kMitigations},     {"mds", kMitigations},
    {"retbleed", kMitigations},    {"nosmt", kCpus},            {"smt", kCpus},
    {"maxcpus", kCpus},            {"nr_cpus", kCpus},          {"cpufreq", kFrequency},
    {"amd_pstate", kFrequency},    {"intel_pstate", kFrequency},
};

} // namespace

std::set<std::string> varied_environment_keys(const Experiment& e) {
    std::set<std::string> keys;
    for (const auto& t : e.targets)
        for (const auto& karg : t.kargs)
            for (const auto& [prefix, effects] : kKargEffects)
                if (karg.rfind(prefix, 0) == 0)
                    for (EnvField field : effects)
                        keys.insert(key_of(field));
    return keys;
}

std::vector<std::string> comparability_warnings(const Report& report,
                                                const std::vector<const RunResult*>& included,
                                                const std::set<std::string>& varied_keys) {
    std::vector<std::string> out;
    environment_warnings(included, varied_keys, out);
    temperature_warning(report, included, out);
    hot_end_warning(included, out);
    order_warning(report, included, out);
    sample_size_warnings(report, out);
    missing_warnings(report, included, out);
    absent_warnings(report, included, out);
    direction_warnings(report, out);
    run_warnings(report, out);
    iteration_warnings(included, out);
    return out;
}

bool any_run_says(const std::vector<const RunResult*>& runs, Recorded<bool> EnvironmentRecord::*field) {
    return std::any_of(runs.begin(), runs.end(),
                       [&](const RunResult* r) { return (r->environment.*field).value == true; });
}

// What a reader must know before any number: the runs were no measurement
// of the targets' systems (sandbox), or of shortened benches (--quick).
void set_provenance(Caption& c, const std::vector<const RunResult*>& included) {
    bool sandbox = any_run_says(included, &EnvironmentRecord::sandbox);
    bool quick = any_run_says(included, &EnvironmentRecord::quick);
    c.provenance_tag = std::string(sandbox ? "sandbox simulation" : "") + (sandbox && quick ? ", " : "") +
                       (quick ? "--quick rehearsal" : "");
    std::string s = sandbox ? "Simulated on a sandbox (bootbench simulate): every target ran on the kernel "
                              "of the machine that simulated it, so differences are noise, not the targets'"
                            : "";
    if (quick)
        s += std::string(s.empty() ? "A" : "; a") + " --quick rehearsal: benches shortened, not a measurement";
    c.provenance = s.empty() ? s : s + ".";
}

Caption make_caption(const std::vector<const RunResult*>& included) {
    Caption c;
    c.machine = distinct_values(included, EnvField::cpu_model);
    if (std::string n = distinct_values(included, EnvField::nproc); !n.empty())
        c.machine += (c.machine.empty() ? "" : ", ") + n + " CPUs";
    if (std::string p = distinct_values(included, EnvField::dmi_product); !p.empty())
        c.machine = p + (c.machine.empty() ? "" : " (" + c.machine + ")");
    std::set<std::string> dates;
    for (const RunResult* r : included)
        if (r->started_at.size() >= 10)
            dates.insert(ascii_safe(r->started_at.substr(0, 10)));
    if (!dates.empty())
        c.dates = *dates.begin() + (dates.size() > 1 ? " to " + *dates.rbegin() : "");
    const std::pair<EnvField, const char*> shown[] = {{EnvField::governor, "governor"},
                                                      {EnvField::sched_ext_state, "sched_ext"},
                                                      {EnvField::smt, "SMT"},
                                                      {EnvField::ac_power, "AC power"},
                                                      {EnvField::tools_image, "tools"}};
    for (const auto& [field, name] : shown)
        if (std::string v = distinct_values(included, field); !v.empty())
            c.conditions += (c.conditions.empty() ? "" : ", ") + std::string(name) + " " + v;
    set_provenance(c, included);
    return c;
}

} // namespace bootbench::core
