#include "core/report/report_arms.hpp"

#include "core/base/text.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace bootbench::core {

namespace {

using LiveMap = std::map<std::string, std::string>;

constexpr size_t kPackagesNamed = 5; // the top changes a package line names

// ostree= and BOOT_IMAGE= name the deployment, which differs by design.
bool names_deployment(const std::string& word) {
    return word.rfind("ostree=", 0) == 0 || word.rfind("BOOT_IMAGE=", 0) == 0;
}

std::set<std::string> common_args(const std::vector<std::string>& lines) {
    std::set<std::string> common;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::vector<std::string> w = split_words(lines[i]);
        std::set<std::string> mine(w.begin(), w.end());
        if (i == 0)
            common = mine;
        std::erase_if(common, [&](const std::string& x) { return !mine.count(x); });
    }
    return common;
}

// The arguments of `line` that not every arm has, in their order.
std::string own_args(const std::string& line, const std::set<std::string>& common) {
    std::string out;
    for (const std::string& w : split_words(line))
        if (!common.count(w) && !names_deployment(w))
            out += (out.empty() ? "" : " ") + w;
    return out.empty() ? kArmNoArgs : out;
}

ArmCell one(const std::string& value) {
    return {{{value, 1}}};
}

std::vector<std::string> texts(const ArmCell& c) {
    std::vector<std::string> out;
    for (const auto& [value, runs] : c.values)
        out.push_back(value);
    return out;
}

// The row, when a target's value differs from another's or varies.
void add_row(ArmsSection& s, const std::string& group, const std::string& name, std::vector<ArmCell> cells) {
    bool differs = false;
    for (const ArmCell& c : cells)
        differs = differs || c.varies() || texts(c) != texts(cells.front());
    if (differs)
        s.rows.push_back({group, name, std::move(cells)});
}

void add_fact_rows(ArmsSection& s, const std::string& group, const std::vector<const FactMap*>& maps,
                   const std::string& absent) {
    std::set<std::string> keys;
    for (const FactMap* m : maps)
        for (const auto& [key, value] : *m)
            keys.insert(key);
    for (const std::string& key : keys) {
        std::vector<ArmCell> cells;
        for (const FactMap* m : maps)
            cells.push_back(one(m->count(key) ? m->at(key) : absent));
        add_row(s, group, key, std::move(cells));
    }
}

const ArmFacts* arm_of(const std::vector<ArmFacts>& arms, const std::string& target) {
    for (const ArmFacts& a : arms)
        if (a.target == target)
            return &a;
    return nullptr;
}

// Every target's arm, or none (with notes that say which was not read).
std::vector<const ArmFacts*> arms_of(const std::vector<ArmFacts>& arms, ArmsSection& s) {
    std::vector<const ArmFacts*> out;
    for (const std::string& t : s.targets) {
        const ArmFacts* a = arm_of(arms, t);
        if (!a)
            s.notes.push_back(t + ": its deployment was not read at start (arms.json does not name it)");
        for (const std::string& p : a ? a->problems : std::vector<std::string>{})
            s.notes.push_back(t + ": " + p);
        out.push_back(a);
    }
    return out;
}

std::string kernel_versions(const TreeFacts& f) {
    std::string out;
    for (const KernelFacts& k : f.kernels)
        out += (out.empty() ? "" : ", ") + k.version;
    return out.empty() ? kArmNoKernel : out;
}

const KernelFacts* newest(const TreeFacts& t) {
    return t.kernels.empty() ? nullptr : &t.kernels.back();
}

// A config not read is said where another target's was: the comparison is
// one-sided there. Where none was read there is nothing to compare.
void config_notes(ArmsSection& s, const std::vector<const TreeFacts*>& trees) {
    bool any_read = false;
    for (const TreeFacts* t : trees)
        any_read = any_read || (newest(*t) && newest(*t)->problem.empty());
    for (size_t i = 0; i < trees.size() && any_read; ++i)
        if (const KernelFacts* k = newest(*trees[i]); k && !k->problem.empty())
            s.notes.push_back(s.targets[i] + ": " + k->problem);
}

void kernel_rows(ArmsSection& s, const std::vector<const TreeFacts*>& trees) {
    std::vector<ArmCell> versions;
    std::vector<const FactMap*> configs;
    static const FactMap kNone;
    for (const TreeFacts* t : trees) {
        versions.push_back(one(kernel_versions(*t)));
        configs.push_back(newest(*t) ? &newest(*t)->config : &kNone);
    }
    add_row(s, "kernel", "version", std::move(versions));
    add_fact_rows(s, "kernel config", configs, kArmNotInConfig);
    config_notes(s, trees);
}

void option_rows(ArmsSection& s, const std::vector<const ArmFacts*>& arms) {
    std::vector<std::string> lines;
    for (const ArmFacts* a : arms)
        if (a && a->kernel_options)
            lines.push_back(*a->kernel_options);
    if (lines.size() != arms.size())
        return;
    std::set<std::string> common = common_args(lines);
    std::vector<ArmCell> cells;
    for (const std::string& l : lines)
        cells.push_back(one(own_args(l, common)));
    add_row(s, "kernel arguments", "of the boot entry", std::move(cells));
}

void package_rows(ArmsSection& s, const std::vector<const TreeFacts*>& trees) {
    for (size_t i = 1; i < trees.size(); ++i) {
        TreeDiff d = diff_trees(*trees[0], *trees[i]);
        bool both_unknown = !trees[0]->packages.unknown.empty() && !trees[i]->packages.unknown.empty();
        if (!both_unknown && (!d.packages.empty() || !d.packages_unknown.empty()))
            s.packages.push_back({s.targets[0], s.targets[i], package_summary(d, kPackagesNamed), d.packages,
                                  d.packages_unknown});
    }
}

