#include "catch.hpp"
#include "sys/run/bench_command.hpp"

using namespace bootbench;
using namespace bootbench::sys;
using Argv = std::vector<std::string>;

namespace {

core::Bench bench(core::BenchKind kind) {
    core::Bench b;
    b.kind = kind;
    return b;
}

core::Load load(core::Load::Kind kind, int count = 0) {
    core::Load l;
    l.kind = kind;
    l.count = count;
    return l;
}

} // namespace

TEST_CASE("the command lines of the built-in benches") {
    auto pipe = bench(core::BenchKind::perf_sched_pipe);
    pipe.loops = 5000;
    CHECK(bench_argv(pipe, 12) == Argv{"perf", "bench", "sched", "pipe", "-l", "5000"});
    auto msg = bench(core::BenchKind::perf_sched_messaging);
    msg.loops = 1000;
    CHECK(bench_argv(msg, 12) ==
          Argv{"perf", "bench", "sched", "messaging", "-g", "20", "-l", "1000"});
    auto sb = bench(core::BenchKind::sysbench_threads);
    CHECK(bench_argv(sb, 12) == Argv{"sysbench", "threads", "--threads=12", "--time=30",
                                     "--thread-yields=1000", "--thread-locks=8", "run"});
    sb.threads = 4;
    CHECK(bench_argv(sb, 12)[2] == "--threads=4");
    auto sch = bench(core::BenchKind::schbench);
    CHECK(bench_argv(sch, 12) == Argv{"schbench", "-r", "30"});
    sch.message_threads = 2;
    sch.threads = 6;
    sch.runtime_s = 10;
    CHECK(bench_argv(sch, 12) == Argv{"schbench", "-m", "2", "-t", "6", "-r", "10"});
    auto futex = bench(core::BenchKind::perf_bench_futex);
    CHECK(bench_argv(futex, 12) == Argv{"perf", "bench", "futex", "hash", "-r", "10"});
    futex.threads = 2;
    futex.runtime_s = 1;
    CHECK(bench_argv(futex, 12) == Argv{"perf", "bench", "futex", "hash", "-r", "1", "-t", "2"});
    auto cmd = bench(core::BenchKind::command);
    cmd.argv = {"fio", "--name=x"};
    CHECK(bench_argv(cmd, 12) == cmd.argv);
}

// One `loops` field serves two kinds: a Bench built in code used to run
// perf sched messaging with perf-sched-pipe's 1000000 loops.
TEST_CASE("a bench built in code runs with its own kind's defaults") {
    CHECK(bench_argv(bench(core::BenchKind::perf_sched_messaging), 12) ==
          Argv{"perf", "bench", "sched", "messaging", "-g", "20", "-l", "1000"});
    CHECK(bench_argv(bench(core::BenchKind::perf_sched_pipe), 12) ==
          Argv{"perf", "bench", "sched", "pipe", "-l", "1000000"});
}

TEST_CASE("time limits: the bench's own, else a generous multiple of its expected length") {
    auto sb = bench(core::BenchKind::sysbench_threads);
    CHECK(bench_timeout_s(sb) == 213); // (0.5 + 30) * 5 + 60, rounded up
    sb.timeout_s = 40;
    CHECK(bench_timeout_s(sb) == 40);
}

TEST_CASE("the background load: half, all, a count, or none") {
    CHECK(load_argv(load(core::Load::Kind::none), 12, 100).empty());
    CHECK(load_argv(load(core::Load::Kind::half), 12, 100) ==
          Argv{"stress-ng", "--cpu", "6", "--timeout", "100s"});
    CHECK(load_argv(load(core::Load::Kind::half), 1, 100)[2] == "1");
    CHECK(load_argv(load(core::Load::Kind::all), 12, 99.5)[2] == "12");
    CHECK(load_argv(load(core::Load::Kind::all), 12, 99.5)[4] == "100s");
    CHECK(load_argv(load(core::Load::Kind::count, 3), 12, 100)[2] == "3");
    CHECK(load_argv(load(core::Load::Kind::count, 0), 12, 100).empty());
}

TEST_CASE("missing tools are named with their packages") {
    CHECK(not_installed_message(*tool_for(core::BenchKind::perf_sched_messaging)) ==
          "perf is not installed: install it with 'apt install linux-perf' (Debian) or 'dnf "
          "install perf' (Fedora)");
    CHECK(tool_for(core::BenchKind::schbench)->optional);
    CHECK_FALSE(tool_for(core::BenchKind::command));
    CHECK(tool_for(core::BenchKind::perf_bench_futex)->program == "perf");
}
