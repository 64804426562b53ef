#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/report/status.hpp"
#include "fake_tree.hpp"
#include "helpers.hpp"
#include "sys/run/suite.hpp"

#include <cstdlib>

using namespace bootbench;
using namespace bootbench::core;
using testing::TempDir;
using testing::experiment;
namespace fs = std::filesystem;

namespace {

Bench builtin(BenchKind kind) {
    Bench b;
    b.kind = kind;
    b.name = to_string(kind);
    b.loops = 2000;
    b.runtime_s = 1;
    return b;
}

Bench command(const std::string& name, std::vector<std::string> argv, int timeout_s,
              const std::string& regex = "value=([0-9.]+)") {
    Bench b;
    b.kind = BenchKind::command;
    b.name = name;
    b.argv = std::move(argv);
    b.timeout_s = timeout_s;
    MetricSpec m;
    m.key = name + "_value";
    m.regex = regex;
    m.unit = "x";
    b.metrics = {m};
    return b;
}

RunResult run(const Experiment& e, const TempDir& dir) {
    sys::SuiteRequest req;
    req.experiment = &e;
    req.target = &e.targets[0];
    req.run_id = "a-1";
    req.run_dir = dir.path() / "runs" / "a-1";
    req.deployment.checksum = "abc123";
    testing::FakeClock clock;
    return sys::run_suite(req, clock);
}

const MissingMetric* missing(const RunResult& r, const std::string& key) {
    for (const auto& m : r.missing)
        if (m.key == key)
            return &m;
    return nullptr;
}

// Sets PATH for one test and puts it back.
class PathOverride {
  public:
    explicit PathOverride(const std::string& value) : old_(std::getenv("PATH")) {
        ::setenv("PATH", value.c_str(), 1);
    }
    ~PathOverride() { ::setenv("PATH", old_.c_str(), 1); }

  private:
    std::string old_;
};

} // namespace

TEST_CASE("run_suite: perf sched pipe, perf sched messaging and sysbench threads, end to end") {
    TempDir dir;
    Bench messaging = builtin(BenchKind::perf_sched_messaging);
    messaging.groups = 1;
    messaging.loops = 10;
    auto e = experiment(
        {builtin(BenchKind::perf_sched_pipe), builtin(BenchKind::sysbench_threads), messaging});
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::ok);
    CHECK(r.failure.empty());
    CHECK(r.experiment == "exp");
    CHECK(r.run_id == "a-1");
    CHECK(r.target == "a");
    CHECK(r.deployment.checksum == "abc123");
    CHECK(r.metrics.size() == 6 + 3); // and this machine's mem_used_mib, mem_slab_mib, processes
    CHECK(r.missing.empty());
    CHECK(r.find("sched_messaging_total_s")->value > 0);
    REQUIRE(r.find("sched_pipe_usecs_op"));
    CHECK(r.find("sched_pipe_usecs_op")->value > 0);
    CHECK(r.find("sysbench_events")->value > 0);
    REQUIRE(r.benches.size() == 3);
    CHECK(r.benches[2].argv ==
          std::vector<std::string>{"perf", "bench", "sched", "messaging", "-g", "1", "-l", "10"});
    CHECK(r.benches[0].argv ==
          std::vector<std::string>{"perf", "bench", "sched", "pipe", "-l", "2000"});
    CHECK(r.benches[0].exit_status == 0);
    CHECK(r.benches[1].wall_s >= 1);
    CHECK(r.benches[1].log == "sysbench-threads");
    auto logs = dir.path() / "runs" / "a-1";
    CHECK(testing::read(logs / "perf-sched-pipe.stdout").find("usecs/op") != std::string::npos);
    CHECK(testing::read(logs / "sysbench-threads.stdout").find("total number of events") !=
          std::string::npos);
    CHECK(fs::exists(logs / "sysbench-threads.stderr"));
    // the result survives its JSON form
    CHECK(run_result_from_json(to_json(r), "x").metrics.size() == 6 + 3);
}

