#include "catch.hpp"
#include "core/error.hpp"
#include "helpers.hpp"
#include "sys/subprocess.hpp"

#include <chrono>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

using namespace bootbench;
using namespace bootbench::sys;
using testing::group_gone;
using testing::live_with_cmdline;
using testing::TempDir;

namespace {

ProcessSpec shell(const TempDir& dir, const std::string& script, double timeout_s = 0) {
    return {{"sh", "-c", script}, dir.path() / "out", dir.path() / "err", timeout_s, 0.5};
}

double cpu_seconds_self() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

} // namespace

TEST_CASE("a child's exit status and output files") {
    TempDir dir;
    auto o = run_process(shell(dir, "echo out; echo err >&2; exit 3"));
    CHECK(o.end == ProcessEnd::exited);
    CHECK(o.exit_status == 3);
    CHECK(testing::read(dir.path() / "out") == "out\n");
    CHECK(testing::read(dir.path() / "err") == "err\n");
    CHECK(o.wall_s < 5);
}

TEST_CASE("a child sees LC_ALL=C and an empty stdin") {
    TempDir dir;
    auto o = run_process(shell(dir, "echo \"$LC_ALL\"; cat"));
    CHECK(o.exit_status == 0);
    CHECK(testing::read(dir.path() / "out") == "C\n");
}

TEST_CASE("a timeout kills the whole group, children included") {
    TempDir dir;
    auto o = run_process(shell(dir, "sleep 30 & sleep 30 & wait", 1));
    CHECK(o.end == ProcessEnd::timed_out);
    CHECK(o.wall_s < 5);
    CHECK(group_gone(o.pgid));
}

TEST_CASE("a group that ignores SIGTERM gets SIGKILL after the grace time") {
    TempDir dir;
    auto o = run_process(shell(dir, "trap '' TERM; sleep 30 & sleep 30 & wait", 1));
    CHECK(o.end == ProcessEnd::timed_out);
    CHECK(o.wall_s < 5);
    CHECK(group_gone(o.pgid));
}

TEST_CASE("what a finished bench left running in its group is killed") {
    TempDir dir;
    auto o = run_process(shell(dir, "sleep 30 & exit 0"));
    CHECK(o.end == ProcessEnd::exited);
    CHECK(o.wall_s < 5);
    CHECK(group_gone(o.pgid));
}

TEST_CASE("a child killed by a signal") {
    TempDir dir;
    auto o = run_process(shell(dir, "kill -SEGV $$"));
    CHECK(o.end == ProcessEnd::signaled);
    CHECK(o.signal == SIGSEGV);
}

TEST_CASE("the orchestrator sleeps while a child runs") {
    TempDir dir;
    double before = cpu_seconds_self();
    auto o = run_process(shell(dir, "sleep 1"));
    double used = cpu_seconds_self() - before;
    CHECK(o.wall_s >= 1);
    CHECK(used < 0.02);
}

TEST_CASE("destroying a ProcessGroup kills its group") {
    TempDir dir;
    pid_t pgid = -1;
    {
        auto g = ProcessGroup::spawn(shell(dir, "sleep 30 & sleep 30"));
        pgid = g.pgid();
        CHECK(g.running());
        CHECK_FALSE(g.wait_exit(0.1));
    }
    CHECK(group_gone(pgid));
}

TEST_CASE("an interruption kills the group and says what was running") {
    TempDir dir;
    InterruptWatch watch;
    try {
        run_process(shell(dir, "sleep 31.5 & kill -TERM $PPID; sleep 31.5"), &watch);
        FAIL("no exception");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) == "interrupted by SIGTERM while running sh; its processes "
                                       "were stopped and no result was written");
    }
    bool gone = false;
    for (int i = 0; i < 40 && !gone; ++i) {
        gone = live_with_cmdline(std::string("sleep\0"
                                             "31.5\0",
                                             11)) == 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    CHECK(gone);
}

TEST_CASE("find_program looks on PATH as execvp does") {
    CHECK(find_program("sh"));
    CHECK(find_program("/bin/sh") == fs::path("/bin/sh"));
    CHECK_FALSE(find_program("bootbench-no-such-program"));
    CHECK_FALSE(find_program("/etc/passwd"));
    CHECK_FALSE(find_program(""));
}

TEST_CASE("starting errors name the program or the log file") {
    TempDir dir;
    ProcessSpec missing{{"bootbench-no-such-program"}, dir.path() / "o", dir.path() / "e", 1};
    CHECK_THROWS_WITH(run_process(missing),
                      "cannot start bootbench-no-such-program: not found on PATH");
    ProcessSpec bad_log{{"true"}, dir.path() / "no/such/dir/o", dir.path() / "e", 1};
    CHECK_THROWS_WITH(run_process(bad_log), "cannot create log file " +
                                                (dir.path() / "no/such/dir/o").string() +
                                                ": No such file or directory");
}
