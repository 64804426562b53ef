#pragma once
// The report's "What differs between the arms": from what `start` read of
// each target's deployment (core/deployment/arm_facts: kernel, boot entry's
// kernel arguments, kernel config, packages, enabled units, sysctl defaults)
// and what each boot recorded (environment.live: the command line, sysctls,
// THP, sched_ext, profiles, mitigations, microcode, the running kernel's
// config), only what differs between the targets, with each target's value.
// A per-boot value that varies within one target's runs is marked as
// varying, with its values. Pure.
#include "core/deployment/arm_facts.hpp"
#include "core/deployment/tree_diff.hpp"
#include "core/result/run_result.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace bootbench::core {

// What a cell says where its target has no value: no argument beyond the
// ones every arm has, no kernel, an option not in the config, a unit not
// enabled, a sysctl not set, a live value its runs did not have.
inline constexpr const char* kArmNoArgs = "(none beyond the common ones)";
inline constexpr const char* kArmNoKernel = "no kernel found";
inline constexpr const char* kArmNotInConfig = "not in the config";
inline constexpr const char* kArmNotEnabled = "not enabled";
inline constexpr const char* kArmNotSet = "not set";
inline constexpr const char* kArmAbsent = "absent";
// A target none of whose runs recorded live values: its value is unknown.
inline constexpr const char* kArmNotRecorded = "not recorded";

// One target's value: one for a fact of its tree or a value every run
// agrees on; several (each with how many runs had it, in run order) when it
// varies within the target.
struct ArmCell {
    std::vector<std::pair<std::string, int>> values;
    bool varies() const { return values.size() > 1; }
    bool operator==(const ArmCell&) const = default;
};

struct ArmRow {
    std::string group; // "kernel", "kernel arguments", "kernel config", "units", "sysctl defaults", "per boot"
    std::string name;  // "CONFIG_HZ", "vm.swappiness", "tuned.service", "sysctl.vm.swappiness", ...
    std::vector<ArmCell> cells; // one per ArmsSection::targets
};

// The packages of one target against the baseline (core/deployment/tree_diff).
struct ArmPackages {
    std::string from, to;
    std::string summary; // core::package_summary, the top changes named
    CategoryDiff diff;
    std::string unknown; // why a side's packages are unknown
};

struct ArmsSection {
    std::vector<std::string> targets; // the report's order, baseline first
    std::vector<ArmRow> rows;
    std::vector<ArmPackages> packages;
    std::vector<std::string> notes; // what could not be read, and where
    bool empty() const { return rows.empty() && packages.empty() && notes.empty(); }
};

// `targets` in the report's order (baseline first); `runs` the included ones.
// Empty when there are no arms facts and no run recorded live values (results
// of versions before, published sets).
ArmsSection arms_section(const std::vector<ArmFacts>& arms, const std::vector<std::string>& targets,
                         const std::vector<const RunResult*>& runs);

// "60", or "varies: 60 (2 runs), 10 (1 run)".
std::string cell_text(const ArmCell& c);
// "kernel config CONFIG_HZ", "per boot sysctl.vm.swappiness", "kernel arguments".
std::string row_label(const ArmRow& r);

nlohmann::json arms_json(const ArmsSection& s);

// The sentence under the section's title: where its values come from.
std::string arms_intro_text();
// "a -> b: 3 added, ...": a target's packages against the baseline's.
std::string packages_line(const ArmPackages& p);

} // namespace bootbench::core
