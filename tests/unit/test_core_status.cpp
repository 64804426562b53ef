#include "catch.hpp"
#include "core/state/estimate.hpp"
#include "core/report/status.hpp"

using namespace bootbench::core;

namespace {

StatusInput sample() {
    Experiment e;
    e.name = "kern";
    e.runs = 2;
    for (const char* n : {"a", "b"}) {
        Target t;
        t.name = n;
        e.targets.push_back(t);
    }
    State s = initial_state(e, plan_runs(e), {{"a", {"os", "aa", 0}, false, false}, {"b", {"os", "bb", 0}, false, false}},
                            {"os", "cc", 0}, "2026-11-30T01:00:00+00:00");
    s.phase = Phase::running;
    s = complete_run(begin_attempt(s), SlotStatus::done, "", 100);
    s = complete_run(begin_attempt(s), SlotStatus::failed, "no metric collected", 100);
    RunResult r;
    r.run_id = "a-1";
    r.metrics.push_back({"sched_pipe_usecs_op", 4.45, "us/op", Better::lower, "perf-sched-pipe"});
    return {s, r, "/var/lib/bootbench/results/kern", 600};
}

} // namespace

TEST_CASE("status says what is next, what failed, and when it ends", "[status]") {
    std::string text = status_text(sample());
    CHECK(text.find("runs: 1 done, 1 failed, of 4") != std::string::npos);
    CHECK(text.find("next: run 3 of 4, a-2 (target a, 0 attempts so far) on os/aa.0") != std::string::npos);
    CHECK(text.find("estimated time left: 10 min 00 s") != std::string::npos); // 600 s / 2 ended x 2 left
    StatusInput with_clock = sample();
    with_clock.clock_after = [](double s, ClockFormat f) {
        return (f == ClockFormat::iso8601 ? "iso in " : "in ") + std::to_string(static_cast<int>(s)) + " s";
    };
    CHECK(status_text(with_clock).find("estimated time left: 10 min 00 s, finishing about in 600 s") !=
          std::string::npos);
    CHECK(status_json(with_clock)["estimated_finish"] == "iso in 600 s");
    CHECK(text.find("failed: b-1: no metric collected") != std::string::npos);
    CHECK(text.find("sched_pipe_usecs_op = 4.45 us/op") != std::string::npos);
    CHECK(text.find("report: /var/lib/bootbench/results/kern/report.md") != std::string::npos);
}

TEST_CASE("one attempt is singular", "[status]") {
    StatusInput in = sample();
    in.state = begin_attempt(in.state);
    CHECK(status_text(in).find("(target a, 1 attempt so far)") != std::string::npos);
}

TEST_CASE("status --json has the same facts for scripts", "[status]") {
    auto j = status_json(sample());
    CHECK(j["runs_done"] == 1);
    CHECK(j["runs_failed"] == 1);
    CHECK(j["current"]["run"] == "a-2");
    CHECK(j["remaining_s"] == 600.0);
    CHECK(j["last_result"]["metrics"]["sched_pipe_usecs_op"]["value"] == 4.45);
    CHECK(j["failures"][0]["reason"] == "no metric collected");
}

namespace {

// An adaptive experiment of a and b, min 5 and max 20 rounds, after its
// first run (10 min): the state holds its first round only.
StatusInput adaptive_sample() {
    StatusInput in = sample();
    State s = initial_state(Experiment{}, {{"a-1", "a", 1}, {"b-1", "b", 1}}, in.state.targets,
                            {"os", "cc", 0}, "2026-11-30T01:00:00+00:00");
    s.phase = Phase::running;
    in.state = complete_run(begin_attempt(s), SlotStatus::done, "", 100);
    in.rounds = RunBounds{10, 40};
    return in;
}

} // namespace