TEST_CASE("run_suite: perf bench futex hash, end to end with the real perf") {
    TempDir dir;
    Bench futex = builtin(BenchKind::perf_bench_futex); // runtime_s = 1
    futex.threads = 2;
    RunResult r = run(experiment({futex}), dir);
    CHECK(r.status == RunStatus::ok);
    CHECK(r.missing.empty());
    REQUIRE(r.find("futex_hash_ops_sec"));
    CHECK(r.find("futex_hash_ops_sec")->value > 0);
    CHECK(r.find("futex_hash_ops_sec")->better == Better::higher);
    REQUIRE(r.benches.size() == 1);
    CHECK(r.benches[0].argv ==
          std::vector<std::string>{"perf", "bench", "futex", "hash", "-r", "1", "-t", "2"});
    auto out = testing::read(dir.path() / "runs" / "a-1" / "perf-bench-futex.stdout");
    CHECK(out.find("operations/sec") != std::string::npos);
}

TEST_CASE("run_suite: a command bench that times out is killed, its metric missing") {
    TempDir dir;
    auto e = experiment({command("slow", {"sh", "-c", "sleep 30.25 & sleep 30.25"}, 1)});
    RunResult r = run(e, dir);
    const std::string sleeping("sleep\0"
                               "30.25\0",
                               12);
    // killed children are reaped by init: give it a moment
    CHECK(testing::wait_until([&] { return testing::live_with_cmdline(sleeping) == 0; }));
    REQUIRE(r.benches.size() == 1);
    CHECK(r.benches[0].status == BenchStatus::timeout);
    CHECK_FALSE(r.benches[0].exit_status);
    CHECK(r.benches[0].wall_s >= 1);
    CHECK(r.benches[0].wall_s < 20); // killed, not waited for: the sleeps take 30 s
    CHECK(
        r.benches[0].reason ==
        "timed out after 1 s (raise its timeout_s if it needs longer); its processes were killed");
    REQUIRE(missing(r, "slow_value"));
    CHECK(missing(r, "slow_value")->reason ==
          "bench 'slow' timed out after 1 s (raise its timeout_s if it needs longer); its "
          "processes were killed");
    CHECK(r.status == RunStatus::failed);
    CHECK(r.failure ==
          "no metric was collected: slow: timed out after 1 s (raise its timeout_s if it needs "
          "longer); its processes were killed");
}

// Run by tests/integration/without_cgroup.sh, where no cgroup2 is mounted: a
// bench then gets no cgroup, and what it says must not claim the kill.
TEST_CASE("run_suite without cgroups: the reason says what may survive", "[.no-cgroup]") {
    REQUIRE(std::string(testing::read("/proc/self/mountinfo")).find(" - cgroup2 ") == std::string::npos);
    TempDir dir;
    auto e = experiment({command("slow", {"sh", "-c", "setsid sleep 30.75 & sleep 30.75"}, 1)});
    RunResult r = run(e, dir);
    REQUIRE(r.benches.size() == 1);
    CHECK(r.benches[0].status == BenchStatus::timeout);
    CHECK(r.benches[0].reason ==
          "timed out after 1 s (raise its timeout_s if it needs longer); its process group was "
          "killed; processes that left its process group may survive (no cgroup available: no "
          "cgroup2 file system is mounted)");
    // the survivor the reason warns of
    testing::run_ok({"pkill", "-KILL", "-f", "^sleep 30.75$"}, dir.path() / "pkill.out", dir.path() / "pkill.err");
}

TEST_CASE("run_suite: command metrics by regex; a failing bench makes the run partial") {
    TempDir dir;
    auto e = experiment({command("good", {"sh", "-c", "echo value=12.5"}, 10),
                         command("bad", {"sh", "-c", "echo value=1; echo boom >&2; exit 2"}, 10),
                         command("mute", {"true"}, 10)});
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::partial);
    REQUIRE(r.find("good_value"));
    CHECK(r.find("good_value")->value == 12.5);
    CHECK(r.find("good_value")->unit == "x");
    CHECK(r.benches[1].status == BenchStatus::failed);
    CHECK(r.benches[1].exit_status == 2);
    CHECK(missing(r, "bad_value")->reason == "bench 'bad' exited with status 2: boom");
    CHECK(r.benches[2].status == BenchStatus::failed);
    std::string log = (dir.path() / "runs/a-1/mute.stdout").string();
    CHECK(r.benches[2].reason == "its output has none of the expected metrics (see " + log + ")");
    CHECK(missing(r, "mute_value")->reason ==
          "bench 'mute': regex 'value=([0-9.]+)' found no number in its output (see " + log + ")");
}

