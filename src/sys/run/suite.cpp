#include "sys/run/suite.hpp"

#include "sys/store/run_log.hpp"

#include "core/bench/energy.hpp"
#include "core/base/error.hpp"
#include "core/bench/host_metrics.hpp"
#include "core/bench/iterations.hpp"
#include "core/bench/parsers.hpp"
#include "core/base/text.hpp"
#include "sys/run/background_load.hpp"
#include "sys/run/bench_command.hpp"
#include "sys/probe/boot_times.hpp"
#include "sys/run/canary_watch.hpp"
#include "sys/clock.hpp"
#include "sys/probe/conditions_gate.hpp"
#include "sys/run/cpu_freq.hpp"
#include "sys/run/perf_counters.hpp"
#include "sys/store/files.hpp"
#include "sys/probe/live_values.hpp"
#include "sys/probe/probes.hpp"
#include "sys/probe/rapl.hpp"
#include "sys/run/raw_output.hpp"
#include "sys/probe/sensors.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/probe/system_probe.hpp"
#include "sys/run/tools_image.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <unistd.h>

namespace bootbench::sys {

namespace {

// How long a boot may take to finish (systemd's FinishTimestampMonotonic)
// after the unit started; a slow TCG guest needs about a minute.
constexpr double kBootWaitS = 300;

int online_cpus() {
    long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : 1;
}

// The raw file capped on disk, then read back: never more than its cap in memory.
std::string bounded_output(const fs::path& path, RunLog* log) {
    std::string problem = cap_raw_output(path);
    if (!problem.empty())
        tell(log, Weight::matters, problem);
    return read_raw_output(path);
}

using BenchRun = core::BenchIteration;

// Why a finished process did not give a usable result, or "" when it did.
std::string process_failure(const ProcessOutcome& o, const core::Bench& b,
                            const std::string& err_text) {
    switch (o.end) {
    case ProcessEnd::timed_out:
        return "timed out after " + std::to_string(static_cast<long>(bench_timeout_s(b))) +
               " s (raise its timeout_s if it needs longer); " +
               (o.containment.empty() ? "its processes were killed"
                                      : "its process group was killed; " + o.containment);
    case ProcessEnd::signaled:
        return describe(o);
    case ProcessEnd::exited:
        if (o.exit_status == 0)
            return "";
        std::string tail = core::cap_text(core::last_line(err_text), core::kMaxFailureText,
                                          "stderr's last line");
        return describe(o) + (tail.empty() ? "" : ": " + core::printable(tail));
    }
    return "";
}

// A bench whose tool is missing, on the host or in the tools image: skipped
// when the tool is optional (schbench), failed otherwise, with `why`.
BenchRun tool_missing(const core::Bench& b, BenchRun run, const std::string& why, const std::string& hint,
                      RunLog* log) {
    bool optional = tool_for(b.kind) && tool_for(b.kind)->optional;
    run.record.status = optional ? core::BenchStatus::skipped : core::BenchStatus::failed;
    run.record.reason = optional ? "skipped: " + why : why;
    tell(log, Weight::matters, "bench " + b.name + ": " + run.record.reason);
    run.metrics =
        core::collect_metrics(b, "", (optional ? "was skipped: " : "could not run: ") + why, hint);
    return run;
}

BenchRun missing_tool(const core::Bench& b, BenchRun run, const std::string& hint, RunLog* log) {
    auto tool = tool_for(b.kind);
    std::string program = run.record.argv.empty() ? "" : run.record.argv[0];
    std::string why = tool ? not_installed_message(*tool)
                           : "program '" + program + "' not found: check argv in [[bench]] '" +
                                 b.name + "' and PATH";
    return tool_missing(b, std::move(run), why, hint, log);
}

BenchRun not_started(const core::Bench& b, BenchRun run, const std::string& why, RunLog* log) {
    run.record.status = core::BenchStatus::failed;
    run.record.reason = why;
    tell(log, Weight::matters, "bench " + b.name + ": " + why);
    run.metrics = core::collect_metrics(b, "", "could not start: " + why, "");
    return run;
}

// Where a suite's benches run: the run's folder and, with [tools] image, the container.
struct BenchPlace {
    fs::path run_dir;
    int nproc = 1;
    const InterruptWatch* watch = nullptr;
    std::optional<core::ToolsImage> tools;
    std::string run_id;
    const RaplMeter* rapl = nullptr; // null: no energy counters
    fs::path probe_root = "/";         // where cpufreq is sampled
    RunLog* log = nullptr;             // SuiteRequest::log
};

// A bench's tool missing from the tools image: podman's "executable file not
// found" (exit 127). Treated as a missing tool, named with the image.
bool missing_in_image(const BenchPlace& at, const ProcessOutcome& o, const std::string& err) {
    return at.tools && o.end == ProcessEnd::exited && o.exit_status == 127 &&
           err.find("not found") != std::string::npos;
}

BenchRun tool_not_in_image(const core::Bench& b, BenchRun run, const BenchPlace& at,
                           const std::vector<std::string>& inner, const std::string& hint) {
    return tool_missing(b, std::move(run),
                        inner[0] + " is not in the tools image " + at.tools->image +
                            ": add it to the image (containers/bench-tools/Containerfile has every bench's tool)",
                        hint, at.log);
}

// A container whose podman client was killed (timeout, interruption) may live on.
void remove_leftover_container(const BenchPlace& at, const ProcessOutcome& o, const std::string& name) {
    if (!at.tools || o.end == ProcessEnd::exited)
        return;
    std::string problem = remove_container(name);
    tell(at.log, Weight::matters, problem.empty() ? "container " + name + " stopped and removed" : problem);
}

// The bench's package energy and power, when it gave metrics and RAPL is there.
void add_energy(BenchRun& run, const BenchPlace& at, const core::RaplSnapshot& before) {
    if (!at.rapl || run.metrics.metrics.empty())
        return;
    core::BenchMetrics e =
        core::energy_metrics(run.record.name, before, at.rapl->read(), run.record.wall_s);
    run.metrics.metrics.insert(run.metrics.metrics.end(), e.metrics.begin(), e.metrics.end());
    run.metrics.missing.insert(run.metrics.missing.end(), e.missing.begin(), e.missing.end());
}

// Whether a bench's iterations run under perf stat (`counters`), or why not.
struct Counting {
    bool asked = false;
    std::string refused; // "counters unavailable: ..." (sys/run/perf_counters)

