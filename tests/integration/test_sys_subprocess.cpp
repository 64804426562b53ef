#include "catch.hpp"
#include "core/base/error.hpp"
#include "helpers.hpp"
#include "sys/ostree/host.hpp"
#include "sys/process/subprocess.hpp"

#include <sys/resource.h>
#include <csignal>
#include <unistd.h>
#include <variant>

using namespace bootbench;
using namespace bootbench::sys;
using testing::group_gone;
using testing::live_with_cmdline;
using testing::TempDir;
using testing::wait_until;

namespace {

// Bounds on wall time, far from both sides on a loaded machine: a kill is
// seen within kPromptS, while the sleeps these tests kill take 30 s.
constexpr double kPromptS = 20;

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
    CHECK(o.wall_s > 0); // measured
    CHECK(o.wall_s < kPromptS);
}

TEST_CASE("a child sees LC_ALL=C and an empty stdin") {
    TempDir dir;
    auto o = run_process(shell(dir, "echo \"$LC_ALL\"; cat"));
    CHECK(o.exit_status == 0);
    CHECK(testing::read(dir.path() / "out") == "C\n");
}

// Its own session, not only its own process group: with the kernel's
// autogroup scheduling a session is a scheduling group, so a bench with the
// host's tools competes for the CPU as one in a container does (conmon
// starts every container in a session of its own), and never task by task
// with whatever else runs in bootbench's session. Fields 1 and 6 of
// /proc/PID/stat: the pid and the session id.
TEST_CASE("a child leads a session of its own", "[no-cgroup]") {
    TempDir dir;
    auto o = run_process(shell(dir, "read -r pid comm state ppid pgrp sid rest < /proc/$$/stat; "
                                    "echo \"$pid $pgrp $sid\""));
    CHECK(o.exit_status == 0);
    std::string pid = testing::read(dir.path() / "out").substr(0, testing::read(dir.path() / "out").find(' '));
    CHECK(testing::read(dir.path() / "out") == pid + " " + pid + " " + pid + "\n");
}

TEST_CASE("a timeout kills the whole group, children included") {
    TempDir dir;
    auto o = run_process(shell(dir, "sleep 30 & sleep 30 & wait", 1));
    CHECK(o.end == ProcessEnd::timed_out);
    CHECK(o.wall_s >= 1); // it waited for the timeout
    CHECK(o.wall_s < kPromptS);
    CHECK(group_gone(o.pgid));
}

TEST_CASE("a group that ignores SIGTERM gets SIGKILL after the grace time") {
    TempDir dir;
    auto o = run_process(shell(dir, "trap '' TERM; sleep 30 & sleep 30 & wait", 1));
    CHECK(o.end == ProcessEnd::timed_out);
    CHECK(o.wall_s >= 1.5); // the timeout, then the grace time
    CHECK(o.wall_s < kPromptS);
    CHECK(group_gone(o.pgid));
}

TEST_CASE("what a finished bench left running in its group is killed") {
    TempDir dir;
    auto o = run_process(shell(dir, "sleep 30 & exit 0"));
    CHECK(o.end == ProcessEnd::exited);
    CHECK(o.wall_s < kPromptS); // not waited for
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
    // Spinning for that second would use well over 0.1 s even sharing a busy CPU.
    CHECK(used < 0.1);
}

