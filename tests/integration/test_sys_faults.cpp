// Real-host behaviour on sandbox sysroots: kernel arguments, pins, hung
// benchmarks, a full disk, the lock, and the CLI's dry run and refusals.
#include "../unit/catch.hpp"
#include "core/base/error.hpp"
#include "core/result/run_result.hpp"
#include "sandbox_fixture.hpp"
#include "sys/store/files.hpp"
#include "sys/store/lock.hpp"
#include "sys/ostree/unit_install.hpp"

#include <csignal>
#include <nlohmann/json.hpp>
#include <regex>
#include <cstdio>
#include <optional>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bootbench;
using namespace bootbench::test;

namespace {

core::RunResult result(Sandbox& sb, const std::string& run) {
    return core::run_result_from_json(nlohmann::json::parse(sb.result_files().at(run)), run);
}

std::vector<core::DeploymentInfo> deployments(Sandbox& sb) {
    sys::SandboxHost h = sb.host();
    return h.sysroot().deployments();
}

std::string boot_entries(Sandbox& sb) {
    std::string all;
    for (const auto& f : fs::directory_iterator(sb.layout.sysroot / "boot/loader/entries"))
        all += sys::read_text_file(f.path());
    return all;
}

} // namespace

TEST_CASE("a target with kernel arguments runs on its own deployment, removed at the end", "[faults][kargs]") {
    Sandbox sb(fast_experiment(2, "", "kargs = [\"bootbench.test=1\"]\n"));
    sb.start();
    REQUIRE(deployments(sb).size() == 4); // host, a, b and b with the extra argument
    CHECK(boot_entries(sb).find("bootbench.test=1") != std::string::npos);
    int boots = sb.boot_until_done();
    CHECK(boots == 5); // a b a b, then the original default finishes the cleanup
    auto b1 = result(sb, "b-1");
    CHECK(b1.deployment.checksum == sb.layout.targets.at("b").checksum);
    CHECK(b1.deployment.serial != sb.layout.targets.at("b").serial); // the kargs deployment
    CHECK(sb.state().phase == core::Phase::finished);
    CHECK(deployments(sb).size() == 3);
    CHECK(boot_entries(sb).find("bootbench.test=1") == std::string::npos);
    CHECK(sb.booted_name() == "host");
}

TEST_CASE("pins are restored to what they were before the experiment", "[faults][pins]") {
    Sandbox sb(fast_experiment(1));
    {
        sys::SandboxHost h = sb.host();
        h.sysroot().set_pinned(sb.layout.targets.at("a"), true);
    }
    sb.start();
    for (const auto& d : deployments(sb))
        if (d.ref == sb.layout.targets.at("b"))
            CHECK(d.pinned); // pinned for the experiment
    sb.boot_until_done();
    for (const auto& d : deployments(sb)) {
        if (d.ref == sb.layout.targets.at("a"))
            CHECK(d.pinned);
        if (d.ref == sb.layout.targets.at("b"))
            CHECK_FALSE(d.pinned);
    }
}

TEST_CASE("a hung benchmark is killed by its timeout and the run records the failure", "[faults][hung]") {
    Sandbox sb(fast_experiment(1, "", "", "echo started; sleep 600"));
    sb.start();
    sb.boot_until_done();
    auto r = result(sb, "a-1");
    CHECK(r.status == core::RunStatus::failed);
    REQUIRE(r.benches.size() == 1);
    CHECK(r.benches[0].status == core::BenchStatus::timeout);
    CHECK(sb.state().phase == core::Phase::finished);
    CHECK(sb.state().runs[0].status == core::SlotStatus::failed);
}

