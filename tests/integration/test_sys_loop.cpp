// The reboot loop on a sandbox: every boot is a fresh `bootbench resume`
// process picked by the emulated bootloader; nothing passes between boots
// except what is on disk.
#include "../unit/catch.hpp"
#include "../unit/error_of.hpp"
#include "core/base/error.hpp"
#include "core/result/run_result.hpp"
#include "sandbox_fixture.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/unit_install.hpp"

#include <csignal>
#include <map>
#include <cstdlib>
#include <sys/wait.h>
#include <nlohmann/json.hpp>

using namespace bootbench;
using namespace bootbench::test;

namespace {

bool any_pinned(Sandbox& sb) {
    sys::SandboxHost h = sb.host();
    for (const auto& d : h.sysroot().deployments())
        if (d.pinned)
            return true;
    return false;
}

// Boots until the end, recording which deployment each boot was.
std::vector<std::string> boot_order(Sandbox& sb, int max_boots = 40) {
    std::vector<std::string> order;
    for (int n = 0; n < max_boots; ++n) {
        auto b = sb.boot();
        order.push_back(sb.name_of(b.booted_dir));
        if (!b.killed_by && !b.reboot_requested)
            return order;
    }
    FAIL("no end");
    return order;
}

} // namespace

TEST_CASE("the whole loop: each run boots its target, the machine ends as it began", "[loop]") {
    Sandbox sb(fast_experiment(2));
    sb.start();
    CHECK(sb.booted_name() == "a"); // run a-1 boots next
    CHECK(any_pinned(sb));
    // host (start) -> a b a b -> host (restored), each boot a fresh process
    CHECK(boot_order(sb) == std::vector<std::string>{"a", "b", "a", "b", "host"});
    core::State s = sb.state();
    CHECK(s.phase == core::Phase::finished);
    CHECK(s.count(core::SlotStatus::done) == 4);
    auto results = sb.result_files();
    REQUIRE(results.size() == 4);
    for (const auto& [id, text] : results) {
        auto r = core::run_result_from_json(nlohmann::json::parse(text), id);
        CHECK(r.status == core::RunStatus::ok);
        REQUIRE(r.find("echo_value"));
        CHECK(r.find("echo_value")->value == 42.5);
        // The guest recorded what it booted: the target's own deployment.
        CHECK(r.deployment.checksum == sb.layout.targets.at(r.target).checksum);
    }
    CHECK(sb.booted_name() == "host");
    CHECK(no_units_left(sb));
    CHECK_FALSE(any_pinned(sb));
    CHECK(fs::exists(sb.results() / "report.md"));
    CHECK(fs::exists(sb.results() / "report.json"));
    REQUIRE(fs::exists(sb.results() / "bootbench.log"));
    // Each switch is announced before it starts: the VM's power-cut scenario
    // cuts the power on this line.
    std::string log = sys::read_text_file(sb.results() / "bootbench.log");
    CHECK(log.find("switching the default to ") != std::string::npos);
}