TEST_CASE("run_suite: a regex that backtracks without end leaves its metric missing, with why") {
    TempDir dir;
    auto e = experiment(
        {command("slow", {"sh", "-c", "echo aaaaaaaaaaaaaaaaaaaaaaaaaaaabx; echo value=2"}, 10,
                 "(a|a)*b([0-9])"),
         command("long",
                 {"sh", "-c", "printf 'took '; head -c 50000 /dev/zero | tr '\\000' 7; echo"}, 10,
                 "took ([0-9]+)"),
         command("fine", {"sh", "-c", "echo value=3"}, 10)});
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::partial);
    REQUIRE(r.find("fine_value"));
    std::string slow_log = (dir.path() / "runs/a-1/slow.stdout").string();
    std::string long_log = (dir.path() / "runs/a-1/long.stdout").string();
    // stored and read back as the orchestrator would
    RunResult stored = run_result_from_json(to_json(r), "runs/a-1.json");
    REQUIRE(missing(stored, "slow_value"));
    CHECK(missing(stored, "slow_value")->reason ==
          "bench 'slow': regex '(a|a)*b([0-9])' gave up on a line of 30 bytes (match limit "
          "exceeded); make the regex simpler (see " +
              slow_log + ")");
    REQUIRE(missing(stored, "long_value"));
    CHECK(missing(stored, "long_value")->reason ==
          "bench 'long': regex 'took ([0-9]+)' found no number in its output (see " + long_log +
              ")");
}

TEST_CASE("run_suite: missing tools are named with their packages") {
    TempDir dir;
    PathOverride path(dir.path().string()); // an empty folder: no tool at all
    auto e = experiment({builtin(BenchKind::perf_sched_pipe), builtin(BenchKind::sysbench_threads),
                         builtin(BenchKind::schbench), command("mine", {"my-tool", "--fast"}, 5)});
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::failed);
    REQUIRE(r.benches.size() == 4);
    CHECK(r.benches[0].status == BenchStatus::failed);
    CHECK(r.benches[0].reason == "perf is not installed: install it with 'apt install linux-perf' "
                                 "(Debian) or 'dnf install perf' (Fedora)");
    CHECK(r.benches[1].reason ==
          "sysbench is not installed: install it with 'apt install sysbench' (Debian) or "
          "'dnf install sysbench' (Fedora)");
    CHECK(r.benches[2].status == BenchStatus::skipped);
    CHECK(r.benches[2].reason ==
          "skipped: schbench is not installed: it is not packaged in Debian 12: build it "
          "from source or 'dnf install schbench' (Fedora)");
    CHECK(r.benches[3].reason ==
          "program 'my-tool' not found: check argv in [[bench]] 'mine' and PATH");
    CHECK(missing(r, "sched_pipe_usecs_op")->reason ==
          "bench 'perf-sched-pipe' could not run: perf is not installed: install it with 'apt "
          "install linux-perf' "
          "(Debian) or 'dnf install perf' (Fedora)");
    CHECK(missing(r, "schbench_p99_us")->reason ==
          "bench 'schbench' was skipped: schbench is not installed: it is not packaged in Debian "
          "12: build it from "
          "source or 'dnf install schbench' (Fedora)");
    CHECK(r.failure.rfind("no metric was collected: perf-sched-pipe: perf is not installed", 0) ==
          0);
    CHECK(r.missing.size() == 2 + 3 + 2 + 1);
}

TEST_CASE("run_suite: a run folder that cannot be created is an error naming it") {
    TempDir dir;
    testing::write(dir.path() / "file", "x");
    auto e = experiment({builtin(BenchKind::perf_sched_pipe)});
    sys::SuiteRequest req;
    req.experiment = &e;
    req.target = &e.targets[0];
    req.run_dir = dir.path() / "file" / "a-1";
    testing::FakeClock clock;
    CHECK_THROWS_WITH(sys::run_suite(req, clock),
                      "cannot create folder " + req.run_dir.string() + ": Not a directory");
}