TEST_CASE("destroying a ProcessGroup kills its group") {
    TempDir dir;
    pid_t pgid = -1;
    {
        auto g = ProcessGroup::spawn(shell(dir, "sleep 30 & sleep 30"));
        pgid = g.pgid();
        CHECK(g.running());
        // A child of sh started: the kill has more than sh to reach.
        CHECK(wait_until([pgid] { return testing::live_members(pgid) >= 2; }));
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
    const std::string sleeping("sleep\0"
                               "31.5\0",
                               11);
    CHECK(wait_until([&] { return live_with_cmdline(sleeping) == 0; }));
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

namespace {

// Live processes with this exact command line: their pids.
std::vector<pid_t> pids_with_cmdline(const std::string& cmdline) {
    std::vector<pid_t> out;
    for (const auto& e : fs::directory_iterator("/proc")) {
        std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") == std::string::npos &&
            testing::read(e.path() / "cmdline") == cmdline)
            out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

// Killed processes may take a moment to be reaped by init.
bool none_left(const std::string& cmdline) {
    return wait_until([&] { return pids_with_cmdline(cmdline).empty(); });
}

std::variant<fs::path, std::string> own_dir() {
    return own_cgroup_dir(testing::read("/proc/self/mountinfo"), testing::read("/proc/self/cgroup"));
}

} // namespace

TEST_CASE("a process that left the group (setsid) dies with the bench's cgroup, or the outcome says so") {
    TempDir dir;
    const std::string cmdline("sleep\0"
                              "977.25\0",
                              13);
    auto o = run_process(shell(dir, "setsid sleep 977.25 & sleep 977.25", 1));
    CHECK(o.end == ProcessEnd::timed_out);
    if (std::holds_alternative<fs::path>(own_dir()) && ::geteuid() == 0) {
        // Where this test runs as root with cgroup v2 the bench gets a cgroup.
        CHECK(o.containment == "");
    }
    if (o.containment.empty()) {
        CHECK(none_left(cmdline));
    } else {
        CHECK(o.containment.find("processes that left its process group may survive (no cgroup available: ") == 0);
        for (pid_t pid : pids_with_cmdline(cmdline))
            ::kill(pid, SIGKILL); // what the test itself left
    }
}

TEST_CASE("a bench's cgroup is removed when it ends") {
    auto own = own_dir();
    if (!std::holds_alternative<fs::path>(own)) {
        WARN("not tested: " + std::get<std::string>(own));
        return;
    }
    TempDir dir;
    auto o = run_process(shell(dir, "cat /proc/self/cgroup"));
    CHECK(o.exit_status == 0);
    std::string where = testing::read(dir.path() / "out");
    if (!o.containment.empty()) {
        WARN("not tested: " + o.containment);
        return;
    }
    size_t at = where.find("/bootbench-bench-");
    REQUIRE(at != std::string::npos);
    // That one cgroup, not every bench cgroup beside it: another test
    // process on this machine may have one of its own there right now.
    std::string name = where.substr(at + 1, where.find_first_of("/\n", at + 1) - at - 1);
    CHECK(name.size() == std::string("bootbench-bench-XXXXXX").size());
    CHECK(fs::is_directory(std::get<fs::path>(own)));
    CHECK_FALSE(fs::exists(std::get<fs::path>(own) / name));
}

TEST_CASE("the own cgroup folder, or why there is none") {
    auto dir_of = [](const std::string& mountinfo, const std::string& own) {
        auto d = own_cgroup_dir(mountinfo, own);
        return std::holds_alternative<fs::path>(d) ? "dir " + std::get<fs::path>(d).string()
                                                    : std::get<std::string>(d);
    };
    const std::string unified = "35 24 0:30 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
    const std::string hybrid = "20 19 0:17 / /sys/fs/cgroup ro - tmpfs tmpfs ro,mode=755\n"
                               "28 20 0:25 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n"
                               "29 20 0:26 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n";
    CHECK(dir_of(unified, "0::/system.slice/bootbench-resume.service\n") ==
          "dir /sys/fs/cgroup/system.slice/bootbench-resume.service");
    CHECK(dir_of(unified, "0::/\n") == "dir /sys/fs/cgroup");
    CHECK(dir_of(hybrid, "1:cpu:/\n0::/user.slice\n") == "dir /sys/fs/cgroup/unified/user.slice");
    CHECK(dir_of("35 24 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/docker/abc/x\n") ==
          "dir /sys/fs/cgroup/x");
    CHECK(dir_of("35 24 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/other\n") ==
          "the cgroup2 mount at /sys/fs/cgroup does not show this process's cgroup /other");
    CHECK(dir_of(unified, "1:name=systemd:/\n") == "this process is in no cgroup v2 hierarchy (cgroup v1 only)");
    CHECK(dir_of("29 20 0:26 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", "0::/\n") ==
          "no cgroup2 file system is mounted");
}

// The one exit-status decoder, on real wait statuses, and the words a
// person reads for each ending.
TEST_CASE("one decoder: how a process ended and what the user reads") {
    TempDir dir;
    Ending three = run_attached({"sh", "-c", "exit 3"});
    CHECK(three.end == ProcessEnd::exited);
    CHECK(three.exit_status == 3);
    CHECK_FALSE(three.succeeded());
    CHECK(describe(three) == "exited with status 3");
    Ending killed = run_attached({"sh", "-c", "kill -KILL $$"});
    CHECK(killed.end == ProcessEnd::signaled);
    CHECK(killed.signal == SIGKILL);
    CHECK(describe(killed) == "was killed by SIGKILL");
    CHECK(run_attached({"true"}).succeeded());
    CHECK(describe(run_attached({"true"})) == "");
    auto hung = run_process(shell(dir, "sleep 30", 0.5));
    CHECK(describe(hung) == "timed out");
    CHECK(describe(run_process(shell(dir, "kill -SEGV $$"))) == "was killed by SIGSEGV");
}

// Attached: the child shares this process's session and process group (a
// person's Ctrl-C reaches it), its stdout, and sees the added environment.
TEST_CASE("one starter: an attached child shares the session and gets the extra environment") {
    TempDir dir;
    fs::path out = dir.path() / "seen";
    std::string script = "read -r pid comm state ppid pgrp sid rest < /proc/$$/stat; echo \"$pgrp $sid $EXTRA\" > " +
                         out.string();
    CHECK(run_attached({"sh", "-c", script}, {{"EXTRA", "yes"}}).succeeded());
    CHECK(testing::read(out) ==
          std::to_string(::getpgrp()) + " " + std::to_string(::getsid(0)) + " yes\n");
    CHECK_THROWS_WITH(run_attached({"bootbench-no-such-program"}),
                      "cannot start bootbench-no-such-program: not found on PATH");
}

TEST_CASE("one starter: an interruption is passed on to an attached child, which ends its own way") {
    InterruptWatch watch;
    int by = 0;
    ::raise(SIGTERM); // blocked by the watch: waiting on its signalfd
    Ending e = run_attached({"sleep", "0.5"}, {}, &watch, &by);
    CHECK(by == SIGTERM);
    // Passed on, and held by the mask the child inherited (a child bootbench
    // reads it from its own signalfd): the child ends its own way.
    CHECK(e.succeeded());
}

namespace {

// Only a stand-in systemctl on PATH: a test can never reboot the machine.
struct OnlyStandIn {
    TempDir dir;
    std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    explicit OnlyStandIn(const std::string& body) {
        testing::write(dir.path() / "systemctl", "#!/bin/sh\n" + body + "\n");
        fs::permissions(dir.path() / "systemctl", fs::perms::owner_all);
        ::setenv("PATH", dir.path().c_str(), 1);
    }
    ~OnlyStandIn() { ::setenv("PATH", old_path.c_str(), 1); }
};

} // namespace

TEST_CASE("one starter: a failed reboot request says how systemctl ended") {
    {
        OnlyStandIn systemctl("exit 1");
        CHECK_THROWS_WITH(RealHost("/").reboot(), "systemctl reboot --no-block failed (exited with status 1)");
    }
    OnlyStandIn systemctl("kill -TERM $$");
    CHECK_THROWS_WITH(RealHost("/").reboot(), "systemctl reboot --no-block failed (was killed by SIGTERM)");
}
