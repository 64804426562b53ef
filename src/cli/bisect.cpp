// bootbench bisect FILE: find the build of a ref's history that made the
// machine slower. Plans (the builds, the steps, the runs and the time), then
// starts like `start`: good's and bad's builds deployed, the unit in each,
// reboot; every later boot's `resume` feeds the search and deploys the next
// build it asks for (sys/orchestrator, sys/bisect_builds).
#include "cli/bisect_file.hpp"
#include "cli/commands.hpp"
#include "cli/doctor.hpp"
#include "core/base/error.hpp"
#include "core/bisect/bisect_run.hpp"
#include "core/state/estimate.hpp"
#include "sys/clock.hpp"
#include "sys/orchestrator.hpp"
#include "sys/ostree/host.hpp"
#include "sys/ostree/sysroot.hpp"

#include <iostream>

namespace bootbench::cli {

namespace {

void print_builds(const core::BisectRun& run) {
    std::cout << "builds of " << run.refspec << ", oldest first:\n";
    for (size_t i = 0; i < run.labels.size(); ++i) {
        const core::CommitInfo& c = run.history[i];
        std::string role = i == 0 ? " (good)" : i + 1 == run.labels.size() ? " (bad)" : "";
        std::cout << "  " << run.labels[i] << role << "  " << c.timestamp << "  "
                  << (c.version.empty() ? "" : c.version + "  ") << c.subject << "\n";
    }
}

void print_estimate(const core::BisectRun& run, const core::Experiment& e) {
    core::BisectEstimate est = core::estimate_bisect(static_cast<int>(run.labels.size()), run.search.rules);
    double per_run = core::estimate_run_seconds(e);
    std::cout << "the search: " << run.labels.size() - 2 << " builds between good and bad, "
              << est.steps << " steps; " << est.runs_first_rounds << " runs (one boot each) when every "
              << "decision takes one round, about " << core::format_duration(est.runs_first_rounds * per_run)
              << " at " << core::format_duration(per_run) << " a run; at most " << est.runs_at_most
              << " runs (" << core::format_duration(est.runs_at_most * per_run) << ")\n"
              << "metric: " << run.search.metric << " (" << core::name_of(core::kBetterNames, run.search.better)
              << " is better), threshold " << run.search.threshold * 100 << "%\n";
}

sys::StartOptions start_options(const Args& args, const core::BisectRun& run) {
    sys::StartOptions options;
    options.reboot = !args.flag("no-reboot");
    options.staged = args.flag("drop-staged") ? sys::StagedPolicy::drop : sys::StagedPolicy::refuse;
    options.bisect = core::to_json(run);
    return options;
}

} // namespace

int cmd_bisect(const Args& args) {
    args.expect_positional(1, "one bisect file");
    BisectFileText f = read_bisect_file(args.positional()[0]);
    std::string sysroot = args.value("sysroot").value_or("/");
    auto host = sys::open_host(sysroot);
    if (!host->emulated())
        if (auto root = start_checks_root(sysroot))
            refuse_on_doctor_fail(*root, f.file.experiment, args.flag("drop-staged"));
    core::BisectRun run = bisect_run_of(f.file, bisect_builds(host->sysroot(), f.file, std::cout));
    print_builds(run);
    core::Experiment e = core::bisect_experiment(f.file.experiment, run);
    print_estimate(run, e);
    if (args.flag("dry-run")) {
        std::cout << "dry run: nothing is changed. bootbench bisect would deploy good's and bad's builds "
                     "(removed at the end), install the unit, and reboot\n";
        return 0;
    }
    std::cout.flush(); // the plan before start's lines, which go to stderr and the journal
    sys::RealClock clock;
    sys::start_experiment(*host, e, f.text, {}, clock, start_options(args, run));
    return 0;
}

} // namespace bootbench::cli