TEST_CASE("status of an adaptive experiment: its min and max, and the time to each", "[status][adaptive]") {
    StatusInput in = adaptive_sample();
    std::string text = status_text(in);
    CHECK(text.find("  runs: 1 done, 0 failed, of 2 so far (adaptive: at least 10, at most 40)\n") !=
          std::string::npos);
    // 600 s a run: 9 runs to the min, 39 to the max
    CHECK(text.find("  estimated time left: 1 h 30 min to the min (10 runs), 6 h 30 min to the max (40 runs)\n") !=
          std::string::npos);
    auto j = status_json(in);
    CHECK(j["runs_min"] == 10);
    CHECK(j["runs_max"] == 40);
    CHECK(j["remaining_s"] == 5400.0);
    CHECK(j["remaining_max_s"] == 23400.0);
    // past the min (6 rounds planned, 11 runs ended in 1100 s): the min is the round under way
    std::vector<PlannedRun> six;
    for (int round = 1; round <= 6; ++round)
        for (const char* t : {"a", "b"})
            six.push_back({std::string(t) + "-" + std::to_string(round), t, round});
    in.state = initial_state(Experiment{}, six, in.state.targets, {"os", "cc", 0}, "2026-11-30T01:00:00+00:00");
    in.state.phase = Phase::running;
    for (int i = 0; i < 11; ++i)
        in.state = complete_run(begin_attempt(in.state), SlotStatus::done, "", 100);
    in.elapsed_s = 1100;
    CHECK(status_text(in).find("  estimated time left: 1 min 40 s to the min (12 runs), 48 min 20 s to the max "
                               "(40 runs)\n") != std::string::npos);
}

TEST_CASE("an aborted experiment's report says why it is incomplete; a finished one is not", "[status]") {
    State s = sample().state; // a-1 done, b-1 failed, a-2 and b-2 left
    CHECK(incomplete_text(s).empty());
    CHECK(incomplete_text(abort_experiment(s, "aborted by the user")) == "aborted by the user after 1 of 4 runs");
    s.on_boot_failure = OnBootFailure::stop;
    State stopped = give_up_run(begin_attempt(s), "it did not boot");
    CHECK(incomplete_text(stopped) ==
          "stopped after run a-2 failed (on_boot_failure = \"stop\"): it did not boot; 1 of 4 runs done");
    for (int i = 0; i < 2; ++i)
        s = complete_run(begin_attempt(s), SlotStatus::done, "", 100);
    CHECK(incomplete_text(abort_experiment(s, "aborted by the user")).empty()); // every run ended
}

TEST_CASE("each run begins with where the experiment is and the time left", "[status]") {
    State s = sample().state; // a-1 done, b-1 failed, a-2 next
    CHECK(progress_line(s, 90) == "run 3/4 (a), about 3 min 00 s left");
    s = begin_attempt(s);
    CHECK(progress_line(s, 90) == "run 3/4 (a), about 3 min 00 s left"); // a second attempt: still 2 runs
    s = complete_run(s, SlotStatus::done, "", 100);
    CHECK(progress_line(begin_attempt(s), 90) == "run 4/4 (b), about 1 min 30 s left");
}

namespace {

RunResult partial_run(const std::string& id, const std::string& bench, BenchStatus st, const std::string& reason) {
    RunResult r;
    r.run_id = id;
    r.status = RunStatus::partial;
    BenchRecord ok;
    ok.name = "perf";
    BenchRecord b;
    b.name = bench;
    b.status = st;
    b.reason = reason;
    r.benches = {ok, b};
    r.missing.push_back({bench + "_x", "was skipped"});
    return r;
}

} // namespace

TEST_CASE("partial runs are counted with what made them partial", "[status]") {
    StatusInput in = sample();
    const char* why = "skipped: schbench is not installed: it is not packaged in Debian 12: build it from source";
    in.partial = {partial_run("a-1", "schbench", BenchStatus::skipped, why)};
    CHECK(status_text(in).find("runs: 1 done (1 partial: schbench skipped (schbench is not installed)), "
                               "1 failed, of 4") != std::string::npos);
    auto j = status_json(in);
    CHECK(j["runs_partial"] == 1);
    CHECK(j["partial_causes"] == "schbench skipped (schbench is not installed)");
}

