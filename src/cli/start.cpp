// bootbench start FILE: prepare this machine and reboot into the first run.
#include "cli/commands.hpp"

#include <filesystem>
#include "cli/doctor.hpp"
#include "cli/experiment_file.hpp"
#include "cli/targets.hpp"
#include "core/base/error.hpp"
#include "core/image/image_record.hpp"
#include "core/state/plan.hpp"
#include "sys/clock.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/host.hpp"
#include "sys/orchestrator.hpp"
#include "sys/net/images.hpp"
#include "sys/ostree/staging.hpp"

#include <iostream>

namespace bootbench::cli {

namespace {

void print_dry_run(sys::Host& host, const core::Experiment& e,
                   const std::map<std::string, core::DeploymentRef>& targets) {
    auto runs = core::plan_runs(e);
    std::cout << "dry run: nothing is changed. bootbench start would:\n";
    for (const auto& t : e.targets) {
        const auto& ref = targets.at(t.name);
        if (!t.kargs.empty())
            std::cout << "  deploy " << core::describe(ref) << " again with kernel arguments for "
                      << t.name << " (removed at the end)\n";
        std::cout << "  pin " << core::describe(ref) << " (" << t.name << ") for the experiment\n";
    }
    auto staging = sys::staging_pins_for(sys::StatePaths{host.state_dir()}, e.name);
    std::cout << "  pin " << core::describe(staging ? staging->original_default : host.sysroot().default_deployment().ref)
              << (staging ? " (the default before staging)" : " (the default now)")
              << " for the experiment: it is the default again at the end\n";
    std::cout << "  write " << (host.state_dir() / "state.json").string() << " and "
              << sys::StatePaths{host.state_dir()}.binary().string() << " (the binary the unit runs)\n"
              << "  install bootbench-resume.service into every deployment's /etc/systemd/system\n"
              << "  make " << core::describe(targets.at(runs.front().target)) << " the default (run "
              << runs.front().run_id << ") and reboot\n";
}

std::vector<core::DeploymentRef> deployed(const std::vector<core::Resolution>& rs) {
    std::vector<core::DeploymentRef> out;
    for (const auto& r : rs)
        if (r.deployment)
            out.push_back(r.deployment->ref);
    return out;
}

// Targets with stage = true that no deployment has yet: staged one at a time
// (bootc and rpm-ostree keep one staged deployment), each needing a reboot to
// become a deployment. What must survive the staging is pinned first. Returns
// true when it staged (or would stage) one.
bool stage_missing(sys::Host& host, const core::Experiment& e, const nlohmann::json& images, bool dry_run) {
    auto rs = resolve_all(host.sysroot(), e, images);
    for (size_t i = 0; i < rs.size(); ++i) {
        core::Target t = e.targets[i];
        if (t.pin_digest && images.contains(t.name)) // stage exactly the image recorded
            t.selector.value = core::recorded_image_from_json(images[t.name], "images." + t.name).pinned_reference;
        if (rs[i].deployment || !rs[i].not_deployed || !t.stage)
            continue;
        std::string why;
        auto argv = sys::staging_command(t, why);
        if (!argv)
            throw Error("target '" + t.name + "' is not deployed and cannot be staged here: " + why);
        std::cout << "target " << t.name << " is not deployed; staging it with: " << sys::shell_words(*argv)
                  << "\n";
        if (dry_run) {
            sys::keep_through_staging(host, e.name, deployed(rs), dry_run, std::cout);
            std::cout << "dry run: nothing is changed\n";
            return true;
        }
        sys::run_staging(host, e.name, deployed(rs), *argv, std::cout);
        std::cout << "staged " << t.name << ": it becomes a deployment at the next boot. Reboot, then run "
                  << "the same 'bootbench start' again (once for each target still to add)\n";
        return true;
    }
    return false;
}

// Before anything else: libostree's own words for this are "opendir(ostree/repo)".
void require_ostree_sysroot(const std::string& sysroot) {
    if (!std::filesystem::exists(std::filesystem::path(sysroot) / "ostree/repo"))
        throw input_error(sysroot + " is not an ostree sysroot (no ostree/repo): start runs on the Fedora "
                          "Atomic, Universal Blue or bootc machine it measures; 'bootbench simulate FILE' "
                          "rehearses the experiment on a sandbox here");
}

} // namespace

int cmd_start(const Args& args) {
    args.expect_positional(1, "one experiment file");
    const std::string& file = args.positional()[0];
    ExperimentFile f = read_experiment_file(file);
    const core::Experiment& e = f.experiment;
    auto host = sys::open_host(args.value("sysroot").value_or("/"));
    if (!host->emulated()) { // a sandbox is not this machine: its host is not checked
        require_ostree_sysroot(args.value("sysroot").value_or("/"));
        if (auto root = start_checks_root(args.value("sysroot").value_or("/")))
            refuse_on_doctor_fail(*root, e, args.flag("drop-staged"));
    }
    require_binary_loads(host->sysroot(), e); // before the tools image is pulled
    prepare_tools_image(e, !args.flag("dry-run"), std::cout);
    std::cout << "image digests:\n";
    nlohmann::json images = sys::resolve_images(e, std::cout, sys::DigestPolicy::required);
    if (stage_missing(*host, e, images, args.flag("dry-run")))
        return 0;
    auto targets = require_resolved(host->sysroot(), e, images);
    refuse_transient_etc(host->sysroot(), targets);
    if (std::string problems = start_problems(host->sysroot(), e, resolve_all(host->sysroot(), e, images));
        !problems.empty())
        throw input_error(problems.substr(0, problems.size() - 1));
    std::cout << "targets on " << host->describe() << ":\n";
    print_resolutions(std::cout, resolve_all(host->sysroot(), e, images));
    if (args.flag("dry-run")) {
        print_dry_run(*host, e, targets);
        return 0;
    }
    sys::RealClock clock;
    sys::StartOptions options;
    options.reboot = !args.flag("no-reboot");
    options.staged = args.flag("drop-staged") ? sys::StagedPolicy::drop : sys::StagedPolicy::refuse;
    options.images = images;
    sys::start_experiment(*host, e, f.text, targets, clock, options);
    return 0;
}

} // namespace bootbench::cli
