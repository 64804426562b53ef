#include "core/report/report_hosts.hpp"

#include "core/base/error.hpp"
#include "core/report/render_text.hpp"
#include "core/stats/stats_hosts.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace bootbench::core {

namespace {

std::string text_of(const Recorded<std::string>& field) {
    return field.value ? ascii_safe(*field.value) : "";
}

// Runs grouped by machine id, in the order the ids sort.
std::map<std::string, std::vector<RunResult>> split_by_host(const std::vector<RunResult>& runs) {
    std::map<std::string, std::vector<RunResult>> out;
    for (const auto& r : runs)
        out[text_of(r.environment.machine_id)].push_back(r);
    return out;
}

// Hostnames name machines; the id is added where two machines share one.
void set_labels(std::vector<HostReport>& hosts) {
    std::map<std::string, int> uses;
    for (const auto& h : hosts)
        ++uses[h.host.hostname];
    for (auto& h : hosts) {
        HostIdentity& id = h.host;
        std::string name = id.hostname.empty() ? "unknown host" : id.hostname;
        id.label = id.id.empty() ? (id.hostname.empty() ? "unknown host" : name + " (no machine id)")
                   : uses[id.hostname] > 1 || id.hostname.empty() ? name + " " + id.id.substr(0, 8)
                                                                   : name;
    }
    std::sort(hosts.begin(), hosts.end(),
              [](const HostReport& a, const HostReport& b) { return a.host.label < b.host.label; });
}

// Every exclusion must name a run some machine has; each machine gets its own.
std::vector<Exclusion> exclusions_for(const ReportInput& in, const std::vector<RunResult>& runs) {
    std::vector<Exclusion> out;
    for (const auto& e : in.exclude)
        if (std::any_of(runs.begin(), runs.end(), [&](const RunResult& r) { return r.run_id == e.run; }))
            out.push_back(e);
    return out;
}

void check_exclusions(const ReportInput& in) {
    for (const auto& e : in.exclude)
        if (std::none_of(in.runs.begin(), in.runs.end(),
                         [&](const RunResult& r) { return r.run_id == e.run; }))
            throw input_error("cannot exclude '" + e.run + "': no machine has a run with that id");
}

bool has_target(const std::vector<RunResult>& runs, const std::string& target) {
    return std::any_of(runs.begin(), runs.end(), [&](const RunResult& r) { return r.target == target; });
}

// A baseline or subject no machine ran: the message a one-machine report
// gives (build_report stops at the targets, before any statistics).
void check_targets(const ReportInput& in, const std::string& subject) {
    if (has_target(in.runs, in.baseline) && has_target(in.runs, subject))
        return;
    ReportInput targets_only = in;
    targets_only.subject = subject;
    build_report(targets_only);
}

// "" when the machine ran both targets, else what it lacks.
std::string missing_target(const std::vector<RunResult>& runs, const std::string& baseline,
                           const std::string& subject) {
    for (const auto& t : {baseline, subject})
        if (!has_target(runs, t))
            return "no run of '" + t + "' on this machine";
    return "";
}

HostReport host_report(const ReportInput& in, const std::string& subject, std::vector<RunResult> runs) {
    HostReport h;
    h.host = host_of(runs.front());
    h.runs = runs.size();
    if (h.error = missing_target(runs, in.baseline, subject); !h.error.empty())
        return h;
    ReportInput one = in;
    one.subject = subject;
    auto stopped = in.stopped_by_machine.find(h.host.id);
    one.stopped = stopped == in.stopped_by_machine.end() ? "" : stopped->second;
    one.stopped_by_machine.clear();
    one.arms.clear(); // the first folder's deployments are its machine's: here only the boots' live values
    one.exclude = exclusions_for(in, runs);
    one.runs = std::move(runs);
    try {
        h.report = build_report(one);
    } catch (const Error& e) {
        h.error = e.what();
    }
    return h;
}

std::vector<double> values_of(const MetricTarget* t) {
    std::vector<double> v;
    for (const auto& s : t->samples)
        v.push_back(s.value);
    return v;
}

bool all_positive(const std::vector<HostSamples>& samples) {
    for (const auto& h : samples)
        for (const auto* v : {&h.subject, &h.baseline})
            if (std::any_of(v->begin(), v->end(), [](double x) { return x <= 0; }))
                return false;
    return true;
}

void add_host(PooledMetric& p, std::vector<HostSamples>& samples, const HostReport& h,
              const MetricReport& m, const std::string& subject, const std::string& baseline) {
    p.hosts.push_back(h.host.label);
    p.ratios.push_back(m.comparison->ratio);
    p.verdicts.push_back(m.comparison->verdict);
    samples.push_back({values_of(m.find(subject)), values_of(m.find(baseline))});
}

// "fewer than 6 runs on lab1 (b has 3)": the one-machine rule, on every machine.
std::string too_few_runs(const PooledMetric& p, const std::vector<HostSamples>& samples,
                         const std::string& subject, const std::string& baseline) {
    for (size_t i = 0; i < samples.size(); ++i) {
        bool subject_fewer = samples[i].subject.size() < samples[i].baseline.size();
        size_t n = std::min(samples[i].subject.size(), samples[i].baseline.size());
        if (n < kMinRunsForInterval)
            return "fewer than " + std::to_string(kMinRunsForInterval) + " runs on " + p.hosts[i] + " (" +
                   (subject_fewer ? subject : baseline) + " has " + std::to_string(n) + ")";
    }
    return "";
}

void set_pooled_stats(PooledMetric& p, const std::vector<HostSamples>& samples, const HostsReport& r) {
    p.ratio = geometric_mean(p.ratios);
    p.test = stratified_rank_test(samples);
    p.no_interval = all_positive(samples) ? too_few_runs(p, samples, r.subject, r.baseline)
                                          : "a value is 0 or below";
    double nan = std::nan("");
    p.ci = p.no_interval.empty()
               ? bootstrap_hosts_ci(samples, p.better, seed_from("hosts:" + p.key))
               : Interval{nan, nan};
}

// Holm over the pooled metrics, then the one-machine verdict rule.
void set_pooled_verdicts(std::vector<PooledMetric>& pooled) {
    std::vector<double> raw;
    for (const auto& p : pooled)
        raw.push_back(p.test.p_value);
    std::vector<double> adjusted = holm_adjust(raw);
    for (size_t i = 0; i < pooled.size(); ++i) {
        PooledMetric& p = pooled[i];
        p.p_adjusted = adjusted[i];
        Comparison c;
        c.ratio = p.ratio, c.ci = p.ci, c.test = p.test;
        c.no_interval = p.no_interval, c.p_adjusted = p.p_adjusted;
        p.verdict = verdict_of(c);
    }
}

// The metric over every machine that compared it; nullopt below two machines.
std::optional<PooledMetric> pool(const std::string& key, const HostsReport& r) {
    PooledMetric p;
    p.key = key;
    std::vector<HostSamples> samples;
    for (const auto& h : r.hosts)
        for (const auto& m : h.report ? h.report->metrics : std::vector<MetricReport>{})
            if (m.key == key && m.comparison) {
                p.label = m.label, p.unit = m.unit, p.better = m.better;
                add_host(p, samples, h, m, r.subject, r.baseline);
            }
    if (p.hosts.size() < 2)
        return std::nullopt;
    set_pooled_stats(p, samples, r);
    return p;
}

// The keys in the order the machines' reports list them.
std::vector<std::string> pooled_keys(const HostsReport& r) {
    std::vector<std::string> keys;
    for (const auto& h : r.hosts)
        if (h.report)
            for (const auto& m : h.report->metrics)
                if (std::find(keys.begin(), keys.end(), m.key) == keys.end())
                    keys.push_back(m.key);
    return keys;
}

std::string hosts_with(const PooledMetric& p, Verdict v) {
    std::string s;
    for (size_t i = 0; i < p.hosts.size(); ++i)
        if (p.verdicts[i] == v)
            s += (s.empty() ? "" : ", ") + p.hosts[i] + " " + format_ratio(p.ratios[i]);
    return s;
}

void warn_disagreement(HostsReport& r, const PooledMetric& p) {
    std::string better = hosts_with(p, Verdict::better), worse = hosts_with(p, Verdict::worse);
    if (!better.empty() && !worse.empty())
        r.warnings.push_back("machines disagree on " + p.label + ": " + r.subject + " is better on " +
                             better + " and worse on " + worse +
                             "; the pooled ratio hides this, read the machines' tables");
}

void warn_hosts(HostsReport& r) {
    for (const auto& h : r.hosts) {
        if (!h.report)
            r.warnings.push_back("machine " + h.host.label + " (" +
                                 count_of(static_cast<long long>(h.runs), "run") +
                                 ") is not compared: " + h.error);
        else if (!h.report->warnings.empty())
            r.warnings.push_back("machine " + h.host.label + " has " +
                                 count_of(static_cast<long long>(h.report->warnings.size()), "warning") +
                                 " of its own: see its section");
    }
}

} // namespace