TEST_CASE("causes that differ between partial runs say how many runs each hit", "[status]") {
    std::vector<RunResult> runs = {
        partial_run("a-1", "schbench", BenchStatus::skipped, "skipped: schbench is not installed: x"),
        partial_run("b-1", "schbench", BenchStatus::skipped, "skipped: schbench is not installed: x"),
        partial_run("a-2", "sysbench", BenchStatus::timeout, "timed out after 60 s (raise its timeout_s)")};
    CHECK(partial_causes(runs) ==
          "schbench skipped (schbench is not installed) in 2, sysbench timed out (timed out after 60 s "
          "(raise its timeout_s)) in 1");
    RunResult no_value;
    no_value.missing.push_back({"sched_pipe_usecs_op", "no line matched"});
    CHECK(partial_causes({no_value}) == "no value for sched_pipe_usecs_op");
    CHECK(partial_causes({}).empty());
}

TEST_CASE("the time per run: estimated before any run, then the pace measured so far", "[status]") {
    StatusInput in = sample(); // a-1 done in 100 s, b-1 failed, 2 runs left
    Experiment e;
    e.conditions.settle_s = 1;
    Bench pipe, threads;
    pipe.loops = 20000; // 0.5 s to start and end + 0.2 s of round trips
    threads.kind = BenchKind::sysbench_threads;
    threads.runtime_s = 4; // 0.5 + 4 s
    e.benches = {pipe, threads};
    CHECK(estimate_suite_seconds(e) == Approx(5.2));
    CHECK(estimate_run_seconds(e) == Approx(66.2));          // + a 60 s boot and the 1 s settle
    CHECK(estimate_simulated_run_seconds(e) == Approx(5.7)); // + the sandbox's 0.5 s boot, no settle
    Experiment repeated = e;
    repeated.benches[1].repeat = 3; // every iteration counted: 0.7 + 3 x 4.5 s
    CHECK(estimate_suite_seconds(repeated) == Approx(14.2));
    CHECK(estimate_bench_seconds(repeated.benches[1]) == Approx(4.5)); // one iteration
    State fresh = in.state;
    for (auto& r : fresh.runs)
        r.status = SlotStatus::pending;
    CHECK(pace_seconds(fresh, e, true) == Approx(5.7));
    CHECK(pace_seconds(fresh, e, false) == Approx(66.2));
    CHECK(pace_seconds(in.state, e, true) == Approx(100.5)); // the one measured run, not the failed one
    CHECK(pace_seconds(in.state, e, false) == Approx(160));
    in.state.runs[2].status = SlotStatus::done; // stored before an interruption: no time measured
    CHECK(pace_seconds(in.state, e, true) == Approx(100.5));
}

// A finished experiment whose host is still in a target reboots into the
// original default next: a script that fetches the results now loses them
// to that reboot (the Ansible wait reads reboot_pending).
TEST_CASE("a finished experiment still in a target says it reboots next", "[status]") {
    StatusInput in = sample(); // original default os/cc.0
    in.state = finish(in.state);
    in.booted = DeploymentRef{"os", "bb", 0};
    CHECK(status_json(in)["reboot_pending"] == true);
    CHECK(status_json(in)["booted"] == "os/bb.0");
    CHECK(status_text(in).find("  next: a reboot into the original default os/cc.0\n") != std::string::npos);
    in.booted = DeploymentRef{"os", "cc", 0};
    CHECK(status_json(in)["reboot_pending"] == false);
    CHECK(status_text(in).find("next: a reboot") == std::string::npos);
}

TEST_CASE("a running experiment, or an unknown booted deployment, has no reboot pending", "[status]") {
    StatusInput in = sample();
    in.booted = DeploymentRef{"os", "bb", 0};
    CHECK(status_json(in)["reboot_pending"] == false); // running: the unit reboots, not the end
    in.state = finish(in.state);
    in.booted.reset();
    CHECK(status_json(in)["reboot_pending"] == false);
    CHECK(status_json(in)["booted"] == nullptr);
}
