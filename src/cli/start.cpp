// bootbench start FILE: prepare this machine and reboot into the first run.
#include "cli/commands.hpp"
#include "cli/experiment_file.hpp"
#include "cli/targets.hpp"
#include "core/plan.hpp"
#include "sys/clock.hpp"
#include "sys/files.hpp"
#include "sys/host.hpp"
#include "sys/orchestrator.hpp"

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
    std::cout << "  write " << (host.state_dir() / "state.json").string() << " and "
              << (host.state_dir() / "bin/bootbench").string() << "\n"
              << "  install bootbench-resume.service into every deployment's /etc/systemd/system\n"
              << "  make " << core::describe(targets.at(runs.front().target)) << " the default (run "
              << runs.front().run_id << ") and reboot\n";
}

} // namespace

int cmd_start(const Args& args) {
    args.expect_positional(1, "one experiment file");
    const std::string& file = args.positional()[0];
    core::Experiment e = load_experiment(file);
    auto host = sys::open_host(args.value("sysroot").value_or("/"));
    auto targets = require_resolved(host->sysroot(), e);
    std::cout << "targets on " << host->describe() << ":\n";
    print_resolutions(std::cout, resolve_all(host->sysroot(), e));
    if (args.flag("dry-run")) {
        print_dry_run(*host, e, targets);
        return 0;
    }
    sys::RealClock clock;
    sys::StartOptions options;
    options.reboot = !args.flag("no-reboot");
    options.staged = args.flag("drop-staged") ? sys::StagedPolicy::drop : sys::StagedPolicy::refuse;
    sys::start_experiment(*host, e, sys::read_text_file(file), targets, clock, options);
    return 0;
}

} // namespace bootbench::cli
