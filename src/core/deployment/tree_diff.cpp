#include "core/deployment/tree_diff.hpp"

namespace bootbench::core {

namespace {

FactMap kernel_versions(const TreeFacts& f) {
    FactMap out;
    for (const KernelFacts& k : f.kernels)
        out[k.version] = k.version;
    return out;
}

// The newest kernel (the kernels are sorted by version), null when none.
const KernelFacts* newest(const TreeFacts& f) {
    return f.kernels.empty() ? nullptr : &f.kernels.back();
}

void note_problem(const char* side, const KernelFacts* k, std::vector<std::string>& problems) {
    if (k && !k->problem.empty())
        problems.push_back(std::string(side) + ": " + k->problem);
}

void diff_kernels(const TreeFacts& before, const TreeFacts& after, TreeDiff& d) {
    d.kernels = diff_facts(kernel_versions(before), kernel_versions(after));
    const KernelFacts* a = newest(before);
    const KernelFacts* b = newest(after);
    note_problem("before", a, d.kernel_problems);
    note_problem("after", b, d.kernel_problems);
    if (!a || !b)
        return;
    d.config_compared = a->version + " -> " + b->version;
    d.kernel_config = diff_facts(a->config, b->config);
}

void diff_packages(const PackageFacts& before, const PackageFacts& after, TreeDiff& d) {
    if (!before.unknown.empty())
        d.packages_unknown = "before: " + before.unknown;
    if (!after.unknown.empty())
        d.packages_unknown +=
            (d.packages_unknown.empty() ? "" : "; ") + std::string("after: ") + after.unknown;
    if (!d.packages_unknown.empty())
        return;
    d.packages = diff_facts(before.versions, after.versions);
    d.packages_before = before.versions.size();
    d.packages_after = after.versions.size();
}

std::string named_list(const char* label, const std::vector<FactChange>& changes, size_t named) {
    if (changes.empty())
        return "";
    std::string out = std::string("; ") + label + ": ";
    for (size_t i = 0; i < changes.size() && i < named; ++i) {
        const FactChange& c = changes[i];
        std::string what = c.before.empty()  ? c.after
                           : c.after.empty() ? c.before
                                             : c.before + " -> " + c.after;
        out += (i ? ", " : "") + c.name + " " + what;
    }
    if (changes.size() > named)
        out += ", and " + std::to_string(changes.size() - named) + " more";
    return out;
}

nlohmann::json changes_json(const std::vector<FactChange>& changes) {
    nlohmann::json out = nlohmann::json::array();
    for (const FactChange& c : changes)
        out.push_back({{"name", c.name}, {"before", c.before}, {"after", c.after}});
    return out;
}

} // namespace

bool TreeDiff::empty() const {
    return kernels.empty() && kernel_config.empty() && kernel_problems.empty() &&
           packages.empty() && packages_unknown.empty() && units.empty() && sysctl.empty();
}

CategoryDiff diff_facts(const FactMap& before, const FactMap& after) {
    CategoryDiff d;
    for (const auto& [name, value] : before) {
        auto it = after.find(name);
        if (it == after.end())
            d.removed.push_back({name, value, ""});
        else if (it->second != value)
            d.changed.push_back({name, value, it->second});
    }
    for (const auto& [name, value] : after)
        if (!before.count(name))
            d.added.push_back({name, "", value});
    return d;
}

TreeDiff diff_trees(const TreeFacts& before, const TreeFacts& after) {
    TreeDiff d;
    diff_kernels(before, after, d);
    diff_packages(before.packages, after.packages, d);
    d.units = diff_facts(before.units, after.units);
    d.sysctl = diff_facts(before.sysctl, after.sysctl);
    return d;
}

std::string package_summary(const TreeDiff& d, size_t named) {
    if (!d.packages_unknown.empty())
        return "packages unknown: " + d.packages_unknown;
    const CategoryDiff& p = d.packages;
    return std::to_string(p.added.size()) + " added, " + std::to_string(p.removed.size()) +
           " removed, " + std::to_string(p.changed.size()) + " changed (" +
           std::to_string(d.packages_before) + " -> " + std::to_string(d.packages_after) +
           " packages)" + named_list("changed", p.changed, named) +
           named_list("added", p.added, named) + named_list("removed", p.removed, named);
}

nlohmann::json to_json(const CategoryDiff& c) {
    return {{"added", changes_json(c.added)},
            {"removed", changes_json(c.removed)},
            {"changed", changes_json(c.changed)}};
}

nlohmann::json to_json(const TreeDiff& d) {
    return {
        {"kernels", to_json(d.kernels)},   {"kernel_config", to_json(d.kernel_config)},
        {"config_compared", d.config_compared},  {"kernel_problems", d.kernel_problems},
        {"packages", to_json(d.packages)}, {"packages_unknown", d.packages_unknown},
        {"packages_before", d.packages_before},  {"packages_after", d.packages_after},
        {"units", to_json(d.units)},       {"sysctl", to_json(d.sysctl)}};
}

} // namespace bootbench::core
