#include "core/report/report_explain.hpp"

#include "core/base/text.hpp"
#include "core/report/report.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

// A row of "What differs between the arms" as a kind of fact: its group,
// the start of its name, and whether that start is cut off the fact's name
// (a per-boot "sysctl.vm.swappiness" is the sysctl "vm.swappiness").
struct RowRule {
    const char* group;
    const char* prefix;
    FactKind kind;
    bool cut;
};

constexpr RowRule kRowRules[] = {
    {"kernel", "version", FactKind::kernel_version, false},
    {"kernel config", "", FactKind::kernel_config, false},
    {"units", "", FactKind::unit_enabled, false},
    {"sysctl defaults", "", FactKind::sysctl, false},
    {"per boot", "kernel.release", FactKind::kernel_version, false},
    {"per boot", "sysctl.", FactKind::sysctl, true},
    {"per boot", "thp.", FactKind::thp, false},
    {"per boot", "sched_ext.", FactKind::sched_ext, false},
    {"per boot", "tuned.", FactKind::power_profile, false},
    {"per boot", "power-profiles-daemon.", FactKind::power_profile, false},
    {"per boot", "vulnerability.", FactKind::mitigation, true},
    {"per boot", "cpu.microcode", FactKind::microcode, false},
    {"per boot", "config.", FactKind::kernel_config, true},
};

bool is_kernel_args(const ArmRow& r) {
    return r.group == "kernel arguments" || (r.group == "per boot" && r.name == "cmdline");
}

// kind and name of a row that is not kernel arguments; `other` for a row
// no rule knows (explain gives it no topic).
std::pair<FactKind, std::string> kind_of(const ArmRow& r) {
    for (const auto& rule : kRowRules)
        if (r.group == rule.group && r.name.starts_with(rule.prefix)) {
            if (rule.kind == FactKind::kernel_version)
                return {rule.kind, "kernel"};
            return {rule.kind, rule.cut ? r.name.substr(std::string(rule.prefix).size()) : r.name};
        }
    return {FactKind::other, row_label(r)};
}

bool no_value(const std::string& v) {
    for (const char* none :
         {kArmNoArgs, kArmNoKernel, kArmNotInConfig, kArmNotEnabled, kArmNotSet, kArmAbsent})
        if (v == none)
            return true;
    return false;
}

