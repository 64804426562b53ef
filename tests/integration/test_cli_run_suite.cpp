#include "catch.hpp"
#include "fake_logind.hpp"
#include "helpers.hpp"
#include "sys/process/subprocess.hpp"

#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>

using namespace bootbench;
using testing::TempDir;
namespace fs = std::filesystem;

namespace {

struct Cli {
    int status = -1;
    std::string out;
    std::string err;
};

Cli run_cli(const TempDir& dir, const std::vector<std::string>& args) {
    sys::ProcessSpec spec{args, dir.path() / "cli.out", dir.path() / "cli.err", 120};
    auto o = sys::run_process(spec);
    return {o.exit_status, testing::read(spec.stdout_path), testing::read(spec.stderr_path)};
}

const char* kExperiment = R"TOML([experiment]
name = "cli-test"
title = "run-suite from the command line"
runs = 2
baseline = "stock"

[[target]]
name = "stock"
refspec = "fedora:fedora/x86_64/silverblue"

[[target]]
name = "tuned"
refspec = "fedora:fedora/x86_64/tuned"

[conditions]
settle_s = 0
max_start_temp_c = 150.0

[[bench]]
kind = "perf-sched-pipe"
loops = 2000

[[bench]]
kind = "command"
name = "echo"
argv = ["sh", "-c", "echo score=7"]
timeout_s = 10
[[bench.metric]]
key = "score"
regex = "score=([0-9]+)"
unit = "pts"
better = "higher"
)TOML";

Cli bootbench_cli(const TempDir& dir, std::vector<std::string> args) {
    args.insert(args.begin(), BOOTBENCH_EXE);
    return run_cli(dir, args);
}

} // namespace

TEST_CASE("run-suite: one run, stored as runs/<target>-<k>.json with its raw logs") {
    TempDir dir;
    testing::write(dir.path() / "exp.toml", kExperiment);
    std::string out = (dir.path() / "res").string();
    Cli first = bootbench_cli(
        dir, {"run-suite", (dir.path() / "exp.toml").string(), "--target", "tuned", "--out", out});
    INFO(first.err);
    CHECK(first.status == 0);
    CHECK(first.out.find("run tuned-1: ok (6 metrics, 0 missing)") == 0); // 3 of the system's
    CHECK(first.out.find("  score = 7 pts\n") != std::string::npos);
    auto j = nlohmann::json::parse(testing::read(dir.path() / "res/runs/tuned-1.json"));
    CHECK(j["schema"] == "bootbench-run/1");
    CHECK(j["run"] == "tuned-1");
    CHECK(j["target"] == "tuned");
    CHECK(j["experiment"] == "cli-test");
    CHECK(j["metrics"]["score"]["value"] == 7);
    CHECK(j["metrics"]["mem_used_mib"]["value"] > 0); // this machine's /proc/meminfo
    CHECK(j["metrics"]["mem_used_mib"]["better"] == "lower");
    CHECK(j["environment"].contains("energy"));
    CHECK(j.contains("canaries"));
    CHECK(j["deployment"]["checksum"] == ""); // this machine is not booted from ostree
    CHECK(fs::exists(dir.path() / "res/runs/tuned-1/perf-sched-pipe.stdout"));
    CHECK(first.err.find("bootbench: bench echo: running sh -c echo score=7") != std::string::npos);

    Cli second = bootbench_cli(
        dir, {"run-suite", (dir.path() / "exp.toml").string(), "--target=tuned", "--out", out});
    CHECK(second.status == 0);
    CHECK(fs::exists(dir.path() / "res/runs/tuned-2.json"));
}