HostIdentity host_of(const RunResult& r) {
    HostIdentity h;
    h.id = text_of(r.environment.machine_id);
    h.hostname = text_of(r.environment.hostname);
    h.cpu_model = text_of(r.environment.cpu_model);
    if (r.environment.nproc.value)
        h.cpus = static_cast<int>(*r.environment.nproc.value);
    return h;
}

bool spans_hosts(const std::vector<RunResult>& runs) {
    return split_by_host(runs).size() > 1;
}

std::string host_caption(const HostIdentity& h) {
    std::string s = "machine " + h.label;
    std::string about = h.cpu_model;
    if (h.cpus > 0)
        about += (about.empty() ? "" : ", ") + std::to_string(h.cpus) + " CPUs";
    return about.empty() ? s : s + " (" + about + ")";
}

HostsReport build_hosts_report(const ReportInput& in) {
    check_exclusions(in);
    HostsReport r;
    r.baseline = in.baseline;
    r.subject = subject_of(in);
    r.title = in.title.empty() ? r.subject + " vs " + r.baseline : in.title;
    check_targets(in, r.subject);
    for (auto& [id, runs] : split_by_host(in.runs))
        r.hosts.push_back(host_report(in, r.subject, std::move(runs)));
    set_labels(r.hosts);
    if (std::none_of(r.hosts.begin(), r.hosts.end(), [](const HostReport& h) { return h.report; }))
        throw input_error(r.hosts.front().host.label + ": " + r.hosts.front().error);
    for (const auto& key : pooled_keys(r))
        if (auto p = pool(key, r))
            r.pooled.push_back(std::move(*p));
    set_pooled_verdicts(r.pooled);
    warn_hosts(r);
    for (const auto& p : r.pooled)
        warn_disagreement(r, p);
    return r;
}

} // namespace bootbench::core
