#pragma once
// What `start` read of each target's deployment before the first boot, as
// results/<experiment>/arms.json keeps it: its tree facts
// (core/deployment/tree_facts) and its boot entry's kernel arguments. The
// report's "What differs between the arms" (core/report/report_arms) reads
// it back. Pure.
#include "core/deployment/tree_facts.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

inline constexpr const char* kArmsSchema = "bootbench-arms/1";
inline constexpr const char* kArmsFile = "arms.json";

struct ArmFacts {
    std::string target;
    std::string deployment;                    // core::describe(DeploymentRef)
    std::optional<std::string> kernel_options; // the BLS entry's options; absent when not read
    std::optional<TreeFacts> tree;             // absent when the tree could not be read
    std::vector<std::string> problems;         // why something is absent, with the path
};

nlohmann::json arms_to_json(const std::vector<ArmFacts>& arms);
// Throws bootbench::Error naming `where` and the field when malformed or of
// another schema.
std::vector<ArmFacts> arms_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