// One boot in a private mount namespace where the results' runs/ folder is a
// full tmpfs: a real ENOSPC. Returns the boot, or nullopt without CAP_SYS_ADMIN.
std::optional<sys::EmulatedBoot> boot_with_full_disk(Sandbox& sb) {
    fs::path runs = sb.results() / "runs";
    fs::create_directories(runs);
    int pipefd[2];
    REQUIRE(::pipe(pipefd) == 0);
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipefd[0]);
        int code[3] = {0, 0, 0}; // mounted, exit status, reboot requested
        if (::unshare(CLONE_NEWNS) == 0 && ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
            ::mount("tmpfs", runs.c_str(), "tmpfs", 0, "size=4k") == 0) {
            code[0] = 1;
            std::string fill(8192, 'x');
            FILE* f = std::fopen((runs / "fill").c_str(), "w");
            std::fwrite(fill.data(), 1, fill.size(), f);
            std::fclose(f);
            auto b = sb.boot();
            code[1] = b.exit_status;
            code[2] = b.reboot_requested;
        }
        ssize_t n = ::write(pipefd[1], code, sizeof code);
        ::_exit(n == sizeof code ? 0 : 1);
    }
    ::close(pipefd[1]);
    int code[3] = {0, 0, 0};
    REQUIRE(::read(pipefd[0], code, sizeof code) == sizeof code);
    ::close(pipefd[0]);
    ::waitpid(pid, nullptr, 0);
    if (!code[0])
        return std::nullopt;
    sys::EmulatedBoot b;
    b.exit_status = code[1];
    b.reboot_requested = code[2] != 0;
    return b;
}

TEST_CASE("a full disk while writing a result leaves the previous state intact", "[faults][disk]") {
    Sandbox sb(fast_experiment(1));
    sb.start();
    auto b = boot_with_full_disk(sb);
    // meson's disk-full test skips (exit 77) where no tmpfs can be mounted;
    // run here, that is a failure, never a pass with nothing checked.
    if (!b)
        FAIL("cannot mount a full tmpfs (needs CAP_SYS_ADMIN): run `meson test disk-full`, which skips then");
    CHECK(b->exit_status == 1); // the unit fails, visibly, in the journal
    CHECK_FALSE(b->reboot_requested);
    core::State s = sb.state(); // the previous state, valid
    CHECK(s.current == 0);
    CHECK(s.runs[0].status == core::SlotStatus::pending);
    CHECK(s.runs[0].attempts == 1);
    CHECK(sb.result_files().empty());
    for (const auto& f : fs::recursive_directory_iterator(sb.paths().dir))
        CHECK(f.path().string().find(".tmp.") == std::string::npos); // no half-written files
    // With space again, the next boot measures the run again and goes on.
    sb.boot_until_done();
    CHECK(sb.state().phase == core::Phase::finished);
    CHECK(sb.result_files().size() == 2);
}

TEST_CASE("one bootbench at a time: the lock names its holder", "[faults][lock]") {
    Sandbox sb(fast_experiment(1));
    fs::path lock = sb.dir / "lock";
    sys::ExperimentLock held(lock, "start of experiment loop");
    pid_t pid = ::fork();
    if (pid == 0) { // flock is per open file: another process must see it held
        try {
            sys::ExperimentLock second(lock, "abort");
            ::_exit(0);
        } catch (const Error& e) {
            std::string msg = e.what();
            bool ok = msg.find("another bootbench is at work here (start of experiment loop, pid ") == 0 &&
                      msg.find("see 'bootbench status'") != std::string::npos;
            ::_exit(ok ? 3 : 4);
        }
    }
    int st = 0;
    ::waitpid(pid, &st, 0);
    CHECK(WEXITSTATUS(st) == 3);
}

TEST_CASE("start --dry-run prints the changes and changes nothing", "[faults][dry-run]") {
    Sandbox sb(fast_experiment(2, "", "kargs = [\"x=1\"]\n"));
    fs::path path = sb.dir / "exp.toml";
    sys::write_file_atomic(path, sb.text);
    std::string before = tree_listing(sb.layout.sysroot);
    CliResult r = run_cli({"start", "--dry-run", "--sysroot", sb.layout.sysroot.string(), path.string()});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("dry run: nothing is changed") != std::string::npos);
    CHECK(r.out.find("deploy sandbox/" + sb.layout.targets.at("b").checksum) != std::string::npos);
    CHECK(r.out.find("pin sandbox/" + sb.layout.targets.at("a").checksum) != std::string::npos);
    CHECK(r.out.find("install bootbench-resume.service") != std::string::npos);
    CHECK(r.out.find("(run a-1) and reboot") != std::string::npos);
    CHECK(tree_listing(sb.layout.sysroot) == before);
}

