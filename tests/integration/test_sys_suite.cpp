#include "catch.hpp"
#include "core/error.hpp"
#include "helpers.hpp"
#include "sys/suite.hpp"

#include <cstdlib>

using namespace bootbench;
using namespace bootbench::core;
using testing::TempDir;
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

Experiment experiment(std::vector<Bench> benches) {
    Experiment e;
    e.name = "exp";
    Target t;
    t.name = "a";
    e.targets = {t};
    e.conditions.settle_s = 0;
    e.benches = std::move(benches);
    return e;
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
    explicit PathOverride(const std::string& value) : old_(std::getenv("PATH")) { ::setenv("PATH", value.c_str(), 1); }
    ~PathOverride() { ::setenv("PATH", old_.c_str(), 1); }

private:
    std::string old_;
};

} // namespace

TEST_CASE("run_suite: perf sched pipe and sysbench threads, end to end") {
    TempDir dir;
    auto e = experiment({builtin(BenchKind::perf_sched_pipe), builtin(BenchKind::sysbench_threads)});
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::ok);
    CHECK(r.failure.empty());
    CHECK(r.experiment == "exp");
    CHECK(r.run_id == "a-1");
    CHECK(r.target == "a");
    CHECK(r.deployment.checksum == "abc123");
    CHECK(r.metrics.size() == 5);
    CHECK(r.missing.empty());
    REQUIRE(r.find("sched_pipe_usecs_op"));
    CHECK(r.find("sched_pipe_usecs_op")->value > 0);
    CHECK(r.find("sysbench_events")->value > 0);
    REQUIRE(r.benches.size() == 2);
    CHECK(r.benches[0].argv == std::vector<std::string>{"perf", "bench", "sched", "pipe", "-l", "2000"});
    CHECK(r.benches[0].exit_status == 0);
    CHECK(r.benches[1].wall_s >= 1);
    CHECK(r.benches[1].log == "sysbench-threads");
    auto logs = dir.path() / "runs" / "a-1";
    CHECK(testing::read(logs / "perf-sched-pipe.stdout").find("usecs/op") != std::string::npos);
    CHECK(testing::read(logs / "sysbench-threads.stdout").find("total number of events") != std::string::npos);
    CHECK(fs::exists(logs / "sysbench-threads.stderr"));
    // the result survives its JSON form
    CHECK(run_result_from_json(to_json(r), "x").metrics.size() == 5);
}

TEST_CASE("run_suite: a command bench that times out is killed, its metric missing") {
    TempDir dir;
    auto e = experiment({command("slow", {"sh", "-c", "sleep 30 & sleep 30"}, 1)});
    RunResult r = run(e, dir);
    REQUIRE(r.benches.size() == 1);
    CHECK(r.benches[0].status == BenchStatus::timeout);
    CHECK_FALSE(r.benches[0].exit_status);
    CHECK(r.benches[0].wall_s < 5);
    CHECK(r.benches[0].reason == "timed out after 1 s (raise its timeout_s if it needs longer); its processes were killed");
    REQUIRE(missing(r, "slow_value"));
    CHECK(missing(r, "slow_value")->reason ==
          "bench 'slow' timed out after 1 s (raise its timeout_s if it needs longer); its processes were killed");
    CHECK(r.status == RunStatus::failed);
    CHECK(r.failure == "no metric was collected: slow: timed out after 1 s (raise its timeout_s if it needs "
                       "longer); its processes were killed");
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

TEST_CASE("run_suite: missing tools are named with their packages") {
    TempDir dir;
    PathOverride path(dir.path().string()); // an empty folder: no tool at all
    auto e = experiment({builtin(BenchKind::perf_sched_pipe), builtin(BenchKind::sysbench_threads),
                         builtin(BenchKind::schbench), command("mine", {"my-tool", "--fast"}, 5)});
    RunResult r = run(e, dir);
    CHECK(r.status == RunStatus::failed);
    REQUIRE(r.benches.size() == 4);
    CHECK(r.benches[0].status == BenchStatus::failed);
    CHECK(r.benches[0].reason ==
          "perf is not installed: install it with 'apt install linux-perf' (Debian) or 'dnf install perf' (Fedora)");
    CHECK(r.benches[1].reason == "sysbench is not installed: install it with 'apt install sysbench' (Debian) or "
                                 "'dnf install sysbench' (Fedora)");
    CHECK(r.benches[2].status == BenchStatus::skipped);
    CHECK(r.benches[2].reason == "skipped: schbench is not installed: it is not packaged in Debian 12: build it "
                                 "from source or 'dnf install schbench' (Fedora)");
    CHECK(r.benches[3].reason == "program 'my-tool' not found: check argv in [[bench]] 'mine' and PATH");
    CHECK(missing(r, "sched_pipe_usecs_op")->reason ==
          "bench 'perf-sched-pipe' could not run: perf is not installed: install it with 'apt install linux-perf' "
          "(Debian) or 'dnf install perf' (Fedora)");
    CHECK(missing(r, "schbench_p99_us")->reason ==
          "bench 'schbench' was skipped: schbench is not installed: it is not packaged in Debian 12: build it from "
          "source or 'dnf install schbench' (Fedora)");
    CHECK(r.failure.rfind("no metric was collected: perf-sched-pipe: perf is not installed", 0) == 0);
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
