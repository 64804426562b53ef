#include "sys/orchestrator.hpp"
#include "sys/bisect_builds.hpp"
#include "sys/bisect_report.hpp"
#include "sys/probe/machine_id.hpp"
#include "sys/probe/probes.hpp"

#include "core/base/error.hpp"
#include "core/state/estimate.hpp"
#include "core/base/json_bounds.hpp"
#include "sys/probe/boot_times.hpp"
#include "sys/clock.hpp"
#include "sys/store/crash_point.hpp"
#include "sys/store/files.hpp"
#include "sys/net/experiment_notify.hpp"
#include "sys/store/lock.hpp"
#include "sys/store/report_files.hpp"
#include "sys/store/result_reader.hpp"
#include "sys/store/results_folder.hpp"
#include "core/host/gate.hpp"
#include "sys/store/run_log.hpp"
#include "sys/run/suite.hpp"
#include "sys/ostree/arms_record.hpp"
#include "sys/ostree/staging.hpp"
#include "sys/ostree/unit_install.hpp"

#include "core/sizing/adaptive.hpp"
#include "core/bisect/bisect_run.hpp"
#include "core/image/oci.hpp"
#include "core/deployment/resolve.hpp"
#include "core/report/report_formats.hpp"
#include "core/report/status.hpp"
#include "core/base/text.hpp"
#include "sys/store/user_lines.hpp"

#include <algorithm>
#include <iostream>

namespace bootbench::sys {

namespace {

struct Context {
    Host& host;
    Clock& clock;
    StatePaths paths;
    core::State state;
    core::Experiment experiment;
    RunLog log;
    ExperimentNotifier notify;
    // This boot ran another deployment than the boot before (nullopt: unknown).
    std::optional<bool> after_switch;
    std::string awake; // whether the sleep inhibitor is held (describe_inhibition)