TEST_CASE("run_suite: environment and temperatures come from the probe root") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    auto e = experiment({command("quick", {"sh", "-c", "echo value=1"}, 10)});
    RunResult r = testing::run_suite_on(e, dir.path(), tree.path());
    CHECK(r.status == RunStatus::ok);
    CHECK(core::to_json(r.environment)["hostname"] == "margine");
    CHECK(core::to_json(r.environment)["nproc"] == 12);
    CHECK(core::to_json(r.environment)["temp_start_c"] == 48.375);
    CHECK(core::to_json(r.environment)["temp_end_c"] == 48.375);
    CHECK(core::to_json(r.environment)["temp_sensor"] == "hwmon k10temp Tctl");
    REQUIRE(r.conditions.size() == 4);
    CHECK(core::to_json(r.conditions[3])["check"] == "temperature");
    CHECK(core::to_json(r.conditions[3])["found"] == "48.4 C (hwmon k10temp Tctl)");
}

TEST_CASE("run_suite: a failed gate runs no bench and says why") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    auto e = experiment({builtin(BenchKind::perf_sched_pipe)});
    e.conditions.governor = "performance"; // the tree has powersave, and set_governor is off
    RunResult r = testing::run_suite_on(e, dir.path(), tree.path());
    CHECK(r.status == RunStatus::failed);
    std::string why =
        "conditions: governor: the governor of policy0, policy1, policy10, policy11, policy2, "
        "policy3, policy4, policy5, policy6, policy7, policy8, policy9 is not performance: set it "
        "before the run (cpupower frequency-set -g performance) or set [conditions] set_governor = "
        "true";
    CHECK(r.failure == why);
    REQUIRE(r.benches.size() == 1);
    CHECK(r.benches[0].status == BenchStatus::skipped);
    CHECK(r.benches[0].reason == "not run: " + why);
    CHECK(missing(r, "sched_pipe_usecs_op")->reason ==
          "bench 'perf-sched-pipe' was not run: " + why);
    CHECK_FALSE(fs::exists(dir.path() / "runs/a-1/perf-sched-pipe.stdout"));
}

TEST_CASE("run_suite: set_governor changes the fake tree for the run and restores it") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    fs::path gov = tree.path() / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor";
    auto e = experiment({command(
        "peek", {"sh", "-c", "echo value=$(grep -c performance " + gov.string() + ")"}, 10)});
    e.conditions.governor = "performance";
    e.conditions.set_governor = true;
    RunResult r = testing::run_suite_on(e, dir.path(), tree.path());
    CHECK(r.status == RunStatus::ok);
    CHECK(r.find("peek_value")->value == 1); // set while the bench ran
    CHECK(testing::read(gov) == "powersave\n");
}

TEST_CASE("run_suite: the background load runs with the suite and is recorded") {
    TempDir dir;
    auto e = experiment({command("loaded", {"sh", "-c", "echo value=1"}, 10)});
    e.load.kind = Load::Kind::count;
    e.load.count = 1;
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::ok);
    REQUIRE(r.conditions.size() == 5);
    CHECK(core::to_json(r.conditions[4]) == nlohmann::json{{"check", "load"},
                                            {"wanted", "stress-ng --cpu 1 --timeout 70s"},
                                            {"found", "running"},
                                            {"decision", "run"},
                                            {"detail", "for the length of the suite"}});
    CHECK(fs::exists(dir.path() / "runs/a-1/load.stderr"));
}

TEST_CASE("run_suite: a load that cannot start fails the run, naming the package") {
    TempDir dir;
    PathOverride path(dir.path().string());
    auto e = experiment({builtin(BenchKind::perf_sched_pipe)});
    e.load.kind = Load::Kind::all;
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::failed);
    CHECK(r.failure ==
          "the background load cannot start: stress-ng is not installed: install it with 'apt "
          "install "
          "stress-ng' (Debian) or 'dnf install stress-ng' (Fedora), or set [load] cpu_workers = 0");
    CHECK(r.benches[0].status == BenchStatus::skipped);
}

