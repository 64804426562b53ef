// bootbench plan FILE: the run order, the targets, and how long it takes.
#include "cli/commands.hpp"
#include "cli/experiment_file.hpp"
#include "cli/quiet.hpp"
#include "core/sizing/adaptive.hpp"
#include "core/state/estimate.hpp"
#include "sys/clock.hpp"
#include "core/state/plan.hpp"
#include "cli/targets.hpp"

#include "sys/net/images.hpp"

#include <algorithm>
#include <filesystem>

#include <iostream>
#include <sstream>

namespace bootbench::cli {

namespace {

std::string describe_selector(const core::Target& t) {
    const auto& s = t.selector;
    std::string v = s.kind == core::SelectorKind::deployment ? std::to_string(s.index) : s.value;
    return std::string(core::to_string(s.kind)) + " " + v;
}

// The night on a machine (real reboots) and the same experiment as a
// simulation (no reboots), from the numbers the runs use for their progress.
void print_estimate(const core::Experiment& e, size_t runs) {
    double per_run = core::estimate_run_seconds(e), n = static_cast<double>(runs);
    std::cout << "\nestimate: " << core::format_duration(per_run * n) << " (" << core::format_duration(per_run)
              << " per run, assuming " << core::format_duration(core::kAssumedBootSeconds)
              << " per boot; waits for the CPU to cool are extra)\n"
              << "as a simulation (bootbench simulate, no reboots): "
              << core::format_duration(core::estimate_simulated_run_seconds(e) * n) << "\n";
}

// An adaptive experiment: its rounds, and how many fit before `until` from
// now at the estimated pace (min and max still apply).
void print_rounds(const core::Experiment& e) {
    const core::Adaptive& a = *e.adaptive;
    double round_s = core::estimate_run_seconds(e) * static_cast<double>(e.targets.size());
    std::cout << "\nrounds (one run per target each): min " << a.min_runs << ", max " << e.runs
              << (a.precision > 0 ? ", stopping when every primary metric is within +-" + core::percent_text(a.precision)
                                  : std::string(", no precision target"))
              << "; the run order above is the longest night\n";
    if (a.until.empty())
        return;
    std::string now = sys::RealClock().now_iso8601();
    int fit = core::rounds_that_fit(core::epoch_of(now).value_or(0), core::deadline_of(e, now), round_s);
    std::cout << core::until_text(e, fit, round_s) << "\n";
}

} // namespace

// The targets as resolved on this sysroot, when it is an ostree system.
void print_sysroot(const core::Experiment& e, const std::string& sysroot) {
    if (!std::filesystem::exists(std::filesystem::path(sysroot) / "ostree/deploy")) {
        std::cout << "\n" << sysroot << " is not an ostree sysroot: targets are resolved by start on the "
                  << "machine that runs them ('bootbench simulate' rehearses on a sandbox)\n";
        return;
    }
    sys::Sysroot sr(sysroot);
    auto rs = resolve_all(sr, e);
    std::cout << "\ntargets on " << sysroot << ":\n";
    print_resolutions(std::cout, rs);
    std::cout << "deployments:\n" << core::describe_all(sr.deployments());
    std::cout << start_problems(sr, e, rs);
}

// A target this binary cannot run in is refused first, like a missing tools image.
void require_binary_loads_on(const std::string& sysroot, const core::Experiment& e) {
    if (std::filesystem::exists(std::filesystem::path(sysroot) / "ostree/deploy")) {
        sys::Sysroot sr(sysroot);
        require_binary_loads(sr, e);
    }
}

int cmd_plan(const Args& args) {
    args.expect_positional(1, "one experiment file");
    core::Experiment e = load_experiment(args.positional()[0]);
    if (args.flag("quick"))
        e = core::quick_version(e);
    if (auto pilot = args.value("from"))
        return plan_from(*pilot, e);
    std::ostringstream tools;
    prepare_tools_image(e, false, tools); // refused first: plan says nothing else then
    require_binary_loads_on(args.value("sysroot").value_or("/"), e);
    auto runs = core::plan_runs(e);
    std::cout << "experiment " << e.name << ": " << e.title << "\n"
              << "  " << e.targets.size() << " targets x "
              << (e.adaptive && e.adaptive->min_runs < e.runs ? std::to_string(e.adaptive->min_runs) + " to " : "")
              << e.runs << " runs, order "
              << core::to_string(e.order) << ", baseline " << e.baseline << "\n\ntargets:\n";
    for (const auto& t : e.targets)
        std::cout << "  " << t.name << ": " << describe_selector(t)
                  << (t.kargs.empty() ? "" : " (with extra kernel arguments)") << "\n";
    std::cout << "\nrun order:\n";
    for (size_t i = 0; i < runs.size(); ++i)
        std::cout << "  " << (i + 1) << ". " << runs[i].run_id << "\n";
    if (e.adaptive)
        print_rounds(e);
    print_sysroot(e, args.value("sysroot").value_or("/"));
    std::cout << "\n" << quiet_plan(e);
    if (std::any_of(e.targets.begin(), e.targets.end(),
                    [](const core::Target& t) { return t.selector.kind == core::SelectorKind::image; })) {
        std::cout << "\nimage digests (resolved again at start and recorded with every result):\n";
        sys::resolve_images(e, std::cout, sys::DigestPolicy::best_effort);
    }
    if (!tools.str().empty())
        std::cout << "\n" << tools.str();
    print_estimate(e, runs.size());
    return 0;
}

} // namespace bootbench::cli