    fs::path results() const { return paths.results(state.experiment); }
    void save() { save_state(paths.state(), state); }
};

// How long a boot waits for the sysroot lock an update holds before it
// gives up and reboots (the next boot switches again). The unit's 600 s
// beyond the suite cover it and the wait for the boot to finish (300 s).
constexpr double kSysrootLockWaitS = 240;

// The inhibitor's reason, as `systemd-inhibit --list` shows it.
constexpr const char* kAwakeWhy = "an unattended benchmark experiment runs until the next reboot";

int unit_timeout_s(const core::Experiment& e) {
    double suite = core::estimate_suite_seconds(e);
    return static_cast<int>(e.conditions.settle_s + e.conditions.temp_wait_timeout_s + 3 * suite + 600);
}

// An image bisection imports the next build in the boot of a run, after it:
// its unit's time allows that pull's bound too (a unit killed mid-pull
// would leave the machine in that boot, the night lost).
UnitSpec unit_spec(const core::Experiment& e, bool bisect) {
    bool imports = bisect && std::any_of(e.targets.begin(), e.targets.end(), [](const core::Target& t) {
                       return t.selector.kind == core::SelectorKind::image;
                   });
    return {unit_timeout_s(e) + (imports ? kImagePullTimeoutS : 0), !e.tools_image.empty()};
}

std::vector<core::DeploymentRef> all_deployments(Host& host) {
    std::vector<core::DeploymentRef> out;
    for (const auto& d : host.sysroot().deployments())
        if (!d.staged)
            out.push_back(d.ref);
    return out;
}

core::BisectRun bisect_of(const core::State& s) {
    return core::bisect_run_from_json(s.bisect, "state.json bisect");
}

// A bisect file's experiment, with a target for each build of its history.
core::Experiment saved_bisect(const StatePaths& paths, const core::State& state) {
    core::BisectFile f = core::parse_bisect(read_text_file(paths.experiment()), paths.experiment().string());
    return core::bisect_experiment(std::move(f.experiment), bisect_of(state));
}

// The file as written; a rehearsal's quick comes from the state, not the text.
core::Experiment load_saved_experiment(const StatePaths& paths, const core::State& state) {
    core::Experiment e = !state.bisect.is_null()
                             ? saved_bisect(paths, state)
                             : core::parse_experiment(read_text_file(paths.experiment()), paths.experiment().string());
    return state.quick ? core::quick_version(std::move(e)) : e;
}

Context open_context(Host& host, Clock& clock, core::State state) {
    StatePaths paths{host.state_dir()};
    core::Experiment e = load_saved_experiment(paths, state);
    RunLog log(paths.results(state.experiment) / "bootbench.log", clock, echo_for(host.emulated()));
    ExperimentNotifier notify(e, clock);
    return Context{host, clock, paths, std::move(state), std::move(e), log, std::move(notify), std::nullopt, ""};
}

fs::path result_file(const Context& c, const std::string& run_id) {
    return c.results() / "runs" / (run_id + ".json");
}

core::RunResult read_result_file(const fs::path& file) {
    return core::run_result_from_json(core::parse_bounded_json(read_text_file(file), file.string()), file.string());
}

void store_result(const Context& c, const core::RunResult& r, bool overwrite = true) {
    fs::path file = result_file(c, r.run_id);
    make_dirs(file.parent_path());
    if (!overwrite && fs::exists(file))
        return;
    write_file_atomic(file, core::json_text(core::to_json(r), 2) + "\n");
}

// A run given up without a measurement still gets a result file, so the
// report lists it as failed with the reason.
void store_failed_run(Context& c, const core::RunSlot& slot, const std::string& why) {
    core::RunResult r;
    r.experiment = c.state.experiment;
    r.run_id = slot.run_id;
    r.target = slot.target;
    r.attempt = slot.attempts;
    r.started_at = r.finished_at = c.clock.now_iso8601();
    r.status = core::RunStatus::failed;
    r.failure = why;
    store_result(c, r, false);
    for (size_t i = 0; i < c.state.runs.size(); ++i)
        if (c.state.runs[i].run_id == slot.run_id)
            c.notify.run_failed(c.state, i, why, c.results() / "runs" / slot.run_id);
}

// The default switched; false when an update held the sysroot lock past
// the bound (the state still says the default is not set).
bool switch_default(Context& c) {
    try {
        c.host.sysroot().set_default(c.state.expected, StagedPolicy::drop);
        return true;
    } catch (const SysrootLocked& e) {
        c.log.line(std::string(e.what()) + ": rebooting without switching");
        return false;
    }
}

BootOutcome switch_and_reboot(Context& c) {
    c.host.sysroot().reload(); // an update may have staged since this boot loaded it
    if (c.host.sysroot().has_staged())
        c.log.line("a staged update appeared during the experiment; it is dropped to keep the arms fixed");
    c.log.detail("switching the default to " + core::describe(c.state.expected));
    double start = c.clock.monotonic_s();
    if (!switch_default(c)) {
        c.host.reboot();
        return BootOutcome::rebooting;
    }
    crash_point("default-switched");
    c.state = core::mark_default_set(c.state);
    c.save();
    crash_point("default-recorded");
    const core::RunSlot* next = c.state.current_run();
    c.log.detail("rebooting into " + core::describe(c.state.expected) +
               (next ? " for run " + next->run_id : "") + " (switched in " +
               core::format_seconds(c.clock.monotonic_s() - start) + ")");
    c.host.reboot();
    return BootOutcome::rebooting;
}

void write_report(Context& c) {
    ReportRequest req;
    req.inputs = {c.results()};
    req.title = c.experiment.title;
    req.baseline = c.experiment.baseline;
    for (const auto& id : c.experiment.report.exclude)
        req.exclude.emplace_back(id, "excluded in the experiment file");
    req.out_prefix = c.results() / core::kReportBase;
    req.incomplete = core::incomplete_text(c.state);
    try {
        ReportPaths p = write_report_files(req);
        c.log.detail("report: " + p.markdown().string());
    } catch (const Error& e) {
        c.log.line("the report could not be written (" + std::string(e.what()) +
                   "); the results are kept: run 'bootbench report " + c.results().string() + "'");
    }
}

// The units, then the copy they run. The state folder's bin/bootbench of
// versions before stays: something else may run it (the VM guest starts
// bootbench from there), and removing /var/lib/bootbench removes it.
void remove_units(Host& host) {
    for (const auto& d : all_deployments(host))
        remove_unit(host.etc_dir(d));
    std::error_code ec;
    fs::remove(StatePaths{host.state_dir()}.binary(), ec);
}

// The deployments bootbench pinned besides the targets; one that is gone is
// logged (nothing to unpin).
void unpin_ours(Context& c) {
    for (const auto& ref : c.state.pinned_by_bootbench) {
        try {
            c.host.sysroot().set_pinned(ref, false);
        } catch (const Error& e) {
            c.log.line("could not unpin " + core::describe(ref) + ": " + e.what());
        }
    }
}

// The images an image bisection imported, dropped from the repo (gigabytes
// otherwise left behind); one still booted keeps its commit until its
// deployment goes. A failure is logged: the machine is back either way.
void forget_bisect_images(Context& c) {
    if (c.state.bisect.is_null())
        return;
    core::BisectRun run = bisect_of(c.state);
    std::vector<std::string> pulled;
    for (size_t i = 0; i < run.images.size(); ++i)
        if (c.state.find_target(run.labels[i]))
            pulled.push_back(run.images[i]);
    try {
        c.host.sysroot().remove_images(pulled);
    } catch (const Error& e) {
        c.log.line(std::string("could not remove the bisected images from the repo: ") + e.what());
    }
}

// Default, pins and kargs deployments back as they were. Each step is
// idempotent: a crash here reruns the whole cleanup at the next boot, which
// still has its unit (units go only after the state says the end).
bool restore_machine(Context& c, const std::optional<core::DeploymentRef>& booted) {
    Sysroot& sr = c.host.sysroot();
    sr.set_default(c.state.original_default, StagedPolicy::drop);
    crash_point("original-restored");
    for (const auto& t : c.state.targets)
        if (!t.created_for_kargs) {
            try {
                sr.set_pinned(t.deployment, t.was_pinned);
            } catch (const Error& e) {
                c.log.line("could not restore the pin of " + t.target + ": " + e.what());
            }
        }
    unpin_ours(c);
    bool kargs_booted = false;
    for (const auto& d : sr.deployments()) {
        if (d.kargs_for.empty())
            continue;
        if (booted && d.ref == *booted)
            kargs_booted = true;
        else
            sr.undeploy(d.ref);
    }
    forget_bisect_images(c);
    sr.cleanup(); // the runs' reorders skipped it
    return !kargs_booted;
}

// The end: state first, then the units (a crash in between leaves units
// that remove themselves at the next boot, see resume_experiment).
void conclude(Context& c) {
    write_report(c);
    c.state = core::finish(c.state);
    c.save();
    crash_point("finished");
    fs::remove(c.paths.staging()); // left by a crash right after start wrote the state
    remove_units(c.host);
    crash_point("units-removed");
}

BootOutcome finish_experiment(Context& c, const core::DeploymentInfo& booted) {
    c.log.detail(c.state.aborted ? "aborting: putting the machine back" : "all runs done: putting the machine back");
    if (!restore_machine(c, booted.ref)) {
        c.log.line("booted into a deployment bootbench made (for kernel arguments or a bisected build); it is "
                   "removed after the next boot");
        c.host.reboot();
        return BootOutcome::rebooting;
    }
    conclude(c);
    c.notify.finished(c.state, c.results() / core::summary_file_name());
    c.log.detail("experiment " + c.state.experiment + " " + core::to_string(c.state.phase) + ": " +
               std::to_string(c.state.count(core::SlotStatus::done)) + " runs done, " +
               std::to_string(c.state.count(core::SlotStatus::failed)) + " failed; results in " +
               c.results().string());
    if (booted.ref == c.state.original_default)
        return BootOutcome::finished;
    c.host.reboot(); // back into the system the user had
    return BootOutcome::rebooting;
}

// The results so far; none when no run is stored yet.
std::vector<core::RunResult> results_so_far(Context& c) {
    try {
        return read_results({c.results()}).runs;
    } catch (const Error& e) {
        c.log.line(std::string("no results to judge the precision by (") + e.what() + ")");
        return {};
    }
}

// Why it stopped, beside the runs, for the report.
void write_stop_file(Context& c, const core::RoundDecision& d) {
    nlohmann::json j = {{"schema", "bootbench-adaptive/1"},
                        {"stopped", d.text},
                        {"rounds", core::rounds_in(c.state, c.experiment)},
                        {"precision", core::precision_json(c.experiment, d.precision)}};
    write_file_atomic(c.results() / "adaptive.json", core::json_text(j, 2) + "\n");
}

// An adaptive experiment at the end of a round: another round, or why not.
// Saved with the state, so a crash before it makes the next boot decide.
void decide_round(Context& c) {
    if (!core::round_decision_due(c.state, c.experiment))
        return;
    core::RoundClock when{core::epoch_of(c.clock.now_iso8601()).value_or(0),
                           core::deadline_of(c.experiment, c.state.started_at),
                           core::pace_seconds(c.state, c.experiment, c.host.emulated())};
    core::RoundDecision d =
        core::decide_after_round(c.experiment, results_so_far(c), core::rounds_in(c.state, c.experiment), when);
    if (!d.stop()) {
        c.state = core::add_round(c.state, c.experiment);
        c.log.line("round " + std::to_string(core::rounds_in(c.state, c.experiment)) + " added");
    } else {
        write_stop_file(c, d);
        c.state.stopped_because = d.text;
        c.log.line("stopped: " + d.text);
    }
    c.save();
}

// The value a finished run gives the search: its metric, or why none.
core::RunValue run_value(Context& c, const core::RunSlot& slot, const std::string& metric) {
    if (slot.status != core::SlotStatus::done)
        return {std::nullopt, slot.failure};
    fs::path file = result_file(c, slot.run_id);
    try {
        return core::metric_value(read_result_file(file), metric);
    } catch (const std::exception& e) {
        return {std::nullopt, e.what()};
    }
}

// The search ended with this feed (not before it).
bool just_done(const core::BisectRun& before, const core::BisectRun& after) {
    return after.search.phase == core::BisectPhase::done && before.search.phase != core::BisectPhase::done;
}

void say_bisect_step(Context& c, const core::BisectRun& before, const core::BisectRun& after) {
    for (size_t i = before.search.steps.size(); i < after.search.steps.size(); ++i) {
        const core::BisectStep& st = after.search.steps[i];
        c.log.line("bisect: " + after.labels.at(static_cast<size_t>(st.build)) + " " + st.call + " (round " +
                   std::to_string(st.round) + "): " + st.why);
    }
    if (just_done(before, after))
        c.log.line("bisect: " + after.search.verdict);
}

// The builds this step deployed (pulled first from the ref's remote when the
// repository lacked them), for whoever follows the night in the journal:
// queue_bisect_builds appends them after the `had` targets there were.
void say_new_builds(Context& c, size_t had, const core::BisectRun& run) {
    for (size_t i = had; i < c.state.targets.size(); ++i)
        c.log.line("bisect: deployed build " + c.state.targets[i].target + " (" +
                   core::describe(c.state.targets[i].deployment) + ") of " + run.refspec);
}

// Once the search is done, before the cleanup removes its builds: a report
// that cannot be written is said, and the runs and the state keep it all.
void write_bisect_files(Context& c, const core::BisectRun& run) {
    try {
        c.log.detail("bisect report: " + write_bisect_report(c.host, c.state, run, c.results()).string());
    } catch (const Error& e) {
        c.log.line(std::string("the bisect report could not be written (") + e.what() +
                   "); the search is in the state and every run is kept");
    }
}

// A bisection after a run: the finished runs fed to its search once, the
// builds it asks for next deployed and their runs added; saved with the
// state in one write (a crash before it feeds the same runs again).
void decide_bisect(Context& c) {
    if (c.state.bisect.is_null() || c.state.aborted)
        return;
    core::BisectRun before = bisect_of(c.state);
    std::string metric = before.search.metric;
    core::Fed f = core::feed_finished_runs(before, c.state,
                                           [&](const core::RunSlot& slot) { return run_value(c, slot, metric); });
    size_t had = f.state.targets.size();
    c.state = queue_bisect_builds(c.host, std::move(f.state), f.run, unit_spec(c.experiment, true));
    c.state.bisect = core::to_json(f.run);
    say_bisect_step(c, before, f.run);
    say_new_builds(c, had, f.run);
    if (just_done(before, f.run))
        write_bisect_files(c, f.run);
    c.save();
}

BootOutcome next_step(Context& c, const core::DeploymentInfo& booted) {
    decide_bisect(c);
    decide_round(c);
    return c.state.phase == core::Phase::running ? switch_and_reboot(c) : finish_experiment(c, booted);
}

// A deployment whose kernel is not the one the target expects (an image
// updated under the tag, a kernel pinned elsewhere) must not be measured
// as that target. Returns why, or "".
std::string kernel_mismatch(Context& c, const core::Target& t) {
    if (t.expect_kernel.empty())
        return "";
    if (c.host.emulated()) {
        c.log.detail("expect_kernel '" + t.expect_kernel + "' not checked: the sandbox runs this machine's kernel");
        return "";
    }
    std::string release = kernel_release();
    if (core::glob_match(t.expect_kernel, release))
        return "";
    return "the booted kernel " + release + " does not match expect_kernel '" + t.expect_kernel +
           "' of target " + t.name + "; not measured";
}

// The image that booted must be the one resolved at start: a tag that moved
// between start and this boot would measure another image under the name.
std::string digest_mismatch(const Context& c, const std::string& target, const core::DeploymentInfo& booted) {
    if (!c.state.images.contains(target))
        return "";
    core::ResolvedImage image = core::resolved_image_from_json(c.state.images[target], "state.json images." + target);
    auto problem = core::booted_digest_problem(image, booted.image_digest);
    return problem ? *problem + "; not measured" : "";
}

// The run's names, its image, and what a report must say first: a sandbox's
// runs all ran on this machine's kernel, a --quick run's benches were cut.
core::RunResult labelled(Context& c, const core::RunSlot& slot, core::RunResult r) {
    if (c.host.emulated())
        r.environment.sandbox = true;
    if (c.experiment.quick)
        r.environment.quick = true;
    if (!c.awake.empty())
        r.environment.sleep_inhibitor = c.awake;
    if (c.after_switch) // the first boot of a deployment after another one ran
        r.environment.first_boot_after_switch = *c.after_switch;
    if (c.state.images.contains(slot.target))
        r.image = core::recorded_image_from_json(c.state.images[slot.target], "state.json images." + slot.target);
    r.experiment = c.state.experiment;
    r.run_id = slot.run_id;
    r.target = slot.target;
    r.attempt = slot.attempts;
    return r;
}

// The machine the run ran on (sys/probe/machine_id): a sandbox is a machine of
// its own, with the machine-id its build wrote into the deployments' /etc.
core::RunResult identified(Context& c, const core::DeploymentInfo& booted, core::RunResult r) {
    fs::path file = c.host.emulated() ? c.host.etc_dir(booted.ref) / "machine-id" : fs::path("/etc/machine-id");
    r.environment.machine_id = machine_id(file, c.state.experiment);
    return r;
}

core::RunResult measure(Context& c, const core::DeploymentInfo& booted) {
    const core::RunSlot& slot = *c.state.current_run();
    SuiteRequest req;
    req.experiment = &c.experiment;
    req.target = c.experiment.find_target(slot.target);
    if (!req.target)
        throw Error("run " + slot.run_id + " names target '" + slot.target +
                    "', which the saved experiment file does not have");
    req.run_id = slot.run_id;
    req.attempt = slot.attempts;
    req.run_dir = c.results() / "runs" / slot.run_id / ("attempt-" + std::to_string(slot.attempts));
    req.units = c.host.units();
    req.log = &c.log;
    req.deployment = {booted.ref.stateroot, booted.ref.checksum, booted.ref.serial,
                      booted.image.empty() ? booted.refspec : booted.image, booted.version, booted.layering};
    SystemdBootTimes boot_times;
    if (!c.host.emulated()) // a sandbox's "boot" has no systemd of its own
        req.boot_times = &boot_times;
    core::RunResult r;
    std::string why = kernel_mismatch(c, *req.target);
    if (why.empty())
        why = digest_mismatch(c, slot.target, booted);
    if (!why.empty()) {
        r.status = core::RunStatus::failed;
        r.failure = why;
        r.deployment = req.deployment;
        r.started_at = r.finished_at = c.clock.now_iso8601();
    } else {
        r = run_suite(req, c.clock);
    }
    return identified(c, booted, labelled(c, slot, std::move(r)));
}

// A result stored before a crash that came before the state advanced: the
// run is finished, and measuring it again would replace a finished result.
std::optional<core::RunResult> stored_result(Context& c, const core::RunSlot& slot) {
    fs::path file = result_file(c, slot.run_id);
    if (!fs::exists(file))
        return std::nullopt;
    try {
        return read_result_file(file);
    } catch (const std::exception& e) {
        c.log.line("ignoring unreadable " + file.string() + " (" + e.what() + "); measuring again");
        return std::nullopt;
    }
}

BootOutcome complete_with(Context& c, const core::DeploymentInfo& booted, const core::RunResult& r,
                          double seconds) {
    bool ok = r.status != core::RunStatus::failed;
    fs::path logs = c.results() / "runs" / r.run_id;
    if (ok)
        c.notify.run_measured(c.state, c.state.current, r, logs);
    else
        c.notify.run_failed(c.state, c.state.current, r.failure, logs);
    c.log.detail("run " + r.run_id + ": " + core::to_string(r.status) + (ok ? "" : " (" + r.failure + ")") +
               ", " + core::count_of(static_cast<long long>(r.metrics.size()), "metric"));
    c.log.line(core::run_done_line(c.state, r, core::pace_seconds(c.state, c.experiment, c.host.emulated())));
    c.state = core::complete_run(c.state, ok ? core::SlotStatus::done : core::SlotStatus::failed,
                                 r.failure, seconds);
    c.save();
    crash_point("state-advanced");
    return next_step(c, booted);
}

// "run 3/8 (a), about 5 min left", from the pace of the runs so far.
std::string progress(const Context& c) {
    return core::progress_line(c.state, core::pace_seconds(c.state, c.experiment, c.host.emulated()));
}

BootOutcome run_current(Context& c, const core::DeploymentInfo& booted) {
    if (auto stored = stored_result(c, *c.state.current_run())) {
        c.log.line("run " + stored->run_id + " was stored before an interruption; not measuring it again");
        return complete_with(c, booted, *stored, 0);
    }
    if (core::attempts_exhausted(c.state)) {
        const core::RunSlot& slot = *c.state.current_run();
        std::string why = "interrupted " + std::to_string(slot.attempts) +
                          " times (crash or power loss during the run); given up";
        c.log.line("run " + slot.run_id + ": " + why);
        store_failed_run(c, slot, why);
        c.state = core::give_up_run(c.state, why);
        c.save();
        return next_step(c, booted);
    }
    c.state = core::begin_attempt(c.state);
    c.save();
    c.log.detail(progress(c));
    crash_point("attempt-started");
    double t0 = c.clock.monotonic_s();
    core::RunResult r = measure(c, booted);
    crash_point("suite-done");
    store_result(c, r);
    crash_point("result-stored");
    return complete_with(c, booted, r, c.clock.monotonic_s() - t0);
}

// The deployment `start` runs on, so the first run's boot knows whether it
// follows a switch. Off the running machine, or with nothing booted, it
// stays unknown and that boot is not marked either way.
void note_start_boot(Host& host, core::State& s) {
    if (host.offline())
        return;
    try {
        s = core::note_boot(s, host.booted().ref);
    } catch (const Error&) {
    }
}

// The default to restore at the end: the one before the first staging, which
// must still be there, or the default now.
core::DeploymentRef original_default(Sysroot& sr, const std::optional<core::StagingPins>& staging) {
    if (!staging)
        return sr.default_deployment().ref;
    for (const auto& d : sr.deployments())
        if (d.ref == staging->original_default)
            return d.ref;
    throw input_error("the default deployment this machine had before bootbench staged targets, " +
                      core::describe(staging->original_default) + ", is gone; bootbench will not end the "
                      "experiment on another one. Check 'ostree admin status', then run 'bootbench abort' "
                      "to remove the staging's pins and start again");
}

// Each target's deployment and whether the user had pinned it; a target
// with kernel arguments gets a deployment of its own, made here.
std::vector<core::TargetState> target_states(Sysroot& sr, const core::Experiment& e,
                                             const std::map<std::string, core::DeploymentRef>& targets,
                                             const std::vector<core::DeploymentInfo>& deployments,
                                             const std::optional<core::StagingPins>& staging) {
    std::vector<core::TargetState> ts;
    for (const auto& t : e.targets) {
        const core::DeploymentRef& ref = targets.at(t.name);
        bool pinned = false;
        for (const auto& d : deployments)
            pinned = pinned || (d.ref == ref && core::pinned_by_user(d, staging ? &*staging : nullptr));
        if (t.kargs.empty())
            ts.push_back({t.name, ref, pinned, false});
        else
            ts.push_back({t.name, sr.deploy_with_kargs(ref, t.kargs, t.name), false, true});
    }
    return ts;
}

} // namespace

void start_experiment(Host& host, const core::Experiment& e, const std::string& experiment_text,
                      const std::map<std::string, core::DeploymentRef>& targets, Clock& clock,
                      const StartOptions& options) {
    StatePaths paths{host.state_dir()};
    ExperimentLock lock(paths.lock(), "start of experiment " + e.name);
    if (auto old = load_state_if_present(paths.state());
        old && old->phase != core::Phase::finished && old->phase != core::Phase::aborted)
        throw Error("experiment '" + old->experiment + "' is already running here (" +
                    core::to_string(old->phase) + ", run " + std::to_string(old->current + 1) + " of " +
                    std::to_string(old->runs.size()) +
                    "); see it with 'bootbench status', stop it with 'bootbench abort'");
    Sysroot& sr = host.sysroot();
    if (sr.has_staged() && options.staged == StagedPolicy::refuse)
        throw Error("a staged update is waiting; starting would drop it. Reboot into it first, or "
                    "start with --drop-staged");
    // First of the changes: a binary systemd may not run refuses the start
    // with only bootbench's own copy written.
    install_binary(paths.binary(), options.binary);
    host.label_executable(paths.binary());
    auto staging = staging_pins_for(paths, e.name);
    auto deployments = sr.deployments();
    core::DeploymentRef original = original_default(sr, staging);
    std::string now = clock.now_iso8601();
    move_results_aside(paths.results(e.name), now); // an earlier experiment's results are kept beside
    bool bisect = !options.bisect.is_null(); // its builds are deployed when its search asks for them
    core::State s = core::initial_state(e, bisect ? std::vector<core::PlannedRun>{} : core::initial_plan(e),
                                        bisect ? std::vector<core::TargetState>{}
                                               : target_states(sr, e, targets, deployments, staging),
                                        original, now);
    note_start_boot(host, s);
    s.images = options.images;
    s.bisect = options.bisect;
    s.pinned_by_bootbench =
        core::with_pins(staging.value_or(core::StagingPins{}), {original}, deployments).pinned;
    fs::path results = paths.results(e.name);
    make_dirs(results);
    write_file_atomic(paths.experiment(), experiment_text);
    write_file_atomic(results / "experiment.toml", experiment_text);
    record_arms(sr, s.targets, results); // the report's "what differs between the arms"
    save_state(paths.initial_state(), s);
    save_state(paths.state(), s);
    fs::remove(paths.staging()); // the state holds its pins now
    crash_point("start-state-written");
    if (bisect) { // good's and bad's first runs: abort removes what this deploys
        core::BisectRun run = bisect_of(s); // before s is moved from: argument order is the compiler's
        s = queue_bisect_builds(host, std::move(s), run, unit_spec(e, bisect));
        s.phase = core::Phase::starting;
        save_state(paths.state(), s);
    }
    UnitSpec unit = unit_spec(e, bisect);
    for (const auto& d : all_deployments(host))
        host.label(d, install_unit(host.etc_dir(d), unit.timeout_s, unit.container_tools));
    for (const auto& t : s.targets)
        sr.set_pinned(t.deployment, true);
    for (const auto& ref : s.pinned_by_bootbench)
        sr.set_pinned(ref, true);
    s.phase = core::Phase::running;
    save_state(paths.state(), s);
    RunLog log(results / "bootbench.log", clock, echo_for(host.emulated()));
    log.line("started experiment " + e.name + ": " + std::to_string(s.runs.size()) + " runs on " +
             host.describe());
    NotifyBounds interactive;
    interactive.total_s = 20; // start is run by a person waiting at the terminal
    Context c{host, clock, paths, s, e, log, ExperimentNotifier(e, clock, interactive), std::nullopt, ""};
    c.notify.started(s);
    if (!options.reboot) {
        sr.set_default(s.expected, options.staged);
        c.state = core::mark_default_set(c.state);
        c.save();
        log.line("prepared; " + core::describe(s.expected) + " boots next: reboot to begin");
        return;
    }
    switch_and_reboot(c);
}

BootOutcome resume_experiment(Host& host, Clock& clock) {
    StatePaths paths{host.state_dir()};
    ExperimentLock lock(paths.lock(), "resume after boot");
    auto state = load_state_if_present(paths.state());
    if (!state)
        return BootOutcome::idle;
    core::DeploymentInfo booted = host.booted();
    core::BootDecision d = core::decide_on_boot(*state, booted.ref);
    if (d.action == core::BootAction::nothing) {
        if (state->phase == core::Phase::finished || state->phase == core::Phase::aborted)
            remove_units(host); // left by a crash between the end and the cleanup
        return BootOutcome::idle;
    }
    std::string problem; // held from here to the reboot request, released on every way out
    Inhibition awake = host.sleep_inhibitor().take(kAwakeWhy, problem);
    host.sysroot().set_lock_wait({&clock, kSysrootLockWaitS}); // the unit has a time limit
    Context c = open_context(host, clock, std::move(*state));
    c.awake = describe_inhibition(awake, problem);
    c.log.detail("sleep inhibitor: " + c.awake);
    c.after_switch = core::first_boot_after_switch(c.state, booted.ref);
    c.state = core::note_boot(c.state, booted.ref);
    c.save();
    c.log.detail("boot into " + core::describe(booted.ref) + ": " + d.message);
    switch (d.action) {
    case core::BootAction::set_default_again:
        return switch_and_reboot(c);
    case core::BootAction::wrong_boot: {
        size_t run = c.state.current;
        c.state = core::record_wrong_boot(c.state, booted.ref);
        c.save();
        if (c.state.current == run) // attempts left: make the expected one default again
            return switch_and_reboot(c);
        store_failed_run(c, c.state.runs[run], c.state.runs[run].failure);
        return next_step(c, booted);
    }
    case core::BootAction::finish:
        return next_step(c, booted); // an adaptive round may be due first
    case core::BootAction::run_suite:
        return run_current(c, booted);
    case core::BootAction::nothing:
        break;
    }
    return BootOutcome::idle;
}

void abort_experiment(Host& host, Clock& clock) {
    StatePaths paths{host.state_dir()};
    ExperimentLock lock(paths.lock(), "abort");
    std::optional<core::State> state;
    try {
        state = load_state_if_present(paths.state());
    } catch (const std::exception& e) {
        say(e.what());
        say("falling back to " + paths.initial_state().string());
        state = load_state(paths.initial_state());
    }
    if (!state) {
        if (auto staging = load_staging_pins(paths.staging()))
            return undo_staging(host, paths, *staging, std::cout);
        throw Error("no experiment to abort: there is no state in " + paths.dir.string());
    }
    // Everything that can refuse comes before the state says "finishing".
    std::optional<core::DeploymentRef> booted;
    if (!host.offline())
        booted = host.booted().ref;
    all_deployments(host);
    Context c = open_context(host, clock, core::abort_experiment(*state, "aborted by the user"));
    c.save();
    if (!restore_machine(c, booted)) {
        c.log.line("booted into a deployment made for kernel arguments: it is removed after the next boot");
        return;
    }
    conclude(c);
    c.log.line("aborted; " + core::describe(c.state.original_default) +
               " boots next; results kept in " + c.results().string());
}

} // namespace bootbench::sys