TEST_CASE("run_suite: a load that dies during the suite fails the run") {
    TempDir dir;
    // A stand-in for a stress-ng that crashes at once (the real one cannot be made to).
    std::string pid_file = (dir.path() / "load.pid").string();
    testing::write(dir.path() / "bin/stress-ng", "#!/bin/sh\necho $$ >" + pid_file +
                                                     "\necho 'stress-ng: bad option' >&2\nexit 1\n");
    fs::permissions(dir.path() / "bin/stress-ng", fs::perms::owner_all);
    PathOverride path((dir.path() / "bin").string() + ":/usr/bin:/bin");
    // The bench ends once the load has exited (a zombie until the suite reaps
    // it), however late that is on a loaded machine; its timeout bounds the wait.
    std::string after_load = "until [ \"$(cut -d' ' -f3 /proc/$(cat " + pid_file +
                             ")/stat)\" = Z ]; do sleep 0.02; done 2>/dev/null; echo value=1";
    auto e = experiment({command("later", {"sh", "-c", after_load}, 10)});
    e.load.kind = Load::Kind::count;
    e.load.count = 1;
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::failed);
    CHECK(r.find("later_value"));
    CHECK(r.failure ==
          "the background load (stress-ng --cpu 1 --timeout 70s) ended before the suite did, with "
          "status 1 (see " +
              (dir.path() / "runs/a-1/load.stderr").string() + ")");
}

TEST_CASE("run_suite: a program that cannot be executed fails its bench, not the run") {
    TempDir dir;
    fs::path bad = dir.path() / "not-a-program";
    testing::write(bad, std::string("\x7f"
                                    "garbage",
                                    8));
    fs::permissions(bad, fs::perms::owner_all);
    auto e = experiment(
        {command("broken", {bad.string()}, 5), command("fine", {"sh", "-c", "echo value=3"}, 5)});
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::partial);
    CHECK(r.benches[0].status == BenchStatus::failed);
    CHECK(r.benches[0].reason == "cannot start " + bad.string() + ": Exec format error");
    CHECK(missing(r, "broken_value")->reason ==
          "bench 'broken' could not start: cannot start " + bad.string() + ": Exec format error");
    CHECK(r.find("fine_value")->value == 3);
}

TEST_CASE("run_suite: repeat runs a bench that many times in the boot, every value kept") {
    TempDir dir;
    std::string counter = (dir.path() / "count").string(), failing = (dir.path() / "count2").string();
    std::string step = "n=$(cat " + counter + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + counter + "; ";
    Bench counting = command("counting", {"sh", "-c", step + "echo value=$((n*10))"}, 10);
    counting.repeat = 3;
    std::string step2 = "n=$(cat " + failing + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + failing + "; ";
    Bench flaky = command("flaky", {"sh", "-c", step2 + "[ $n -ge 2 ] && { echo gone >&2; exit 3; }; echo value=5"}, 10);
    flaky.repeat = 4;
    RunResult r = run(experiment({counting, flaky}), dir);
    REQUIRE(r.find("counting_value"));
    CHECK(r.find("counting_value")->value == 20);
    CHECK(r.find("counting_value")->iterations == std::vector<double>{10, 20, 30});
    CHECK(r.benches[0].iterations == 3);
    CHECK(r.benches[0].status == BenchStatus::ok);
    CHECK(fs::exists(dir.path() / "runs/a-1/counting.stdout"));
    CHECK(fs::exists(dir.path() / "runs/a-1/counting.iter-3.stdout"));
    // The second iteration fails: the bench stops there, the first's value stays.
    CHECK(r.benches[1].iterations == 2);
    CHECK(r.benches[1].status == BenchStatus::failed);
    CHECK(r.benches[1].reason == "iteration 2 of 4: exited with status 3: gone");
    CHECK(r.find("flaky_value")->iterations == std::vector<double>{5});
    CHECK_FALSE(fs::exists(dir.path() / "runs/a-1/flaky.iter-3.stdout"));
}

TEST_CASE("run_suite: a bench that fails in iteration 2 of 3 makes the run partial, naming the iteration") {
    TempDir dir;
    std::string counter = (dir.path() / "count").string();
    std::string step = "n=$(cat " + counter + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + counter + "; ";
    Bench flaky = command("flaky", {"sh", "-c", step + "[ $n -ge 2 ] && { echo gone >&2; exit 3; }; echo value=5"}, 10);
    flaky.repeat = 3;
    RunResult r = run(experiment({flaky}), dir);
    CHECK(r.find("flaky_value")->iterations == std::vector<double>{5});
    CHECK(r.status == RunStatus::partial);
    CHECK(r.failure.empty());
    CHECK(r.benches[0].reason == "iteration 2 of 3: exited with status 3: gone");
    CHECK(partial_causes({r}) == "flaky failed (iteration 2 of 3)");
}

