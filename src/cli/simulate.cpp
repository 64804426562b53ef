// bootbench simulate FILE: the whole experiment on a throwaway sandbox
// sysroot: real libostree deployments, the real unit in each, real
// benchmarks on this kernel, reboots emulated from the BLS entries.
#include "cli/bisect_file.hpp"
#include "cli/commands.hpp"
#include "cli/report_summary.hpp"
#include "core/report/report_formats.hpp"
#include "sys/store/result_reader.hpp"
#include "cli/targets.hpp"
#include "cli/experiment_file.hpp"
#include "core/base/error.hpp"
#include "core/state/plan.hpp"
#include "sys/clock.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/host.hpp"
#include "sys/net/images.hpp"
#include "sys/orchestrator.hpp"
#include "sys/store/results_folder.hpp"
#include "sys/store/run_log.hpp"
#include "sys/ostree/sandbox.hpp"
#include "sys/store/state_store.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/store/user_lines.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace bootbench::cli {

namespace {

namespace fs = std::filesystem;

// Removes the temporary sandbox on every way out, unless the user named it.
class SandboxDir {
public:
    explicit SandboxDir(const std::optional<std::string>& given) : keep_(given.has_value()) {
        if (given) {
            path_ = *given;
            return;
        }
        std::string tmpl = (fs::temp_directory_path() / "bootbench-sandbox-XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            throw Error("cannot create a temporary sandbox folder in " + fs::temp_directory_path().string());
        path_ = tmpl;
    }
    ~SandboxDir() {
        if (!keep_) {
            try {
                sys::remove_sandbox(path_);
            } catch (const std::exception& e) {
                sys::warn(e.what());
            }
        }
    }
    SandboxDir(const SandboxDir&) = delete;
    SandboxDir& operator=(const SandboxDir&) = delete;
    const fs::path& path() const { return path_; }
    bool kept() const { return keep_; }

private:
    fs::path path_;
    bool keep_;
};

std::string name_of(const sys::SandboxLayout& layout, const fs::path& booted) {
    std::string leaf = booted.filename().string();
    for (const auto& [name, ref] : layout.targets)
        if (leaf == ref.checksum + "." + std::to_string(ref.serial))
            return name;
    return "host";
}

// Boots until no reboot is asked for, or until the user interrupts (the
// signal is returned, 0 otherwise). A process killed by a signal is a crash
// or power loss: the machine comes back and boots again.
int boot_until_done(const sys::SandboxLayout& layout, size_t max_boots, const sys::InterruptWatch& watch,
                    sys::Echo echo) {
    for (size_t n = 1;; ++n) {
        if (int sig = watch.take())
            return sig;
        if (n > max_boots)
            throw Error("the experiment did not finish within " + std::to_string(max_boots) +
                        " boots; the sandbox is kept for inspection");
        if (echo == sys::Echo::all)
            sys::say_raw("--- boot " + std::to_string(n) + ": " +
                         name_of(layout, sys::emulated_boot_choice(layout.sysroot)));
        sys::EmulatedBoot b = sys::emulate_boot(layout.sysroot, &watch);
        if (b.interrupted_by)
            return b.interrupted_by;
        if (!b.unit_enabled && echo == sys::Echo::all)
            sys::say_raw("--- boot " + std::to_string(n) + ": no bootbench unit in this deployment");
        if (b.killed_by)
            sys::say_raw("--- boot " + std::to_string(n) + " ended by signal " + std::to_string(b.killed_by) +
                         ": power cycle");
        else if (b.exit_status != 0 && !b.reboot_requested)
            throw Error("boot " + std::to_string(n) + ": bootbench resume failed (exit " +
                        std::to_string(b.exit_status) + ") and asked for no reboot; the machine would sit here");
        if (!b.killed_by && !b.reboot_requested)
            return 0;
    }
}

// The Markdown summary, written last of the report's files (core/report/report_formats).
fs::path summary_file(const fs::path& results) {
    return results / core::summary_file_name();
}

// "report.json, .svg, .html": every format of the table but the summary.
std::string other_report_files() {
    const auto& formats = core::report_formats();
    std::string out;
    for (size_t i = 1; i < formats.size(); ++i)
        out += (i == 1 ? std::string(core::kReportBase) : std::string(", ")) + formats[i].suffix;
    return out;
}

// What the user sees after Ctrl-C: what stopped, and where the runs so far are.
void say_interrupted(int sig, const core::State& s, const fs::path& results, const SandboxDir& dir) {
    sys::say(std::string("interrupted by SIG") + sigabbrev_np(sig) + " after " +
             std::to_string(s.count(core::SlotStatus::done)) + " of " + std::to_string(s.runs.size()) +
             " runs: the experiment was aborted; results so far (incomplete) in " + results.string());
    if (fs::exists(summary_file(results)))
        std::cout << "report (incomplete): " << summary_file(results).string() << "\n";
    else
        std::cout << "no report: the runs so far do not compare two targets (see "
                  << (results / "bootbench.log").string() << ")\n";
    if (dir.kept())
        sys::say("the sandbox is kept in " + dir.path().string());
}

// Ctrl-C: the experiment is aborted on the sandbox (machine back, report of
// the runs so far) and its results are kept.
int stop_interrupted(const sys::SandboxLayout& layout, const core::Experiment& e, const fs::path& results,
                     int sig, const SandboxDir& dir) {
    sys::SandboxHost host(layout.sysroot, sys::emulated_boot_choice(layout.sysroot));
    sys::RealClock clock;
    sys::abort_experiment(host, clock);
    sys::StatePaths paths{host.state_dir()};
    sys::install_results_folder(paths.results(e.name), results);
    say_interrupted(sig, sys::load_state(paths.state()), results, dir);
    return 128 + sig;
}

// The verdicts, as `report` prints them, and where the four files are.
void say_report(const fs::path& results) {
    if (!fs::exists(summary_file(results))) {
        std::cout << "no report: see " << (results / "bootbench.log").string() << "\n";
        return;
    }
    sys::ReportRequest req;
    req.inputs = {results};
    print_report_summary(sys::load_report(req));
    std::cout << "\nreport: " << summary_file(results).string() << " (and " << other_report_files() << " beside it)\n";
}

// What to do next on a real machine: the same file, unless its targets
// exist only in a sandbox (the demo's).
void say_next(const core::Experiment& e, const std::string& file) {
    bool sandbox_only = std::all_of(e.targets.begin(), e.targets.end(),
                                    [](const core::Target& t) { return t.selector.value.rfind("sandbox:", 0) == 0; });
    std::string f = sandbox_only ? "YOURS.toml" : file;
    std::cout << "\nnext, on the ostree machine to measure (Fedora Atomic, Universal Blue, bootc)"
              << (sandbox_only ? ", with your targets (see configs/margine-vs-bluefin.toml)" : "") << ":\n"
              << "  bootbench doctor " << f << "  (the host's checks, each with its fix), bootbench plan " << f
              << "  (run order, time),\n  then sudo bootbench start " << f << "  (pins, installs the unit, reboots)\n";
}

// A real night's runs in the results folder are moved aside, as `start`
// does, never replaced by a simulation's; a sandbox's are replaced at the end.
void keep_measured_runs(const fs::path& results) {
    if (!sys::holds_measured_runs(results)) {
        if (fs::exists(results))
            sys::say(results.string() + " holds earlier results of bootbench: they are replaced when this simulation ends");
        return;
    }
    sys::RealClock clock;
    fs::path aside = *sys::move_results_aside(results, clock.now_iso8601());
    sys::say(results.string() + " holds runs of a real machine, not of a sandbox: moved aside to " + aside.string() +
             ", where they stay; this simulation's results go to " + results.string());
}

// A bisect's builds on the sandbox: its history's length (good, the listed
// candidates or 6 builds between, bad); the file's commits name a real ref's.
constexpr int kSandboxBuildsBetween = 6;

int sandbox_builds(const core::BisectFile& f) {
    int between = f.bisect.candidates.empty() ? kSandboxBuildsBetween : static_cast<int>(f.bisect.candidates.size());
    return between + 2;
}

// What the search found, from the state the last boot saved.
void say_bisect_verdict(const fs::path& state_dir, const fs::path& results) {
    core::State s = sys::load_state(sys::StatePaths{state_dir}.state());
    core::BisectRun run = core::bisect_run_from_json(s.bisect, "state.json bisect");
    std::cout << "bisect: " << (run.search.verdict.empty() ? s.stop_reason : run.search.verdict) << "\n";
    if (fs::exists(results / "bisect.md"))
        std::cout << "bisect report: " << (results / "bisect.md").string() << "\n";
}

// The sandbox's history, its builds' trees differing in
// usr/share/bootbench/sandbox-build (0, 1, ...): good is the first, bad the
// last. A `command` bench can read the booted build's file
// ($BOOTBENCH_SANDBOX_BOOTED/usr/share/bootbench/sandbox-build).
int simulate_bisect(const Args& args, const std::string& file) {
    BisectFileText f = read_bisect_file(file);
    fs::path results = args.value("results").value_or((fs::path("results") / f.file.experiment.name).string());
    sys::check_results_destination(results);
    keep_measured_runs(results);
    sys::InterruptWatch watch;
    SandboxDir dir(args.value("sandbox"));
    sys::say("building the sandbox sysroot in " + dir.path().string());
    sys::SandboxHistory h = sys::build_sandbox_history(dir.path(), sandbox_builds(f.file));
    f.file.bisect.good.refspec = h.refspec;
    f.file.bisect.candidates.clear();
    sys::say("the sandbox's history: " + std::to_string(h.commits.size()) + " builds of " + h.refspec +
             " (the file's good and bad name a real history's builds: here good is the first, bad the last)");
    sys::SandboxHost host(h.sysroot, sys::emulated_boot_choice(h.sysroot));
    core::BisectRun run =
        bisect_run_of(f.file, {h.refspec, host.sysroot().history(h.refspec, h.commits.front(), h.commits.back()), {}});
    core::Experiment base = args.flag("quick") ? core::quick_version(f.file.experiment) : f.file.experiment;
    core::Experiment e = core::bisect_experiment(base, run);
    sys::RealClock clock;
    sys::StartOptions options;
    options.bisect = core::to_json(run);
    sys::start_experiment(host, e, f.text, {}, clock, options);
    sys::SandboxLayout layout{h.sysroot, h.host_default, {}};
    auto most = core::estimate_bisect(static_cast<int>(run.labels.size()), run.search.rules).runs_at_most;
    if (int sig = boot_until_done(layout, static_cast<size_t>(most * (e.max_attempts + 1) + 4), watch, sys::echo_for(true)))
        return stop_interrupted(layout, e, results, sig, dir);
    sys::SandboxHost after(h.sysroot, sys::emulated_boot_choice(h.sysroot));
    sys::install_results_folder(sys::StatePaths{after.state_dir()}.results(e.name), results);
    say_bisect_verdict(after.state_dir(), results);
    say_report(results);
    return 0;
}

} // namespace

int cmd_simulate(const Args& args) {
    args.expect_positional(1, "one experiment file");
    const std::string& file = args.positional()[0];
    if (args.flag("verbose")) // the emulated boots, children of this process, read it too
        ::setenv(sys::kVerboseEnv, "1", 1);
    if (is_bisect_file(file))
        return simulate_bisect(args, file);
    ExperimentFile f = read_experiment_file(file);
    // The file's text is kept as written: the state carries `quick` to every boot.
    core::Experiment e = args.flag("quick") ? core::quick_version(f.experiment) : f.experiment;
    fs::path results = args.value("results").value_or((fs::path("results") / e.name).string());
    sys::check_results_destination(results); // before the experiment, not after an hour of it
    keep_measured_runs(results);
    prepare_tools_image(e, true, std::cerr);
    sys::InterruptWatch watch; // from here on Ctrl-C stops cleanly, never half-way
    SandboxDir dir(args.value("sandbox"));
    sys::say("building the sandbox sysroot in " + dir.path().string());
    sys::SandboxLayout layout = sys::build_sandbox(dir.path(), e);
    sys::RealClock clock;
    {
        sys::StartOptions options;
        options.images = sys::resolve_images(e, std::cerr, sys::DigestPolicy::best_effort);
        sys::SandboxHost host(layout.sysroot, sys::emulated_boot_choice(layout.sysroot));
        sys::start_experiment(host, e, f.text, layout.targets, clock, options);
    }
    size_t runs = core::plan_runs(e).size();
    if (int sig = boot_until_done(layout, runs * static_cast<size_t>(e.max_attempts + 1) + 4, watch,
                                  sys::echo_for(true)))
        return stop_interrupted(layout, e, results, sig, dir);
    fs::path booted = sys::emulated_boot_choice(layout.sysroot);
    sys::SandboxHost host(layout.sysroot, booted);
    if (!(host.booted().ref == layout.host_default))
        throw Error("the experiment ended but the sandbox boots " + booted.string() +
                    ", not the original default deployment");
    sys::install_results_folder(sys::StatePaths{host.state_dir()}.results(e.name), results);
    std::cout << "experiment " << e.name << " finished on the sandbox; the machine boots its original "
              << "default again.\n";
    say_report(results);
    say_next(e, file);
    return 0;
}

} // namespace bootbench::cli