TEST_CASE("run-suite: a run without metrics exits 1 and still stores its result") {
    TempDir dir;
    std::string text = kExperiment;
    text.replace(text.find("echo score=7"), 12, "exit 3");
    text.replace(text.find("loops = 2000"), 12, "loops = 2000\ntimeout_s = 1\nname = \"p\"");
    testing::write(dir.path() / "exp.toml", text);
    testing::write(dir.path() / "bin/perf", "#!/bin/sh\nsleep 30\n"); // a perf that hangs
    fs::permissions(dir.path() / "bin/perf", fs::perms::owner_all);
    std::string path = (dir.path() / "bin").string() + ":/usr/bin:/bin";
    Cli r = run_cli(dir, {"/usr/bin/env", "PATH=" + path, BOOTBENCH_EXE, "run-suite",
                          (dir.path() / "exp.toml").string(), "--target", "stock", "--out",
                          (dir.path() / "res").string()});
    CHECK(r.status == 1);
    // the system's 3 figures are there, but no bench gave a metric
    CHECK(r.out.find("run stock-1: failed (3 metrics, 3 missing)") == 0);
    CHECK(r.out.find("failure: no metric was collected: p: timed out after 1 s") !=
          std::string::npos);
    CHECK(fs::exists(dir.path() / "res/runs/stock-1.json"));
}

TEST_CASE("run-suite: bad input names the file, the option or the targets, exit 2") {
    TempDir dir;
    testing::write(dir.path() / "exp.toml", kExperiment);
    std::string file = (dir.path() / "exp.toml").string();
    Cli no_target = bootbench_cli(dir, {"run-suite", file});
    CHECK(no_target.status == 2);
    CHECK(no_target.err ==
          "bootbench: error: bootbench run-suite: --target NAME is required (targets in " + file +
              ": stock, tuned)\n");
    Cli unknown = bootbench_cli(dir, {"run-suite", file, "--target", "other"});
    CHECK(unknown.status == 2);
    CHECK(unknown.err == "bootbench: error: bootbench run-suite: target 'other' is not in " + file +
                             " (targets: stock, tuned)\n");
    Cli no_file = bootbench_cli(dir, {"run-suite", "/nonexistent.toml", "--target", "a"});
    CHECK(no_file.status == 2);
    CHECK(no_file.err == "bootbench: error: cannot read experiment file /nonexistent.toml: No such "
                         "file or directory\n");
    Cli no_args = bootbench_cli(dir, {"run-suite"});
    CHECK(no_args.status == 2);
    CHECK(
        no_args.err ==
        "bootbench: error: bootbench run-suite: expected one experiment file (see 'bootbench help "
        "run-suite')\n");
    testing::write(dir.path() / "file", "x");
    Cli bad_out = bootbench_cli(
        dir, {"run-suite", file, "--target", "stock", "--out", (dir.path() / "file").string()});
    CHECK(bad_out.status == 1);
    CHECK(bad_out.err == "bootbench: error: cannot create folder " +
                             (dir.path() / "file/runs").string() + ": Not a directory\n");
}