TEST_CASE("start refuses targets it cannot find, listing the deployments", "[faults][resolve]") {
    Sandbox sb(fast_experiment(1));
    std::string text = sb.text;
    text.replace(text.find("ghcr.io/x/b:stable"), 18, "ghcr.io/x/zz:stable");
    fs::path path = sb.dir / "exp.toml";
    sys::write_file_atomic(path, text);
    std::string before = tree_listing(sb.layout.sysroot);
    CliResult r = run_cli({"start", "--sysroot", sb.layout.sysroot.string(), path.string()});
    CHECK(r.status == 2);
    CHECK(r.err.find("bootbench: error: target 'b': no deployment has image ghcr.io/x/zz:stable; add it "
                     "with 'bootc switch --retain ghcr.io/x/zz:stable'") == 0);
    CHECK(r.err.find("deployments in " + sb.layout.sysroot.string() + ":\n  0: sandbox/") != std::string::npos);
    CHECK(tree_listing(sb.layout.sysroot) == before);
}

TEST_CASE("status counts partial runs and says what made them partial", "[faults][status]") {
    Sandbox sb(fast_experiment(2) + "\n[[bench]]\nkind = \"command\"\nname = \"gone\"\n"
                                    "argv = [\"no-such-tool-xyz\"]\ntimeout_s = 2\n[[bench.metric]]\nkey = \"gone_value\"\n"
                                    "regex = 'v ([0-9]+)'\nunit = \"x\"\nbetter = \"higher\"\n");
    sb.start();
    sb.boot();
    CliResult r = run_cli({"status", "--sysroot", sb.layout.sysroot.string()});
    INFO(r.err);
    CHECK(r.out.find("runs: 1 done (1 partial: gone failed (program 'no-such-tool-xyz' not found)), "
                     "0 failed, of 4") != std::string::npos);
    auto doc = nlohmann::json::parse(run_cli({"status", "--json", "--sysroot", sb.layout.sysroot.string()}).out);
    CHECK(doc["runs_partial"] == 1);
}

TEST_CASE("status tells where an experiment stands", "[faults][status]") {
    Sandbox sb(fast_experiment(2));
    sb.start();
    sb.boot();
    CliResult r = run_cli({"status", "--sysroot", sb.layout.sysroot.string()});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("experiment loop: running") != std::string::npos);
    CHECK(r.out.find("runs: 1 done, 0 failed, of 4") != std::string::npos);
    CHECK(r.out.find("next: run 2 of 4, b-1") != std::string::npos);
    CHECK(r.out.find("last result: a-1 (ok)") != std::string::npos);
    CliResult j = run_cli({"status", "--json", "--sysroot", sb.layout.sysroot.string()});
    auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["current"]["run"] == "b-1");
    CHECK(doc["runs_done"] == 1);
    // every time in --json is ISO 8601 with its offset, like started_at
    const std::regex iso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d)");
    CHECK(std::regex_match(doc["started_at"].get<std::string>(), iso));
    CHECK(std::regex_match(doc["estimated_finish"].get<std::string>(), iso));
    CHECK(r.out.find("(target b, 0 attempts so far)") != std::string::npos);
}

TEST_CASE("experiment file errors come before anything is touched", "[faults][cli]") {
    Sandbox sb(fast_experiment(1));
    fs::path path = sb.dir / "bad.toml";
    sys::write_file_atomic(path, "[experiment]\nname = \"x\"\nruns = 0\n");
    std::string before = tree_listing(sb.layout.sysroot);
    for (const char* verb : {"start", "plan", "simulate"}) {
        CliResult r = run_cli({verb, path.string()});
        CHECK(r.status == 2);
        CHECK(r.err.find("bootbench: error: " + path.string() + ":1:1: missing experiment.baseline\n") == 0);
        CHECK(r.err.find("\n" + path.string() + ":1:1: missing [[target]] tables\n") != std::string::npos);
        CHECK(r.err.find("\n" + path.string() + ":3:1: experiment.runs must be between 1 and 1000 (got 0)\n") != std::string::npos);
    }
    CHECK(tree_listing(sb.layout.sysroot) == before);
    CliResult missing = run_cli({"plan", (sb.dir / "nope.toml").string()});
    CHECK(missing.status == 2);
    CHECK(missing.err == "bootbench: error: cannot read experiment file " + (sb.dir / "nope.toml").string() +
                             ": No such file or directory\n");
}

