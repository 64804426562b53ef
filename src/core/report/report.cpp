#include "core/report/report.hpp"
#include "core/result/per_watt.hpp"

#include "core/bench/cpu_freq.hpp"
#include "core/base/text.hpp"
#include "core/base/time.hpp"

#include "core/base/parallel.hpp"

#include "core/base/error.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/stats/outliers.hpp"
#include "core/image/tools_image.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <map>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>

namespace bootbench::core {

namespace {

// "a, b, c" with at most `limit` names, then "and N more".
std::string name_list(const std::vector<std::string>& names, size_t limit = 8) {
    std::string s;
    for (size_t i = 0; i < names.size() && i < limit; ++i)
        s += (i ? ", " : "") + names[i];
    if (names.size() > limit)
        s += " and " + std::to_string(names.size() - limit) + " more";
    return s;
}

std::vector<std::string> target_names(const std::vector<RunResult>& runs) {
    std::set<std::string> names;
    for (const auto& r : runs)
        names.insert(r.target);
    return {names.begin(), names.end()};
}

void check_target(const std::string& role, const std::string& name,
                  const std::vector<std::string>& names) {
    if (std::find(names.begin(), names.end(), name) == names.end())
        throw input_error("unknown " + role + " '" + name + "': the results have targets " +
                          name_list(names) + " (pass --" + role + " with one of them)");
}

} // namespace

std::string subject_of(const ReportInput& in) {
    if (!in.subject.empty())
        return in.subject;
    for (const auto& n : target_names(in.runs))
        if (n != in.baseline)
            return n;
    return "";
}

namespace {

// Baseline first, then the subject, then the others by name.
std::vector<std::string> ordered_targets(const ReportInput& in, std::string& subject) {
    std::vector<std::string> names = target_names(in.runs);
    if (in.baseline.empty())
        throw input_error("no baseline: pass --baseline with one of the targets " +
                          name_list(names) + " (or set baseline in the experiment file)");
    check_target("baseline", in.baseline, names);
    if (!in.subject.empty())
        check_target("subject", in.subject, names);
    subject = subject_of(in);
    if (subject.empty() || subject == in.baseline)
        throw input_error("nothing to compare: the results have runs of '" + in.baseline +
                          "' only; a report needs runs of two targets");
    std::vector<std::string> out = {in.baseline, subject};
    for (const auto& n : names)
        if (n != in.baseline && n != subject)
            out.push_back(n);
    return out;
}

void check_exclusions(const ReportInput& in) {
    std::set<std::string> ids;
    for (const auto& r : in.runs)
        ids.insert(r.run_id);
    for (const auto& e : in.exclude)
        if (!ids.count(e.run))
            throw input_error("cannot exclude '" + e.run +
                              "': no run with that id in the results (runs: " +
                              name_list({ids.begin(), ids.end()}) + ")");
}

const Exclusion* find_exclusion(const ReportInput& in, const std::string& run) {
    for (const auto& e : in.exclude)
        if (e.run == run)
            return &e;
    return nullptr;
}

// By the moment each run started (core/base/time), never by its text.
bool started_before(const RunResult* a, const RunResult* b) {
    if (int c = compare_instants(a->started_at, b->started_at))
        return c < 0;
    return a->run_id < b->run_id;
}

void note_image(TargetReport& t, const RunResult& r) {
    if (!r.image || r.image->pinned_reference.empty())
        return;
    const std::string& image = r.image->pinned_reference;
    if (std::find(t.images.begin(), t.images.end(), image) == t.images.end())
        t.images.push_back(image);
}

void add_once(std::vector<std::string>& v, const std::string& s) {
    if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end())
        v.push_back(s);
}

// What rpm-ostree layered on the image its runs booted, each once.
void note_layering(TargetReport& t, const RunResult& r) {
    if (r.deployment.layering.layered)
        add_once(t.layered, ascii_safe(describe(r.deployment.layering)));
}

void note_system(TargetReport& t, const RunResult& r) {
    if (const auto& kernel = r.environment.kernel_release.value)
        add_once(t.kernels, ascii_safe(*kernel));
    const DeploymentRecord& d = r.deployment;
    add_once(t.deployments, ascii_safe(d.origin + (d.version.empty() ? "" : " (" + d.version + ")")));
    note_commands(t.commands, r);
}

// Sorts every run into its target as included, excluded or failed.
std::vector<const RunResult*> sort_runs(const ReportInput& in, Report& report) {
    std::vector<const RunResult*> included;
    std::vector<const RunResult*> all;
    for (const auto& r : in.runs)
        all.push_back(&r);
    std::sort(all.begin(), all.end(), started_before);
    for (const RunResult* r : all) {
        auto t = std::find_if(report.targets.begin(), report.targets.end(),
                              [&](const TargetReport& x) { return x.name == r->target; });
        if (const Exclusion* e = find_exclusion(in, r->run_id))
            t->excluded.push_back(*e);
        else if (r->status == RunStatus::failed)
            t->failed.push_back({r->run_id, r->failure.empty() ? "no failure text" : r->failure});
        else {
            t->runs.push_back(r->run_id);
            included.push_back(r);
            note_image(*t, *r);
            note_system(*t, *r);
            note_layering(*t, *r);
        }
    }
    return included;
}

// The catalog's bench metrics first (the order readers know), then the
// others by key, then the system's own figures (memory, processes).
std::vector<std::string> metric_keys(const std::vector<const RunResult*>& runs) {
    std::set<std::string> seen;
    for (const RunResult* r : runs)
        for (const auto& m : r->metrics)
            seen.insert(m.key);
    std::vector<std::string> keys, system;
    for (const auto& info : metric_catalog())
        if (seen.erase(info.key))
            (info.from == MetricFrom::system ? system : keys).push_back(info.key);
    keys.insert(keys.end(), seen.begin(), seen.end());
    keys.insert(keys.end(), system.begin(), system.end());
    return keys;
}

std::vector<double> values_of(const MetricTarget& t) {
    std::vector<double> v;
    v.reserve(t.samples.size());
    for (const auto& s : t.samples)
        v.push_back(s.value);
    return v;
}

void set_verdicts(std::vector<MetricReport>& metrics) {
    std::vector<double> raw;
    for (const auto& m : metrics)
        if (m.comparison)
            raw.push_back(m.comparison->test.p_value);
    std::vector<double> adjusted = holm_adjust(raw);
    size_t i = 0;
    for (auto& m : metrics)
        if (m.comparison) {
            m.comparison->p_adjusted = adjusted[i++];
            m.comparison->verdict = verdict_of(*m.comparison);
        }
}

// "a value of b is 0" when a sample has a value a median can fall to and
// divide by; "" when every value is above 0.
std::string no_interval_reason(const MetricTarget& t) {
    for (const auto& s : t.samples)
        if (s.value <= 0)
            return "a value of " + t.target + (s.value == 0 ? " is 0" : " is negative");
    return "";
}

// "fewer than 6 runs (b has 3)" when a target has too few runs for an interval.
std::string too_few_for_interval(const MetricTarget& s, const MetricTarget& b) {
    const MetricTarget& fewer = s.summary.n < b.summary.n ? s : b;
    if (fewer.summary.n >= kMinRunsForInterval)
        return "";
    return "fewer than " + std::to_string(kMinRunsForInterval) + " runs (" + fewer.target +
           " has " + std::to_string(fewer.summary.n) + ")";
}

bool by_value(const Sample& x, const Sample& y) {
    return x.value < y.value;
}

// Every subject run against every baseline run: the extremes of the ratio.
Interval run_ratio_range(const MetricTarget& s, const MetricTarget& b, Better better) {
    Interval r{std::nan(""), std::nan("")};
    if (!no_interval_reason(s).empty() || !no_interval_reason(b).empty())
        return r;
    auto [s_lo, s_hi] = std::minmax_element(s.samples.begin(), s.samples.end(), by_value);
    auto [b_lo, b_hi] = std::minmax_element(b.samples.begin(), b.samples.end(), by_value);
    double x = better_ratio(s_lo->value, b_hi->value, better);
    double y = better_ratio(s_hi->value, b_lo->value, better);
    return {std::min(x, y), std::max(x, y)};
}

void set_interval(Comparison& c, const MetricReport& m, const MetricTarget& s,
                  const MetricTarget& b) {
    c.no_interval = no_interval_reason(s);
    if (c.no_interval.empty())
        c.no_interval = no_interval_reason(b);
    if (c.no_interval.empty())
        c.no_interval = too_few_for_interval(s, b);
    c.run_range = run_ratio_range(s, b, m.better);
    double nan = std::nan("");
    c.ci = c.no_interval.empty()
               ? hierarchical_ratio_ci(boots_of(s), boots_of(b), m.better, seed_from(m.key))
               : Interval{nan, nan};
}

std::optional<Comparison> compare(const MetricReport& m, const std::string& subject,
                                  const std::string& baseline) {
    const MetricTarget* s = m.find(subject);
    const MetricTarget* b = m.find(baseline);
    if (s->summary.n == 0 || b->summary.n == 0 || s->summary.median <= 0 || b->summary.median <= 0)
        return std::nullopt;
    Comparison c;
    c.ratio = better_ratio(s->summary.median, b->summary.median, m.better);
    set_interval(c, m, *s, *b);
    c.test = mann_whitney(values_of(*s), values_of(*b));
    return c; // the verdict waits for every metric's p (Holm)
}

// Each key's values run by run, from one pass over the runs: a lookup per
// key and run was quadratic in keys (80,000 keys: 21 s).
using KeyIndex =
    std::unordered_map<std::string_view, std::vector<std::pair<const RunResult*, const Metric*>>>;

KeyIndex index_by_key(const std::vector<const RunResult*>& runs) {
    KeyIndex index;
    for (const RunResult* r : runs)
        for (const auto& x : r->metrics) {
            auto& entries = index[x.key];
            if (entries.empty() || entries.back().first != r) // the first of a key in a run
                entries.emplace_back(r, &x);
        }
    return index;
}

using Entries = KeyIndex::mapped_type;

std::string file_of(const RunResult& r) {
    return r.source.empty() ? "run " + r.run_id : r.source;
}

// The catalog decides a known metric's direction, whatever the run files
// say; an unknown one takes the first run's (runs are in start order).
void set_direction(MetricReport& m, const Entries& entries, const std::optional<MetricInfo>& info) {
    const auto& [first, x] = entries.front();
    m.better = info ? info->better : x->better;
    m.better_from = info ? "the metric catalog" : "the first run (" + file_of(*first) + ")";
    for (const auto& [r, y] : entries)
        if (y->better != m.better)
            m.better_disputed.push_back(file_of(*r));
}

MetricReport make_metric(const std::string& key, const Entries& entries, const Report& report) {
    MetricReport m;
    m.key = key;
    std::map<std::string, std::vector<Sample>> by_target;
    for (const auto& [r, x] : entries) {
        if (m.unit.empty())
            m.unit = x->unit;
        by_target[r->target].push_back({r->run_id, x->value, x->iterations});
    }
    auto info = find_metric(key);
    set_direction(m, entries, info);
    m.label = info ? info->label : key;
    if (m.unit.empty() && info)
        m.unit = info->unit;
    for (const auto& t : report.targets) {
        MetricTarget mt{t.name, by_target[t.name], {}};
        std::vector<double> v = values_of(mt);
        if (!v.empty())
            mt.summary = summarize(v);
        m.targets.push_back(std::move(mt));
    }
    m.comparison = compare(m, report.subject, report.baseline);
    return m;
}

// Metrics are independent and the bootstrap is the costly part: one per core.
// Each metric has its own seed, so the result does not depend on the threads.
std::vector<MetricReport> make_metrics(const std::vector<std::string>& keys,
                                       const std::vector<const RunResult*>& runs,
                                       const Report& report) {
    std::vector<MetricReport> out(keys.size());
    const KeyIndex index = index_by_key(runs);
    size_t workers = runs.size() < 1000 ? 1 : std::min(core::cores(), keys.size());
    parallel_indices(keys.size(), workers,
                     [&](size_t i) { out[i] = make_metric(keys[i], index.at(keys[i]), report); });
    return out;
}

void flag_outliers(Report& report) {
    EsdTable table;
    for (const auto& m : report.metrics)
        for (const auto& t : m.targets) {
            std::vector<double> v = values_of(t);
            Outliers found = core::find_outliers(v, table);
            for (size_t i : found.indices)
                report.outliers.push_back(
                    {t.samples[i].run, t.target, m.key, v[i], found.rest_median});
        }
}

// Every included run with a canary, and a warning that says what happened.
void note_canaries(Report& report, const std::vector<const RunResult*>& included) {
    std::map<std::string, std::string> drops = frequency_drops(included);
    for (const RunResult* r : included) {
        std::string text = r->canaries ? canary_text(*r->canaries) : "";
        if (auto d = drops.find(r->run_id); d != drops.end())
            text += (text.empty() ? "" : "; ") + d->second;
        if (!text.empty())
            report.canaries.push_back({r->run_id, r->target, text});
    }
    for (const auto& c : report.canaries)
        report.warnings.push_back("run " + c.run + ": " + c.text);
}

void check_common_metric(const Report& report) {
    for (const auto& m : report.metrics)
        if (m.comparison)
            return;
    auto keys_of = [&](const std::string& target) {
        std::vector<std::string> keys;
        for (const auto& m : report.metrics)
            if (m.find(target)->summary.n > 0)
                keys.push_back(m.key);
        if (!keys.empty())
            return name_list(keys);
        size_t failed = report.find_target(target)->failed.size();
        return failed ? "none, " + std::to_string(failed) + " failed" : std::string("none");
    };
    throw input_error("no metric common to baseline '" + report.baseline + "' and subject '" +
                      report.subject + "' (" + report.baseline + ": " + keys_of(report.baseline) +
                      "; " + report.subject + ": " + keys_of(report.subject) +
                      "): check that both targets ran the same benches");
}

} // namespace