TEST_CASE("run-suite: SIGINT stops the bench and the load and exits 1 with what was running") {
    // With a bus, as on a desktop: the inhibitor's connection starts GDBus's
    // worker thread, which must not take the SIGINT (sys/probe/system_bus).
    testing::FakeLogind logind;
    REQUIRE(logind.ready());
    TempDir dir;
    std::string text = kExperiment;
    text.replace(text.find("echo score=7"), 12, "sleep 32.5");
    text.replace(text.find("timeout_s = 10"), 14, "timeout_s = 60");
    text.replace(text.find("[[bench]]"), 9, "[load]\ncpu_workers = 1\n\n[[bench]]");
    testing::write(dir.path() / "exp.toml", text);
    // 60 + the perf bench's derived limit (63 s) + the command's 60 s
    std::string load("stress-ng\0--cpu\0"
                     "1\0--timeout\0"
                     "183s\0",
                     33);
    sys::ProcessSpec spec{{BOOTBENCH_EXE, "run-suite", (dir.path() / "exp.toml").string(),
                           "--target", "stock", "--out", (dir.path() / "res").string()},
                          dir.path() / "cli.out",
                          dir.path() / "cli.err",
                          60};
    auto group = sys::ProcessGroup::spawn(spec);
    std::string sleeping("sleep\0"
                         "32.5\0",
                         11); // sh execs its last command
    // after the perf bench, under the load: slow on a loaded machine
    REQUIRE(testing::wait_until([&] { return testing::live_with_cmdline(sleeping) > 0; }, 50));
    REQUIRE(testing::live_with_cmdline(sleeping) == 1);
    // >= 1: stress-ng's worker carries the parent's command line until it renames
    // itself (seen once as 2 on a loaded machine); what matters is that the load runs.
    CHECK(testing::live_with_cmdline(load) >= 1);
    auto interrupted = std::chrono::steady_clock::now();
    ::kill(group.pgid(), SIGINT); // bootbench alone, as a terminal's Ctrl-C would reach it
    auto o = sys::finish_process(group, spec, nullptr);
    std::chrono::duration<double> stopping = std::chrono::steady_clock::now() - interrupted;
    CHECK(o.end == sys::ProcessEnd::exited);
    CHECK(o.exit_status == 1);
    CHECK(stopping.count() < 20); // well before the 32.5 s sleep would end
    CHECK(testing::read(spec.stderr_path)
              .find("bootbench: error: interrupted by SIGINT while running sh; its "
                    "processes were stopped and no result was written\n") != std::string::npos);
    // A killed child that was not bootbench's own may take a moment to be reaped.
    CHECK(testing::wait_until([&] { return testing::live_with_cmdline(sleeping) == 0; }));
    CHECK(testing::wait_until([&] { return testing::live_with_cmdline(load) == 0; }));
    CHECK_FALSE(fs::exists(dir.path() / "res/runs/stock-1.json"));
}

TEST_CASE("run-suite: holds logind's block inhibitor for sleep and idle while it measures, released after") {
    testing::FakeLogind logind; // a private bus; DBUS_SYSTEM_BUS_ADDRESS points at it
    REQUIRE(logind.ready());
    TempDir dir;
    std::string text = kExperiment;
    text.replace(text.find("echo score=7"), 12, logind.list_command() + "; echo score=7");
    testing::write(dir.path() / "exp.toml", text);
    Cli r = bootbench_cli(dir, {"run-suite", (dir.path() / "exp.toml").string(), "--target", "tuned", "--out",
                                (dir.path() / "res").string()});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.err.find("bootbench: sleep inhibitor: held (logind block sleep:idle)\n") != std::string::npos);
    // what logind had while the bench ran, and after bootbench exited
    CHECK(testing::read(dir.path() / "res/runs/tuned-1/echo.stdout") ==
          "sleep:idle bootbench block: bootbench run-suite is measuring\nscore=7\n");
    CHECK(logind.held() == "");
    auto j = nlohmann::json::parse(testing::read(dir.path() / "res/runs/tuned-1.json"));
    CHECK(j["environment"]["sleep_inhibitor"] == "held (logind block sleep:idle)");
}

TEST_CASE("run-suite: without logind it measures anyway and says why no inhibitor is held") {
    TempDir dir;
    testing::write(dir.path() / "exp.toml", kExperiment);
    Cli r = run_cli(dir, {"/usr/bin/env", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=" + (dir.path() / "no-bus").string(),
                          BOOTBENCH_EXE, "run-suite", (dir.path() / "exp.toml").string(), "--target", "tuned",
                          "--out", (dir.path() / "res").string()});
    CHECK(r.status == 0);
    std::string said = "not held: cannot take logind's sleep inhibitor: no system bus (Could not connect: No "
                       "such file or directory)";
    CHECK(r.err.find("bootbench: sleep inhibitor: " + said + "\n") != std::string::npos);
    auto j = nlohmann::json::parse(testing::read(dir.path() / "res/runs/tuned-1.json"));
    CHECK(j["environment"]["sleep_inhibitor"] == said);
}