void tree_rows(ArmsSection& s, const std::vector<ArmFacts>& arms) {
    std::vector<const ArmFacts*> mine = arms_of(arms, s);
    option_rows(s, mine);
    std::vector<const TreeFacts*> trees;
    for (const ArmFacts* a : mine)
        if (a && a->tree)
            trees.push_back(&*a->tree);
    if (trees.size() != mine.size())
        return; // a tree not read: the notes say which; its facts are not compared
    kernel_rows(s, trees);
    package_rows(s, trees);
    std::vector<const FactMap*> units, sysctl;
    for (const TreeFacts* t : trees)
        units.push_back(&t->units), sysctl.push_back(&t->sysctl);
    add_fact_rows(s, "units", units, kArmNotEnabled);
    add_fact_rows(s, "sysctl defaults", sysctl, kArmNotSet);
}

// Each target's runs' live values, in run order; runs without them left out.
std::vector<std::vector<LiveMap>> live_of(const ArmsSection& s, const std::vector<const RunResult*>& runs) {
    std::vector<std::vector<LiveMap>> out(s.targets.size());
    for (const RunResult* r : runs) {
        auto at = std::find(s.targets.begin(), s.targets.end(), r->target);
        if (at != s.targets.end() && r->environment.live.value)
            out[at - s.targets.begin()].push_back(*r->environment.live.value);
    }
    return out;
}

// The command lines, each cut to the arguments not every boot had.
void cut_cmdlines(std::vector<std::vector<LiveMap>>& live) {
    std::vector<std::string> lines;
    for (const auto& runs : live)
        for (const LiveMap& m : runs)
            if (m.count("cmdline"))
                lines.push_back(m.at("cmdline"));
    std::set<std::string> common = common_args(lines);
    for (auto& runs : live)
        for (LiveMap& m : runs)
            if (m.count("cmdline"))
                m["cmdline"] = own_args(m["cmdline"], common);
}

ArmCell live_cell(const std::vector<LiveMap>& runs, const std::string& key) {
    ArmCell c;
    for (const LiveMap& m : runs) {
        std::string v = m.count(key) ? m.at(key) : kArmAbsent;
        auto it = std::find_if(c.values.begin(), c.values.end(), [&](const auto& x) { return x.first == v; });
        if (it == c.values.end())
            c.values.push_back({v, 1});
        else
            ++it->second;
    }
    return c.values.empty() ? one(kArmNotRecorded) : c;
}

void live_rows(ArmsSection& s, const std::vector<const RunResult*>& runs) {
    std::vector<std::vector<LiveMap>> live = live_of(s, runs);
    cut_cmdlines(live);
    std::set<std::string> keys;
    for (const auto& target : live)
        for (const LiveMap& m : target)
            for (const auto& [key, value] : m)
                keys.insert(key);
    for (const std::string& key : keys) {
        std::vector<ArmCell> cells;
        for (const auto& target : live)
            cells.push_back(live_cell(target, key));
        add_row(s, "per boot", key, std::move(cells));
    }
}

nlohmann::json cell_json(const ArmCell& c) {
    if (!c.varies())
        return {{"value", c.values.front().first}};
    nlohmann::json values = nlohmann::json::array();
    for (const auto& [value, runs] : c.values)
        values.push_back({{"value", value}, {"runs", runs}});
    return {{"varies", values}};
}

nlohmann::json packages_json(const ArmPackages& p) {
    nlohmann::json j = to_json(p.diff);
    j.update({{"from", p.from}, {"to", p.to}, {"summary", p.summary}, {"unknown", p.unknown}});
    return j;
}

} // namespace

ArmsSection arms_section(const std::vector<ArmFacts>& arms, const std::vector<std::string>& targets,
                         const std::vector<const RunResult*>& runs) {
    ArmsSection s;
    s.targets = targets;
    if (targets.size() < 2)
        return s;
    if (!arms.empty())
        tree_rows(s, arms);
    live_rows(s, runs);
    return s;
}

std::string cell_text(const ArmCell& c) {
    if (!c.varies())
        return c.values.empty() ? "" : c.values.front().first;
    std::string out = "varies: ";
    for (size_t i = 0; i < c.values.size(); ++i)
        out += (i ? ", " : "") + c.values[i].first + " (" + std::to_string(c.values[i].second) +
               (c.values[i].second == 1 ? " run)" : " runs)");
    return out;
}

std::string row_label(const ArmRow& r) {
    return r.group + (r.name.empty() ? "" : " " + r.name);
}

nlohmann::json arms_json(const ArmsSection& s) {
    nlohmann::json rows = nlohmann::json::array(), packages = nlohmann::json::array();
    for (const ArmRow& r : s.rows) {
        nlohmann::json values = nlohmann::json::object();
        for (size_t i = 0; i < r.cells.size(); ++i)
            values[s.targets[i]] = cell_json(r.cells[i]);
        rows.push_back({{"group", r.group}, {"name", r.name}, {"values", values}});
    }
    for (const ArmPackages& p : s.packages)
        packages.push_back(packages_json(p));
    return {{"targets", s.targets}, {"rows", rows}, {"packages", packages}, {"notes", s.notes}};
}

std::string arms_intro_text() {
    return "Only what differs: the deployments as start read them (kernel, kernel arguments of the boot "
           "entry, kernel config, packages, enabled units, sysctl defaults) and what each boot recorded "
           "(per boot: the command line's arguments not every boot had, sysctls, THP, sched_ext, profiles, "
           "CPU vulnerabilities, microcode, the running kernel's config). A value that varies within a "
           "target's runs is marked, with each value and its runs.";
}

std::string packages_line(const ArmPackages& p) {
    return "packages, " + p.from + " -> " + p.to + ": " + p.summary;
}

} // namespace bootbench::core
