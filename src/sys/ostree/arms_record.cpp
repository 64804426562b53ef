#include "sys/ostree/arms_record.hpp"

#include "core/base/text.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/ostree/tree_reader.hpp"
#include "sys/store/files.hpp"
#include "sys/store/user_lines.hpp"

namespace bootbench::sys {

namespace {

core::ArmFacts read_arm(Sysroot& sysroot, const core::TargetState& t) {
    core::ArmFacts a{t.target, core::describe(t.deployment), std::nullopt, std::nullopt, {}};
    try {
        a.kernel_options = sysroot.kernel_options(t.deployment);
    } catch (const std::exception& e) {
        a.problems.push_back("kernel arguments not read: " + core::printable(e.what()));
    }
    try {
        a.tree = read_tree_facts(sysroot.deployment_dir(t.deployment));
    } catch (const std::exception& e) {
        a.problems.push_back("deployment tree not read: " + core::printable(e.what()));
    }
    return a;
}

} // namespace

std::vector<core::ArmFacts> read_arms(Sysroot& sysroot, const std::vector<core::TargetState>& targets) {
    std::vector<core::ArmFacts> out;
    for (const core::TargetState& t : targets)
        out.push_back(read_arm(sysroot, t));
    return out;
}

void record_arms(Sysroot& sysroot, const std::vector<core::TargetState>& targets, const fs::path& results) {
    fs::path file = results / core::kArmsFile;
    try {
        write_file_atomic(file, core::json_text(core::arms_to_json(read_arms(sysroot, targets)), 2) + "\n");
    } catch (const std::exception& e) {
        warn("what differs between the arms was not recorded (" + std::string(e.what()) +
             "); the experiment goes on, and its report has no such section");
    }
}

} // namespace bootbench::sys
