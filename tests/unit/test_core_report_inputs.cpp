#include "catch.hpp"
#include "core/report/report_inputs.hpp"

using namespace bootbench::core;

namespace {

RunResult run(const std::string& target, std::vector<std::string> argv, BenchKind kind = BenchKind::perf_sched_pipe,
              int nproc = 4) {
    RunResult r;
    r.experiment = "lab";
    r.target = target;
    r.environment.nproc = nproc;
    BenchRecord b;
    b.name = "b";
    b.kind = kind;
    b.argv = std::move(argv);
    r.benches.push_back(b);
    return r;
}

std::vector<std::string> differences(const std::vector<RunResult>& a, const std::vector<RunResult>& b) {
    std::vector<const RunResult*> pa, pb;
    for (const auto& r : a)
        pa.push_back(&r);
    for (const auto& r : b)
        pb.push_back(&r);
    return experiment_differences(input_experiment("x", pa), input_experiment("y", pb));
}

} // namespace

TEST_CASE("inputs of one experiment: no difference, whatever each machine's CPU count", "[report][inputs]") {
    std::vector<std::string> pipe = {"perf", "bench", "sched", "pipe", "-l", "1000"};
    CHECK(differences({run("a", pipe), run("b", pipe)}, {run("a", pipe)}).empty());
    auto threads = [](int n) { return std::vector<std::string>{"sysbench", "threads", "--threads=" + std::to_string(n)}; };
    CHECK(differences({run("a", threads(4), BenchKind::sysbench_threads, 4)},
                      {run("a", threads(8), BenchKind::sysbench_threads, 8)})
              .empty());
    // a command bench's --threads=8 is its own, not one per CPU
    CHECK(differences({run("a", threads(8), BenchKind::command, 8)}, {run("a", threads(8), BenchKind::command, 4)})
              .empty());
}

TEST_CASE("inputs of two experiments: each difference named with its folder", "[report][inputs]") {
    std::vector<std::string> short_pipe = {"perf", "bench", "sched", "pipe", "-l", "1000"};
    std::vector<std::string> long_pipe = {"perf", "bench", "sched", "pipe", "-l", "5000"};
    RunResult other = run("a", long_pipe);
    other.experiment = "lab-long";
    CHECK(differences({run("a", short_pipe), run("b", short_pipe)}, {other, run("b", long_pipe)}) ==
          std::vector<std::string>{"experiment: x lab; y lab-long", "bench b: x -l 1000; y -l 5000"});
    std::vector<std::string> other_pipe = {"perf", "bench", "sched", "pipe", "-l", "2000"};
    CHECK(differences({run("a", short_pipe), run("b", short_pipe)}, {run("a", long_pipe), run("b", other_pipe)}) ==
          std::vector<std::string>{"bench b of a: x -l 1000; y -l 5000", "bench b of b: x -l 1000; y -l 2000"});
    RunResult sandbox = run("a", short_pipe);
    sandbox.environment.sandbox = true;
    CHECK(differences({run("a", short_pipe)}, {sandbox}) ==
          std::vector<std::string>{"runs: x measured; y sandbox simulation"});
    RunResult unnamed = run("a", short_pipe);
    unnamed.experiment = "";
    CHECK(differences({run("a", short_pipe)}, {unnamed}).empty());
}