void note_commands(std::map<std::string, std::vector<std::string>>& commands, const RunResult& r) {
    for (const auto& b : r.benches)
        if (b.status != BenchStatus::skipped && !b.argv.empty())
            add_once(commands[b.name], ascii_safe(join(command_inside(b.argv), " ")));
}

const MetricTarget* MetricReport::find(const std::string& target) const {
    for (const auto& t : targets)
        if (t.target == target)
            return &t;
    return nullptr;
}

const RunCanary* Report::find_canary(const std::string& run) const {
    for (const auto& c : canaries)
        if (c.run == run)
            return &c;
    return nullptr;
}

const TargetReport* Report::find_target(const std::string& name) const {
    for (const auto& t : targets)
        if (t.name == name)
            return &t;
    return nullptr;
}

const char* to_string(Verdict v) { return name_of(kVerdictNames, v); }

std::string images_text(const TargetReport& t) {
    std::string s;
    for (const auto& i : t.images)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}

std::string images_line(const Report& r) {
    std::string s;
    for (const auto& t : r.targets)
        if (!t.images.empty())
            s += (s.empty() ? "" : "; ") + t.name + ": " + images_text(t);
    return s;
}

std::string layered_line(const Report& r) {
    std::string s;
    for (const auto& t : r.targets)
        if (!t.layered.empty())
            s += (s.empty() ? "" : "; ") + t.name + ": " + join(t.layered, " / ");
    return s;
}