// The value most runs had, a value before none (the first in run order on
// a tie): a karg some boots had is there; "" when no run had one.
std::string value_of(const ArmCell& c) {
    auto rank = [](const auto& v) {
        return std::pair{!no_value(v.first) && !v.first.empty(), v.second};
    };
    auto most = std::max_element(c.values.begin(), c.values.end(),
                                 [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    return most == c.values.end() || no_value(most->first) ? "" : most->first;
}

bool recorded(const ArmCell& c) {
    return !(c.values.size() == 1 && c.values.front().first == kArmNotRecorded);
}

void add(std::vector<ArmFact>& out, ArmFact f) {
    bool differs = f.varies || f.control != f.subject;
    auto same = std::find_if(out.begin(), out.end(), [&](const ArmFact& o) {
        return o.kind == f.kind && o.name == f.name && o.control == f.control &&
               o.subject == f.subject;
    });
    if (differs && same == out.end())
        out.push_back(std::move(f));
}

std::string arg_key(const std::string& word) {
    return word.substr(0, word.find('='));
}

// The cell's arguments with key `key` ("mitigations=off"), per value, runs kept.
ArmCell args_cell(const ArmCell& c, const std::string& key) {
    ArmCell out;
    for (const auto& [line, runs] : c.values) {
        std::string mine;
        for (const std::string& w : split_words(no_value(line) ? "" : line))
            if (arg_key(w) == key)
                mine += (mine.empty() ? "" : " ") + w;
        auto it = std::find_if(out.values.begin(), out.values.end(),
                               [&](const auto& x) { return x.first == mine; });
        if (it == out.values.end())
            out.values.push_back({mine, runs});
        else
            it->second += runs;
    }
    return out;
}

// Every argument key of the cells' values, in their order.
std::vector<std::string> arg_keys(const std::vector<const ArmCell*>& cells) {
    std::vector<std::string> keys;
    for (const ArmCell* c : cells)
        for (const auto& [line, runs] : c->values)
            for (const std::string& w : split_words(no_value(line) ? "" : line))
                if (std::find(keys.begin(), keys.end(), arg_key(w)) == keys.end())
                    keys.push_back(arg_key(w));
    return keys;
}

void add_args(std::vector<ArmFact>& out, const ArmCell& control, const ArmCell& subject) {
    for (const std::string& key : arg_keys({&control, &subject})) {
        ArmCell c = args_cell(control, key), s = args_cell(subject, key);
        add(out, {FactKind::kernel_arg, key, value_of(c), value_of(s), c.varies() || s.varies()});
    }
}

void add_row(std::vector<ArmFact>& out, const ArmRow& r, size_t subject) {
    const ArmCell &c = r.cells.at(0), &s = r.cells.at(subject);
    if (!recorded(c) || !recorded(s))
        return;
    if (is_kernel_args(r))
        return add_args(out, c, s);
    auto [kind, name] = kind_of(r);
    add(out, {kind, name, value_of(c), value_of(s), c.varies() || s.varies()});
}

void add_packages(std::vector<ArmFact>& out, const ArmPackages& p) {
    for (const FactChange& x : p.diff.added)
        add(out, {FactKind::package, x.name, "", x.after});
    for (const FactChange& x : p.diff.removed)
        add(out, {FactKind::package, x.name, x.before, ""});
    for (const FactChange& x : p.diff.changed)
        add(out, {FactKind::package, x.name, x.before, x.after});
}

const CounterTarget* counted(const CounterRow& row, const std::string& target) {
    for (const auto& t : row.targets)
        if (t.target == target)
            return &t;
    return nullptr;
}

// Every subject run beyond every control run, with kClearCounterRuns each.
bool separated(const CounterTarget& control, const CounterTarget& subject) {
    const auto &c = control.values, &s = subject.values;
    if (c.size() < kClearCounterRuns || s.size() < kClearCounterRuns)
        return false;
    auto [c_lo, c_hi] = std::minmax_element(c.begin(), c.end());
    auto [s_lo, s_hi] = std::minmax_element(s.begin(), s.end());
    return *s_lo > *c_hi || *s_hi < *c_lo;
}

// The metric's bench (its name and kind), from the first run that has it.
void set_bench(MetricMove& m, const std::vector<const RunResult*>& included) {
    for (const RunResult* r : included)
        if (const Metric* x = r->find(m.metric)) {
            m.bench = x->bench;
            for (const auto& b : r->benches)
                if (b.name == x->bench)
                    m.kind = b.kind;
            return;
        }
}

MetricMove move_of(const Report& r, const MetricReport& m,
                   const std::vector<const RunResult*>& included) {
    MetricMove out;
    out.metric = m.key;
    set_bench(out, included);
    out.ratio = m.comparison->ratio;
    out.control = r.baseline;
    out.subject = r.subject;
    if (m.comparison->no_interval.empty())
        out.ci = m.comparison->ci;
    return out;
}

} // namespace

std::vector<ArmFact> arm_facts(const ArmsSection& s, const std::string& subject) {
    auto at = std::find(s.targets.begin(), s.targets.end(), subject);
    if (s.targets.empty() || at == s.targets.begin() || at == s.targets.end())
        return {};
    std::vector<ArmFact> out;
    for (const ArmRow& r : s.rows)
        add_row(out, r, static_cast<size_t>(at - s.targets.begin()));
    for (const ArmPackages& p : s.packages)
        if (p.from == s.targets.front() && p.to == subject)
            add_packages(out, p);
    return out;
}

std::vector<CounterMove> counter_moves(const CountersSection& c, const std::string& bench,
                                       const std::string& baseline, const std::string& subject) {
    std::vector<CounterMove> out;
    for (const CounterRow& row : c.rows) {
        const CounterTarget *b = counted(row, baseline), *s = counted(row, subject);
        if (row.bench == bench && row.change && b && s)
            out.push_back({row.event, *row.change, separated(*b, *s)});
    }
    return out;
}

std::vector<MetricExplanation> explain_report(const Report& r,
                                              const std::vector<const RunResult*>& included) {
    if (r.arms.empty())
        return {};
    std::vector<ArmFact> facts = arm_facts(r.arms, r.subject);
    std::vector<MetricExplanation> out;
    for (const MetricReport& m : r.metrics) {
        if (!m.comparison || m.comparison->verdict == Verdict::same)
            continue;
        MetricMove move = move_of(r, m, included);
        auto es =
            explain(move, facts, counter_moves(r.counters, move.bench, r.baseline, r.subject));
        std::string nothing = es.empty() ? nothing_explains(move) : "";
        out.push_back({std::move(move), std::move(es), std::move(nothing)});
    }
    return out;
}

} // namespace bootbench::core
