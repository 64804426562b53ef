#pragma once
// What differs between two deployments' tree facts (core/deployment/
// tree_facts), category by category: the input of bisect's "what changed
// between the last good and the first bad build" and of the report's "what
// differs between the arms". Pure.
#include "core/deployment/tree_facts.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bootbench::core {

struct FactChange {
    std::string name;
    std::string before; // "" when added
    std::string after;  // "" when removed
};

struct CategoryDiff {
    std::vector<FactChange> added, removed, changed; // each by name
    bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

struct TreeDiff {
    CategoryDiff kernels;                     // versions
    CategoryDiff kernel_config;               // of the newest kernel on each side
    std::string config_compared;              // "6.1.0-1 -> 6.2.0-1", "" when a side has no kernel
    std::vector<std::string> kernel_problems; // "before: FILE:LINE: ..." for a config not read
    CategoryDiff packages;
    std::string packages_unknown; // "before: rpm not found" when a side's packages are unknown
    size_t packages_before = 0, packages_after = 0;
    CategoryDiff units;
    CategoryDiff sysctl;
    bool empty() const;
};

CategoryDiff diff_facts(const FactMap& before, const FactMap& after);

// `before` -> `after`.
TreeDiff diff_trees(const TreeFacts& before, const TreeFacts& after);

// One line for the packages: "3 added, 1 removed, 12 changed (1520 -> 1522
// packages); changed: kernel 6.1-1 -> 6.2-1, ...; added: ...", at most
// `named` names per list, then "and N more"; or why they are unknown.
std::string package_summary(const TreeDiff& d, size_t named);

nlohmann::json to_json(const TreeDiff& d);
// {"added": [...], "removed": [...], "changed": [...]}, each {name, before, after}.
nlohmann::json to_json(const CategoryDiff& c);

} // namespace bootbench::core
