// bootbench doctor [FILE]: a one-screen preflight of this host for a night.
#include "cli/doctor.hpp"

#include "cli/commands.hpp"
#include "cli/experiment_file.hpp"
#include "cli/targets.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "sys/doctor_probe.hpp"
#include "sys/ostree/prepare_root.hpp"

#include <cstdlib>
#include <iostream>
#include <memory>

namespace bootbench::cli {

namespace {

std::unique_ptr<sys::UnitControl> units_of(const std::string& root) {
    if (root == "/")
        return std::make_unique<sys::SystemctlUnits>();
    return std::make_unique<sys::SandboxUnits>(root);
}

// The targets that resolve on the sysroot at `root` (those that do not are
// start's refusal to give, with the deployments listed).
std::map<std::string, core::DeploymentRef> resolved_targets(sys::Sysroot& sysroot,
                                                            const core::Experiment& e) {
    std::map<std::string, core::DeploymentRef> out;
    for (const auto& r : resolve_all(sysroot, e))
        if (r.deployment)
            out[r.target] = r.deployment->ref;
    return out;
}

void probe_targets(const std::string& root, const core::Experiment* e, core::HostFacts& f) {
    if (!e || !f.ostree_booted || !f.ostree_error.empty())
        return;
    try {
        sys::Sysroot sysroot(root);
        f.transient_etc = sys::transient_etc_targets(sysroot, resolved_targets(sysroot, *e));
    } catch (const Error&) {
    }
}

} // namespace

void refuse_transient_etc(sys::Sysroot& sysroot, const std::map<std::string, core::DeploymentRef>& targets) {
    core::DoctorCheck c = core::check_transient_etc(sys::transient_etc_targets(sysroot, targets));
    if (c.status == core::CheckStatus::fail)
        throw Error("cannot start: " + c.message + "\nfix: " + c.fix + "\nnothing was changed");
}

std::vector<core::DoctorCheck> host_checks(const std::string& root, const core::Experiment* e,
                                           bool drop_staged) {
    core::DoctorNeeds needs = e ? core::needs_of(*e) : core::default_needs();
    needs.drop_staged = drop_staged;
    auto units = units_of(root);
    core::HostFacts facts = sys::probe_host(root, needs, e, *units);
    probe_targets(root, e, facts);
    return core::doctor_checks(facts, needs);
}

void refuse_on_doctor_fail(const std::string& root, const core::Experiment& e, bool drop_staged) {
    auto checks = host_checks(root, &e, drop_staged);
    if (core::any_fail(checks))
        throw Error("cannot start: this host fails bootbench doctor's checks:\n" +
                    core::doctor_problems_text(checks) + "nothing was changed; 'bootbench doctor " +
                    e.source_file + "' shows every check");
    std::string warnings = core::doctor_problems_text(checks);
    if (!warnings.empty())
        std::cout << "doctor: warnings for this host:\n"
                  << core::printable(warnings, core::LineBreaks::keep);
}

std::optional<std::string> start_checks_root(const std::string& sysroot) {
    if (const char* root = std::getenv("BOOTBENCH_TEST_HOST_ROOT"))
        return std::string(root);
    return sysroot == "/" ? std::optional<std::string>("/") : std::nullopt;
}

int cmd_doctor(const Args& args) {
    if (args.positional().size() > 1)
        args.expect_positional(1, "at most one experiment file");
    std::optional<ExperimentFile> f;
    if (!args.positional().empty())
        f = read_experiment_file(args.positional()[0]);
    auto checks =
        host_checks(args.value("root").value_or("/"), f ? &f->experiment : nullptr, false);
    if (args.flag("json"))
        std::cout << core::doctor_json(checks);
    else
        std::cout << core::printable(core::doctor_text(checks), core::LineBreaks::keep);
    return core::any_fail(checks) ? 1 : 0;
}

} // namespace bootbench::cli