TEST_CASE("a kill at every state transition: the next boot goes on, no result is lost", "[loop][crash]") {
    const char* points[] = {"start-state-written", "attempt-started", "suite-done", "result-stored",
                            "state-advanced", "default-switched", "default-recorded",
                            "original-restored", "units-removed", "finished"};
    for (const char* point : points) {
        DYNAMIC_SECTION("crash at " << point) {
            Sandbox sb(fast_experiment(2));
            fs::path marker = sb.dir / "crashed";
            if (std::string(point) == "start-state-written") {
                // start itself dies: abort must put everything back.
                pid_t pid = ::fork();
                if (pid == 0) {
                    ::setenv("BOOTBENCH_TEST_CRASH_AT", point, 1);
                    try { sb.start(); } catch (...) {}
                    ::_exit(0);
                }
                int st = 0;
                ::waitpid(pid, &st, 0);
                CHECK(WIFSIGNALED(st));
                sys::SandboxHost h = sb.host();
                CHECK(sb.boot_until_done() == 1); // phase "starting": the unit does nothing
                sys::abort_experiment(h, sb.clock);
                CHECK(no_units_left(sb));
                CHECK_FALSE(any_pinned(sb));
                CHECK(sb.booted_name() == "host");
                continue;
            }
            sb.start();
            // Only the boots' processes see the hook, never this test process.
            ScopedEnv hook({{"BOOTBENCH_TEST_CRASH_AT", point}, {"BOOTBENCH_TEST_CRASH_MARKER", marker.string()}});
            std::map<std::string, std::string> at_crash;
            int boots = 0;
            for (; boots < 40; ++boots) {
                auto b = sb.boot();
                if (b.killed_by) {
                    CHECK(b.killed_by == SIGKILL);
                    at_crash = sb.result_files();
                }
                if (!b.killed_by && !b.reboot_requested)
                    break;
            }
            REQUIRE(fs::exists(marker)); // the crash did happen
            core::State s = sb.state();
            CHECK(s.phase == core::Phase::finished);
            CHECK(s.count(core::SlotStatus::done) == 4);
            auto final_results = sb.result_files();
            CHECK(final_results.size() == 4);
            for (const auto& [id, text] : at_crash)
                CHECK(final_results[id] == text); // finished results unchanged
            CHECK(sb.booted_name() == "host");
            CHECK(no_units_left(sb));
            CHECK_FALSE(any_pinned(sb));
        }
    }
}

TEST_CASE("a wrong boot is not recorded, counts an attempt, and is retried", "[loop][wrong-boot]") {
    Sandbox sb(fast_experiment(1));
    sb.start();
    CHECK(sb.boot().reboot_requested); // a-1 measured; b is default now
    REQUIRE(sb.booted_name() == "b");
    // The bootloader falls back to a (as a failed boot counter would).
    sb.host().sysroot().set_default(sb.layout.targets.at("a"));
    auto wrong = sb.boot();
    CHECK(sb.name_of(wrong.booted_dir) == "a");
    CHECK(wrong.reboot_requested);
    CHECK(sb.result_files().size() == 1); // nothing recorded for b-1 from a's boot
    core::State s = sb.state();
    CHECK(s.current_run()->run_id == "b-1");
    CHECK(s.current_run()->attempts == 1);
    CHECK(sb.booted_name() == "b"); // the expected one is default again
    sb.boot_until_done();
    s = sb.state();
    CHECK(s.phase == core::Phase::finished);
    CHECK(s.runs[1].status == core::SlotStatus::done);
    auto r = core::run_result_from_json(nlohmann::json::parse(sb.result_files()["b-1"]), "b-1");
    CHECK(r.deployment.checksum == sb.layout.targets.at("b").checksum);
    CHECK(r.attempt == 2);
}

TEST_CASE("after max_attempts wrong boots the run fails and the experiment goes on", "[loop][wrong-boot]") {
    Sandbox sb(fast_experiment(1, "max_attempts = 2\n"));
    sb.start();
    sb.boot(); // a-1
    for (int i = 0; i < 2; ++i) {
        sb.host().sysroot().set_default(sb.layout.targets.at("a"));
        sb.boot();
    }
    core::State s = sb.state();
    CHECK(s.runs[1].status == core::SlotStatus::failed);
    CHECK(s.runs[1].failure.find("did not boot in 2 attempts") != std::string::npos);
    sb.boot_until_done();
    CHECK(sb.state().phase == core::Phase::finished);
    auto r = core::run_result_from_json(nlohmann::json::parse(sb.result_files()["b-1"]), "b-1");
    CHECK(r.status == core::RunStatus::failed);
    CHECK(sb.booted_name() == "host");
}