    bool on() const { return asked && refused.empty(); }
    // What an iteration recorded: perf's file read back, or why there is none.
    std::optional<core::BenchCounters> result(const core::Bench& b, const fs::path& counts) const {
        if (!asked)
            return std::nullopt;
        return on() ? read_counters(counts, b.name, b.counters) : core::BenchCounters{b.name, {}, {}, refused};
    }
};

// Checked once per bench and run, where the bench runs; said in the log when refused.
Counting counting_for(const core::Bench& b, const BenchPlace& at) {
    if (b.counters.empty())
        return {};
    CountingPlace place{at.tools ? &*at.tools : nullptr, core::container_name(at.run_id, b.name + ".perf-check"),
                        at.probe_root};
    Counting c{true, counting_refused(b.counters, place)};
    if (!c.refused.empty())
        tell(at.log, Weight::matters, "bench " + b.name + ": " + c.refused);
    return c;
}

// `argv` (perf stat and the bench) where the bench runs: in the tools image
// with the run's folder shared for perf's file.
std::vector<std::string> counted(const BenchPlace& at, const std::string& name, const std::vector<std::string>& argv) {
    return at.tools ? core::container_argv(*at.tools, name, argv, at.run_dir.string()) : argv;
}

// One iteration; its logs and container are named `stem` (core::iteration_stem).
BenchRun run_bench(const core::Bench& b, const BenchPlace& at, const std::string& stem, const Counting& counting) {
    BenchRun run;
    run.record.name = b.name;
    run.record.kind = b.kind;
    std::vector<std::string> inner = bench_argv(b, at.nproc);
    std::string name = core::container_name(at.run_id, stem);
    run.record.argv = at.tools && !inner.empty() ? core::container_argv(*at.tools, name, inner) : inner;
    run.record.log = stem;
    std::string hint = (at.run_dir / (stem + ".stdout")).string();
    if (run.record.argv.empty() || !find_program(run.record.argv[0]))
        return missing_tool(b, std::move(run), hint, at.log);
    fs::path counts = at.run_dir / (stem + ".perf-stat.csv");
    if (counting.on())
        run.record.argv = counted(at, name, counted_argv(b.counters, counts, inner));
    ProcessSpec spec{run.record.argv, hint, at.run_dir / (stem + ".stderr"), bench_timeout_s(b)};
    tell(at.log, Weight::detail, "bench " + b.name + ": running " + core::join(run.record.argv, " "));
    std::optional<ProcessGroup> group;
    core::RaplSnapshot energy_before = at.rapl ? at.rapl->read() : core::RaplSnapshot{};
    FreqSampler freq(at.probe_root);
    try {
        group.emplace(ProcessGroup::spawn(spec));
    } catch (const Error& e) {
        return not_started(b, std::move(run), e.what(), at.log);
    }
    ProcessOutcome o = finish_process(*group, spec, at.watch);
    run.freq_mhz = freq.stop();
    remove_leftover_container(at, o, name);
    run.record.wall_s = o.wall_s;
    if (o.end == ProcessEnd::exited)
        run.record.exit_status = o.exit_status;
    std::string out = bounded_output(spec.stdout_path, at.log);
    std::string err = bounded_output(spec.stderr_path, at.log);
    if (missing_in_image(at, o, err))
        return tool_not_in_image(b, std::move(run), at, inner, hint);
    std::string failure = process_failure(o, b, err);
    run.metrics = core::collect_metrics(b, out + "\n" + err, failure, hint);
    run.counters = counting.result(b, counts);
    if (!failure.empty()) {
        run.record.status =
            o.end == ProcessEnd::timed_out ? core::BenchStatus::timeout : core::BenchStatus::failed;
        run.record.reason = failure;
    } else if (run.metrics.metrics.empty()) {
        run.record.status = core::BenchStatus::failed;
        run.record.reason = "its output has none of the expected metrics (see " + hint + ")";
    }
    add_energy(run, at, energy_before);
    tell(at.log, run.record.reason.empty() ? Weight::detail : Weight::matters,
         "bench " + stem + ": " + (run.record.reason.empty() ? "ok" : run.record.reason) +
             " (" + core::count_of(static_cast<long long>(run.metrics.metrics.size()), "metric") + ", " +
             std::to_string(o.wall_s) + " s)");
    return run;
}

// The bench `repeat` times in this boot, folded (core::fold_iterations); it
// stops at the first iteration that does not end ok: a bench that failed
// once would most likely fail again and spend the night.
BenchRun run_iterations(const core::Bench& b, const BenchPlace& at) {
    Counting counting = counting_for(b, at);
    std::vector<BenchRun> done;
    for (int i = 1; i <= b.repeat; ++i) {
        if (i > 1 && at.watch)
            at.watch->throw_if_interrupted("starting bench " + b.name + " iteration " + std::to_string(i));
        done.push_back(run_bench(b, at, core::iteration_stem(b.name, i), counting));
        if (done.back().record.status != core::BenchStatus::ok)
            break;
    }
    return core::fold_iterations(std::move(done), b.repeat);
}

void add_metrics(core::RunResult& r, const core::BenchMetrics& m) {
    r.metrics.insert(r.metrics.end(), m.metrics.begin(), m.metrics.end());
    r.missing.insert(r.missing.end(), m.missing.begin(), m.missing.end());
}

void add(core::RunResult& r, BenchRun run) {
    if (run.freq_mhz) // absent where there is no cpufreq
        r.environment.cpu_freq_mhz.set()[run.record.name] = *run.freq_mhz;
    if (run.counters)
        r.counters.push_back(std::move(*run.counters));
    r.benches.push_back(std::move(run.record));
    add_metrics(r, run.metrics);
}

// The system's own figures (memory, processes) are no result without a bench's.
bool has_bench_metric(const core::RunResult& r) {
    return std::any_of(r.metrics.begin(), r.metrics.end(),
                       [](const core::Metric& m) {
                           return m.bench != core::kSystemBench && m.bench != core::kBootBench;
                       });
}

// Every bench recorded as not run, its metrics missing with `why`.
void skip_all(core::RunResult& r, const std::vector<core::Bench>& benches, const std::string& why,
              int nproc) {
    for (const auto& b : benches) {
        BenchRun run;
        run.record = {b.name,
                      b.kind,
                      bench_argv(b, nproc),
                      std::nullopt,
                      0,
                      core::BenchStatus::skipped,
                      "not run: " + why,
                      "",
                      1};
        run.metrics = core::collect_metrics(b, "", "was not run: " + why, "");
        add(r, std::move(run));
    }
}

// A bench that failed in a later iteration keeps the values of the ones
// before (core::fold_iterations): no metric is missing, but the run is partial.
bool stopped_early(const core::RunResult& r) {
    return std::any_of(r.benches.begin(), r.benches.end(), [](const core::BenchRecord& b) {
        return b.status == core::BenchStatus::failed || b.status == core::BenchStatus::timeout;
    });
}

void set_status(core::RunResult& r) {
    if (!r.failure.empty()) {
        r.status = core::RunStatus::failed;
    } else if (!has_bench_metric(r)) {
        r.status = core::RunStatus::failed;
        std::string why;
        for (const auto& b : r.benches)
            if (!b.reason.empty())
                why += (why.empty() ? "" : "; ") + b.name + ": " + b.reason;
        r.failure = "no metric was collected" +
                    (why.empty() ? std::string(" (the suite has no benches)") : ": " + why);
    } else {
        r.status = r.missing.empty() && !stopped_early(r) ? core::RunStatus::ok : core::RunStatus::partial;
    }
}

core::RunResult start_result(const SuiteRequest& req, Clock& clock) {
    if (!req.experiment || !req.target)
        throw Error("run_suite needs an experiment and a target");
    make_dirs(req.run_dir);
    core::RunResult r;
    r.experiment = req.experiment->name;
    r.run_id = req.run_id;
    r.target = req.target->name;
    r.attempt = req.attempt;
    r.deployment = req.deployment;
    r.started_at = clock.now_iso8601();
    return r;
}

// The benches under the background load; the load lives exactly as long as they do.
// The tools image as this boot's store has it, recorded in the environment;
// nullopt for the host's tools. Throws when it cannot be used.
std::optional<core::ToolsImage> tools_of(const core::Experiment& e, core::RunResult& r, RunLog* log) {
    if (e.tools_image.empty()) {
        r.environment.tools_image = "host";
        return std::nullopt;
    }
    core::ToolsImage t = resolve_tools_image(e.tools_image);
    r.environment.tools_image = core::describe(t);
    tell(log, Weight::detail, "tools: " + core::describe(t));
    return t;
}

// The suite could not start (tools image, load): every bench recorded as not run.
void cannot_start(const core::Experiment& e, core::RunResult& r, core::ConditionCheck what, const std::string& why) {
    r.conditions.push_back(core::ConditionRecord{what, core::to_string(what), "not started", core::ConditionDecision::fail, why});
    r.failure = why;
    skip_all(r, e.benches, why, online_cpus());
}

// The benches under the background load; the load lives exactly as long as they do.
void run_benches(const SuiteRequest& req, core::RunResult& r, const InterruptWatch& watch,
                 const RaplMeter* rapl) {
    const core::Experiment& e = *req.experiment;
    BenchPlace at{req.run_dir, online_cpus(), &watch, std::nullopt, req.run_id, rapl, req.probe_root, req.log};
    double limit_s = 60;
    for (const auto& b : e.benches)
        limit_s += bench_timeout_s(b) * b.repeat;
    std::optional<BackgroundLoad> load;
    try {
        at.tools = tools_of(e, r, req.log);
        load.emplace(e.load, at.nproc, limit_s, req.run_dir, at.tools ? &*at.tools : nullptr,
                     core::container_name(req.run_id, "load"));
    } catch (const Error& err) {
        return cannot_start(e, r, at.tools || e.tools_image.empty() ? core::ConditionCheck::load : core::ConditionCheck::tools,
                            err.what());
    }
    if (load->active()) {
        core::ConditionRecord rec{core::ConditionCheck::load, load->command(), "running", core::ConditionDecision::run,
                                  "for the length of the suite"};
        tell(req.log, Weight::detail, "conditions: " + core::log_line(rec));
        r.conditions.push_back(rec);
    }
    for (const auto& bench : e.benches) {
        watch.throw_if_interrupted("starting bench " + bench.name);
        add(r, run_iterations(bench, at));
    }
    std::string load_problem = load->stop();
    if (!load_problem.empty()) {
        tell(req.log, Weight::matters, load_problem);
        r.failure = load_problem;
    }
}

// CLOCK_BOOTTIME minus CLOCK_MONOTONIC: it grows only while the machine sleeps.
double sleep_offset_s(Clock& clock) { return clock.since_boot_s() - clock.monotonic_s(); }

// After the settle time: the system's figures, then the benches with their
// energy where RAPL is there, watched for noise canaries (among them a
// suspend, and the update services the gate found running).
void run_measured(const SuiteRequest& req, core::RunResult& r, const InterruptWatch& watch, Clock& clock,
                  const std::vector<std::string>& updates_running) {
    add_metrics(r, probe_system_metrics(req.probe_root));
    r.environment.benches_start_monotonic_us = static_cast<long long>(clock.monotonic_s() * 1e6);
    RaplMeter rapl(req.probe_root);
    r.environment.energy = rapl.describe();
    CanaryWatch canaries(req.probe_root);
    double asleep_before = sleep_offset_s(clock);
    run_benches(req, r, watch, rapl.available() ? &rapl : nullptr);
    r.canaries = canaries.finish();
    r.canaries->suspended_s = core::suspended_between(asleep_before, sleep_offset_s(clock));
    r.canaries->updates_running = updates_running;
    if (std::string text = core::canary_text(*r.canaries); !text.empty())
        tell(req.log, Weight::matters, "canaries: " + text);
}

// Before the settle time: the boot must be over before anything is measured.
BootMeasurement boot_of(const SuiteRequest& req, Clock& clock, const InterruptWatch& watch) {
    BootMeasurement out;
    if (!req.experiment->boot.measure)
        out.described = "not measured: [boot] measure = false";
    else if (!req.boot_times)
        out.described = "not measured: no boot of its own (a sandbox or a test)";
    else
        out = measure_boot(*req.boot_times, clock, kBootWaitS, &watch);
    tell(req.log, Weight::detail, "boot times: " + out.described);
    return out;
}

void record_boot(core::RunResult& r, const BootMeasurement& boot) {
    r.environment.boot_times = boot.described;
    if (boot.finish_monotonic_us)
        r.environment.boot_finish_monotonic_us = static_cast<long long>(boot.finish_monotonic_us);
    add_metrics(r, boot.metrics);
}

// "conditions: met: settle (booted 1600 s ago), governor (no cpufreq), ...":
// the conditions that only said "run", in one line (the others were said
// as they were decided: sys/probe/conditions_gate).
std::string met_line(const GateOutcome& out) {
    std::string met;
    for (const auto& r : out.records)
        if (r.decision == core::ConditionDecision::run)
            met += (met.empty() ? "" : ", ") + std::string(core::to_string(r.check)) + " (" + r.found + (r.detail.empty() ? "" : "; " + r.detail) +
                   ")";
    return met.empty() ? "" : "conditions: met: " + met;
}

void record_temperature(core::RunResult& r, core::Recorded<double>& field, const std::optional<TempReading>& t) {
    field = t ? std::optional<double>(t->celsius) : std::nullopt;
    if (t)
        r.environment.temp_sensor = t->sensor;
}

} // namespace

core::RunResult run_suite(const SuiteRequest& request, Clock& clock) {
    InterruptWatch watch; // first: destroyed last, after every child is gone
    core::RunResult r = start_result(request, clock);
    BootMeasurement boot = boot_of(request, clock, watch);
    SysfsSensors sysfs(request.probe_root);
    Sensors& sensors = request.sensors ? *request.sensors : sysfs;
    GateOutcome gate =
        pass_gate(request.experiment->conditions, request.probe_root, sensors, clock, &watch, request.units);
    for (const auto& rec : gate.records)
        r.conditions.push_back(rec);
    if (std::string met = met_line(gate); !met.empty())
        tell(request.log, Weight::detail, met);
    r.environment = probe_environment(request.probe_root);
    r.environment.live = probe_live(request.probe_root);
    record_boot(r, boot);
    record_temperature(r, r.environment.temp_start_c,
                       gate.start_temp ? gate.start_temp : sensors.cpu_temperature());
    if (gate.failure.empty()) {
        run_measured(request, r, watch, clock, gate.updates_running);
    } else {
        r.failure = gate.failure;
        skip_all(r, request.experiment->benches, gate.failure, online_cpus());
    }
    record_temperature(r, r.environment.temp_end_c, sensors.cpu_temperature());
    gate.governor.reset(); // restore the governor before the run is declared finished
    r.finished_at = clock.now_iso8601();
    set_status(r);
    return core::with_valid_text(std::move(r));
}

} // namespace bootbench::sys