TEST_CASE("run_suite: counters run the bench under the real perf stat, its file apart from the output", "[counters]") {
    TempDir dir;
    Bench counting = command("counting", {"sh", "-c", "echo value=7"}, 20);
    counting.counters = {"context-switches", "page-faults", "cycles"};
    counting.repeat = 2;
    RunResult r = run(experiment({counting}), dir);
    CHECK(r.status == RunStatus::ok);
    CHECK(r.find("counting_value")->value == 7);
    REQUIRE(r.benches.size() == 1);
    std::string file = (dir.path() / "runs/a-1/counting.perf-stat.csv").string();
    CHECK(r.benches[0].argv == std::vector<std::string>{"perf", "stat", "-x,", "-o", file, "-e",
                                                        "context-switches,page-faults,cycles", "--", "sh", "-c",
                                                        "echo value=7"});
    CHECK(testing::read(dir.path() / "runs/a-1/counting.stdout") == "value=7\n");
    CHECK(fs::exists(dir.path() / "runs/a-1/counting.iter-2.perf-stat.csv"));
    REQUIRE(r.counters.size() == 1);
    const BenchCounters& c = r.counters[0];
    CHECK(c.bench == "counting");
    CHECK(c.failure.empty());
    REQUIRE(c.find("page-faults"));
    CHECK(c.find("page-faults")->value > 0);
    CHECK(c.find("page-faults")->iterations.size() == 2);
    CHECK(c.find("context-switches"));
    // cycles: counted where the kernel gives a PMU, else unavailable with perf's reason
    bool cycles_unavailable = !c.unavailable.empty() && c.unavailable[0].key == "cycles";
    CHECK((c.find("cycles") != nullptr) != cycles_unavailable);
    CHECK(run_result_from_json(to_json(r), "x").counters[0].find("page-faults")->iterations.size() == 2);
}

TEST_CASE("run_suite: perf missing or refused is recorded per run, the bench runs without it", "[counters]") {
    TempDir dir;
    Bench counting = command("counting", {"sh", "-c", "echo value=7"}, 20);
    counting.counters = {"cycles"};
    fs::path bin = dir.path() / "bin";
    fs::create_directories(bin);
    for (const char* tool : {"sh", "echo"})
        fs::create_symlink(*sys::find_program(tool), bin / tool);
    {
        PathOverride path(bin.string()); // no perf
        RunResult r = run(experiment({counting}), dir);
        CHECK(r.status == RunStatus::ok);
        CHECK(r.find("counting_value")->value == 7);
        CHECK(r.benches[0].argv == std::vector<std::string>{"sh", "-c", "echo value=7"});
        REQUIRE(r.counters.size() == 1);
        CHECK(r.counters[0].failure == "counters unavailable: perf is not installed: install it with 'apt install "
                                       "linux-perf' (Debian) or 'dnf install perf' (Fedora)");
    }
    testing::write(bin / "perf", "#!/bin/sh\necho 'Error:' >&2\n"
                                 "echo 'Access to performance monitoring and observability operations is limited.' >&2\n"
                                 "exit 255\n");
    fs::permissions(bin / "perf", fs::perms::owner_all);
    TempDir tree;
    testing::build_laptop_tree(tree.path());
    testing::write(tree.path() / "proc/sys/kernel/perf_event_paranoid", "4\n");
    PathOverride path(bin.string());
    RunResult r = testing::run_suite_on(experiment({counting}), dir.path() / "second", tree.path());
    CHECK(r.find("counting_value")->value == 7);
    REQUIRE(r.counters.size() == 1);
    CHECK(r.counters[0].failure ==
          "counters unavailable: perf stat exited with status 255: Access to performance monitoring and "
          "observability operations is limited.; kernel.perf_event_paranoid is 4: the unit runs as root, which any "
          "level allows; under another user set 'sysctl kernel.perf_event_paranoid=1' or give perf CAP_PERFMON");
}
