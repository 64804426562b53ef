#include "catch.hpp"
#include "helpers.hpp"
#include "sys/net/notify.hpp"
#include "sys/store/run_log.hpp"
#include "sys/store/user_lines.hpp"

#include <cstdlib>

using namespace bootbench;
using namespace bootbench::sys;
using testing::FakeClock;
using testing::TempDir;

TEST_CASE("user lines: one sink for progress and warnings, which a test captures") {
    LineCapture outer;
    say("pulling the tools image x");
    {
        LineCapture inner;
        warn("cannot restore the governor: busy");
        CHECK(inner.text() == "bootbench: warning: cannot restore the governor: busy\n");
    }
    say_raw("--- boot 2: b");
    warn_to_stderr("no answer from \x1b[2Jthe server"); // notify's warnings: printable
    CHECK(outer.text() == "bootbench: pulling the tools image x\n--- boot 2: b\n"
                          "bootbench: warning: no answer from \\x1b[2Jthe server\n");
}

// A sandbox echoes one line a run unless --verbose (BOOTBENCH_VERBOSE=1);
// the log file keeps every line either way.
TEST_CASE("user lines: the run log's details reach the terminal only with BOOTBENCH_VERBOSE=1") {
    TempDir dir;
    FakeClock clock;
    ::unsetenv(kVerboseEnv);
    CHECK(echo_for(true) == Echo::brief);
    CHECK(echo_for(false) == Echo::all);
    {
        LineCapture lines;
        RunLog log(dir.path() / "bootbench.log", clock, echo_for(true));
        log.line("run a-1: ok");
        log.detail("conditions: settle 0 s");
        CHECK(lines.text() == "bootbench: run a-1: ok\n");
    }
    ::setenv(kVerboseEnv, "1", 1);
    CHECK(echo_for(true) == Echo::all);
    LineCapture lines;
    RunLog log(dir.path() / "bootbench.log", clock, echo_for(true));
    log.detail("conditions: settle 0 s");
    tell(nullptr, Weight::detail, "no log: said at once");
    ::unsetenv(kVerboseEnv);
    CHECK(lines.text() == "bootbench: conditions: settle 0 s\nbootbench: no log: said at once\n");
    CHECK(testing::read(dir.path() / "bootbench.log") ==
          "2026-11-30T10:00:00+00:00 run a-1: ok\n2026-11-30T10:00:00+00:00 conditions: settle 0 s\n"
          "2026-11-30T10:00:00+00:00 conditions: settle 0 s\n");
}