TEST_CASE("on_boot_failure = stop ends the experiment and restores the machine", "[loop][wrong-boot]") {
    Sandbox sb(fast_experiment(2, "max_attempts = 1\non_boot_failure = \"stop\"\n"));
    sb.start();
    sb.boot(); // a-1
    sb.host().sysroot().set_default(sb.layout.targets.at("a"));
    sb.boot_until_done();
    core::State s = sb.state();
    CHECK(s.phase == core::Phase::finished);
    CHECK(s.stop_reason.find("stopped after run b-1 failed") == 0);
    CHECK(s.count(core::SlotStatus::done) == 1);
    CHECK(sb.booted_name() == "host");
    CHECK(no_units_left(sb));
}

TEST_CASE("a corrupt state file stops with the path and how to recover", "[loop][corrupt]") {
    Sandbox sb(fast_experiment(2));
    sb.start();
    sb.boot();
    fs::path state = sb.paths().state();
    std::string text = sys::read_text_file(state);
    sys::write_file_atomic(state, text.substr(0, text.size() / 2)); // truncated
    auto b = sb.boot();
    CHECK(b.exit_status == 1);
    CHECK_FALSE(b.reboot_requested);
    try {
        sys::load_state(state);
        FAIL("a truncated state loaded");
    } catch (const Error& e) {
        std::string msg = e.what();
        CHECK(msg.find(state.string() + ": the state file is corrupt or truncated") == 0);
        CHECK(msg.find("run 'bootbench abort'") != std::string::npos);
    }
    // abort falls back to the state start wrote and puts everything back
    sys::SandboxHost h = sb.host();
    sys::abort_experiment(h, sb.clock);
    CHECK(sb.booted_name() == "host");
    CHECK(no_units_left(sb));
    CHECK_FALSE(any_pinned(sb));
    CHECK(sb.result_files().size() == 1); // a-1 kept
}

TEST_CASE("abort in the middle keeps the results and restores the machine", "[loop][abort]") {
    Sandbox sb(fast_experiment(2));
    sb.start();
    sb.boot();
    sb.boot();
    sys::SandboxHost h = sb.host();
    sys::abort_experiment(h, sb.clock);
    core::State s = sb.state();
    CHECK(s.phase == core::Phase::aborted);
    CHECK(s.stop_reason == "aborted by the user");
    CHECK(sb.result_files().size() == 2);
    CHECK(sb.booted_name() == "host");
    CHECK(no_units_left(sb));
    CHECK_FALSE(any_pinned(sb));
    CHECK(fs::exists(sb.results() / "report.md"));
    CHECK(sb.boot_until_done() == 1); // nothing runs any more
}

TEST_CASE("a second start is refused while one runs", "[loop]") {
    Sandbox sb(fast_experiment(1));
    sb.start();
    try {
        sb.start();
        FAIL("second start accepted");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) == "experiment 'loop' is already running here (running, run 1 of 2); "
                                       "see it with 'bootbench status', stop it with 'bootbench abort'");
    }
}

namespace {

// The real clock, except that every timestamp names the same second.
class SameSecondClock final : public sys::Clock {
public:
    double monotonic_s() override { return real_.monotonic_s(); }
    double since_boot_s() override { return real_.since_boot_s(); }
    std::string now_iso8601() override { return "2026-11-30T10:00:00+00:00"; }
    void sleep_s(double seconds) override { real_.sleep_s(seconds); }

private:
    sys::RealClock real_;
};

} // namespace

TEST_CASE("abort and start again within one second keep every earlier results folder", "[loop][abort]") {
    Sandbox sb(fast_experiment(1));
    SameSecondClock clock;
    sys::StartOptions options;
    options.binary = BOOTBENCH_BIN;
    options.reboot = false;
    for (int i = 0; i < 3; ++i) {
        sys::SandboxHost h = sb.host();
        sys::start_experiment(h, sb.experiment, sb.text, sb.layout.targets, clock, options);
        sys::write_file_atomic(sb.results() / "mark", std::to_string(i));
        sys::abort_experiment(h, clock);
    }
    fs::path base = sb.results();
    CHECK(sys::read_text_file(base / "mark") == "2");
    CHECK(sys::read_text_file(base.string() + ".before-2026-11-30T10:00:00+00:00/mark") == "0");
    CHECK(sys::read_text_file(base.string() + ".before-2026-11-30T10:00:00+00:00-2/mark") == "1");
}

