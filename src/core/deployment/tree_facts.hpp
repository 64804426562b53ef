#pragma once
// What a deployment's tree says about the system it boots, read without
// booting it (sys/ostree/tree_reader): kernels and the kernel config options
// that matter for scheduling and performance, packages, the systemd units
// the tree enables, the sysctl defaults. Bisect's "what changed" and the
// report's "what differs between the arms" diff two of these
// (core/deployment/tree_diff). Pure.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bootbench::core {

// name -> value, where several values for one name (two kernels installed,
// a unit enabled in two ways) are one text, sorted and joined by ", ".
using FactMap = std::map<std::string, std::string>;

// Adds `value` to `map[key]`, keeping the values sorted, unique, ", "-joined.
void add_fact(FactMap& map, const std::string& key, const std::string& value);

struct KernelFacts {
    std::string version; // the folder name under usr/lib/modules
    FactMap config; // the options that matter (kernel_config): "y", "m", "1000", "n" (is not set)
    std::string
        problem; // why config is empty or partial: no file, unreadable, truncated ("" when read)
};

struct PackageFacts {
    std::string source;  // "rpm", "dpkg", "" (none found)
    std::string unknown; // why the packages are unknown ("rpm not found"); "" when read
    FactMap versions;    // name -> [epoch:]version-release
};

struct TreeFacts {
    std::vector<KernelFacts> kernels; // by version, ascending
    PackageFacts packages;
    // unit -> how the tree enables it: "etc: multi-user.target.wants",
    // "usr: sockets.target.wants", "preset" (enabled by a preset rule).
    FactMap units;
    FactMap sysctl;                    // key (dotted) -> effective value by systemd-sysctl's order
    std::vector<std::string> warnings; // what was read but ignored, with file:line
};

// Kernel versions in the order of their numbers ("6.9.1" before "6.10.0").
bool version_less(const std::string& a, const std::string& b);

nlohmann::json to_json(const TreeFacts& f);
// Throws bootbench::Error naming `where` and the field when malformed.
TreeFacts tree_facts_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