std::string systems_line(const Report& r) {
    std::string s;
    for (const auto& t : r.targets) {
        std::string k = join(t.kernels, " / "), d = join(t.deployments, " / ");
        if (!k.empty() || !d.empty())
            s += (s.empty() ? "" : "; ") + t.name + ": " + (k.empty() ? "" : "kernel " + k) +
                 (k.empty() || d.empty() ? "" : ", ") + d;
    }
    return s;
}

Verdict verdict_of(const Comparison& c) {
    bool interval = c.no_interval.empty();
    if (c.p_adjusted >= kAlpha || c.ratio == 1)
        return Verdict::same;
    if (c.ratio > 1 && (!interval || c.ci.lo > 1))
        return Verdict::better;
    if (c.ratio < 1 && (!interval || c.ci.hi < 1))
        return Verdict::worse;
    return Verdict::same;
}

namespace {

// The report of `in`, whose runs already carry any per-watt metrics, with
// `power_warnings` (add_per_watt's) among its warnings.
Report report_of(const ReportInput& in, const std::vector<std::string>& power_warnings) {
    Report report;
    report.baseline = in.baseline;
    report.stopped = in.stopped;
    std::vector<std::string> names = ordered_targets(in, report.subject);
    check_exclusions(in);
    report.title = in.title.empty() ? report.subject + " vs " + report.baseline : in.title;
    report.incomplete = in.incomplete;
    if (!in.incomplete.empty())
        report.title += " (incomplete)";
    for (const auto& n : names)
        report.targets.push_back({n, {}, {}, {}, {}});
    std::vector<const RunResult*> included = sort_runs(in, report);
    report.metrics = make_metrics(metric_keys(included), included, report);
    set_verdicts(report.metrics);
    check_common_metric(report);
    add_variance(report, included, in.settle_s);
    report.counters = counters_section(included, names, report.baseline, report.subject);
    flag_outliers(report);
    report.caption = make_caption(included);
    report.warnings = comparability_warnings(report, included, in.varied_keys);
    report.warnings.insert(report.warnings.end(), power_warnings.begin(), power_warnings.end());
    for (const auto& t : report.targets)
        if (t.images.size() > 1)
            report.warnings.push_back(t.name + " measured " + std::to_string(t.images.size()) +
                                      " different images (the tag moved during the experiment): " +
                                      images_text(t));
    note_canaries(report, included);
    report.arms = arms_section(in.arms, names, included);
    report.explanations = explain_report(report, included);
    return report;
}

} // namespace

// The runs are copied only to derive per-watt metrics, when [report] asks.
Report build_report(const ReportInput& in) {
    if (in.per_watt.empty())
        return report_of(in, {});
    ReportInput with_power = in;
    std::vector<std::string> warnings = add_per_watt(with_power.runs, with_power.per_watt);
    return report_of(with_power, warnings);
}

} // namespace bootbench::core