TEST_CASE("a number out of range in the state names the file, and abort falls back", "[loop][corrupt]") {
    Sandbox sb(fast_experiment(1));
    sb.start();
    sb.boot();
    fs::path state = sb.paths().state();
    std::string text = sys::read_text_file(state);
    size_t at = text.find("\"max_attempts\": 3");
    REQUIRE(at != std::string::npos);
    sys::write_file_atomic(state, text.replace(at, 17, "\"max_attempts\": 1e999"));
    auto b = sb.boot();
    CHECK(b.exit_status == 1);
    CHECK_FALSE(b.reboot_requested);
    std::string msg = error_of([&] { sys::load_state(state); });
    CHECK(msg.find(state.string() + ": the state file is corrupt or truncated (") == 0);
    CHECK(msg.find("number overflow") != std::string::npos);
    CHECK(msg.find("run 'bootbench abort'") != std::string::npos);
    CliResult r = run_cli({"abort", "--sysroot", sb.layout.sysroot.string()});
    CHECK(r.status == 0);
    CHECK(r.err.find("bootbench: " + msg + "\nbootbench: falling back to " + sb.paths().initial_state().string() +
                     "\n") == 0);
    CHECK(sb.state().phase == core::Phase::aborted);
    CHECK(sb.booted_name() == "host");
    CHECK(no_units_left(sb));
    CHECK_FALSE(any_pinned(sb));
    CHECK(sb.result_files().size() == 1); // a-1 kept
}

TEST_CASE("a run id from the state cannot write outside the results", "[loop][corrupt]") {
    Sandbox sb(fast_experiment(1));
    sb.start();
    fs::path state = sb.paths().state();
    std::string text = sys::read_text_file(state);
    size_t at = text.find("\"a-1\"");
    REQUIRE(at != std::string::npos);
    sys::write_file_atomic(state, text.replace(at, 5, "\"../../../escaped-1\""));
    auto b = sb.boot();
    CHECK(b.exit_status == 1);
    CHECK_FALSE(b.reboot_requested);
    CHECK(error_of([&] { sys::load_state(state); }) ==
          state.string() + ": runs: field 'run' '../../../escaped-1' is not a valid run id: a target name, '-' "
                           "and a number, such as 'a-1'. The experiment cannot go on from a damaged state; run "
                           "'bootbench abort' to put the machine back (it falls back to " +
              sb.paths().initial_state().string() + ") and keep the results collected so far");
    CHECK_FALSE(fs::exists(sb.paths().dir / "escaped-1.json"));
    CHECK_FALSE(fs::exists(sb.paths().dir / "escaped-1"));
}

TEST_CASE("each result says whether its boot was the first after a deployment switch", "[loop][boot]") {
    Sandbox sb(fast_experiment(2, "order = \"blocked\"\n"));
    sb.start(); // from the host's deployment
    CHECK(boot_order(sb) == std::vector<std::string>{"a", "a", "b", "b", "host"});
    std::map<std::string, bool> after_switch;
    for (const auto& [id, text] : sb.result_files()) {
        auto r = core::run_result_from_json(nlohmann::json::parse(text), id);
        REQUIRE(core::to_json(r.environment).contains("first_boot_after_switch"));
        after_switch[r.run_id] = core::to_json(r.environment)["first_boot_after_switch"].get<bool>();
        CHECK(core::to_json(r.environment)["boot_times"] == "not measured: no boot of its own (a sandbox or a test)");
    }
    CHECK(after_switch == std::map<std::string, bool>{{"a-1", true}, {"a-2", false}, {"b-1", true}, {"b-2", false}});
    CHECK(sb.state().last_booted == sb.layout.targets.at("b")); // the finished state is read, never noted
}