TEST_CASE("stage = true adds a missing image target with the system's own tool", "[faults][stage]") {
    Sandbox sb(fast_experiment(1, "", "stage = true\n"));
    std::string text = sb.text;
    text.replace(text.find("ghcr.io/x/b:stable"), 18, "ghcr.io/x/zz:stable");
    fs::path path = sb.dir / "exp.toml";
    sys::write_file_atomic(path, text);
    // bootc is not packaged on Debian: a stand-in on PATH records how it was called.
    fs::path bin = sb.dir / "bin", calls = sb.dir / "bootc-calls";
    fs::create_directories(bin);
    sys::write_file_atomic(bin / "bootc", "#!/bin/sh\necho \"$@\" >> '" + calls.string() + "'\nexit ${BOOTC_EXIT:-0}\n", 0755);
    std::string old_path = std::getenv("PATH");
    ::setenv("PATH", (bin.string() + ":" + old_path).c_str(), 1);
    std::string before = tree_listing(sb.layout.sysroot);

    CliResult dry = run_cli({"start", "--dry-run", "--sysroot", sb.layout.sysroot.string(), path.string()});
    CHECK(dry.status == 0);
    CHECK(dry.out.find("image digests:\n  b: digest not resolved, results name the tag only") == 0);
    CHECK(dry.out.find("\ntarget b is not deployed; staging it with: bootc switch --retain "
                       "--enforce-container-sigpolicy ghcr.io/x/zz:stable\n  would pin " +
                       core::describe(sb.layout.targets.at("a")) +
                       " so that the staging does not delete it (unpinned at the end)\n  would pin " +
                       core::describe(sb.layout.host_default) +
                       " so that the staging does not delete it (unpinned at the end)\ndry run: nothing is changed\n") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(calls));
    CHECK(tree_listing(sb.layout.sysroot) == before);

    CliResult real = run_cli({"start", "--sysroot", sb.layout.sysroot.string(), path.string()});
    CHECK(real.status == 0);
    CHECK(real.out.find("staged b: it becomes a deployment at the next boot") != std::string::npos);
    CHECK(sys::read_text_file(calls) == "switch --retain --enforce-container-sigpolicy ghcr.io/x/zz:stable\n");
    before = tree_listing(sb.layout.sysroot); // with the pins for the staging

    ::setenv("BOOTC_EXIT", "3", 1);
    CliResult failed = run_cli({"start", "--sysroot", sb.layout.sysroot.string(), path.string()});
    ::unsetenv("BOOTC_EXIT");
    ::setenv("PATH", old_path.c_str(), 1);
    CHECK(failed.status == 1);
    CHECK(failed.err == "bootbench: error: staging failed: 'bootc switch --retain --enforce-container-sigpolicy "
                        "ghcr.io/x/zz:stable' exited with 3; the pins made for it are undone, nothing else was "
                        "changed\n");
    CHECK(tree_listing(sb.layout.sysroot) == before);
}

TEST_CASE("abort --sysroot on an offline sysroot puts it back fully", "[faults][abort]") {
    Sandbox sb(fast_experiment(1, "", "kargs = [\"bootbench.test=1\"]\n"));
    sb.start();
    sb.boot(); // a-1 measured; the kargs deployment of b is the default now
    REQUIRE(deployments(sb).size() == 4);
    CliResult r = run_cli({"abort", "--sysroot", sb.layout.sysroot.string()});
    INFO(r.err);
    CHECK(r.status == 0);
    core::State s = sb.state();
    CHECK(s.phase == core::Phase::aborted);
    CHECK(sb.booted_name() == "host");
    CHECK(deployments(sb).size() == 3); // the kargs deployment is gone: nothing runs from it
    for (const auto& d : deployments(sb)) {
        CHECK_FALSE(d.pinned);
        CHECK_FALSE(sys::unit_installed(sb.host().etc_dir(d.ref)));
    }
    CHECK(sb.result_files().size() == 1);
}
