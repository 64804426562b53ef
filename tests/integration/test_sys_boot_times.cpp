// Boot times from systemd (sys/probe/boot_times): the wait for the boot to finish
// and the result's record, with fake D-Bus answers; and once the real read,
// which on a machine without a system bus says so and fails nothing.
#include "catch.hpp"
#include "fake_tree.hpp"
#include "helpers.hpp"
#include "sys/probe/boot_times.hpp"
#include "sys/run/suite.hpp"

using namespace bootbench;
using namespace bootbench::core;
using testing::TempDir;
namespace fs = std::filesystem;

namespace {

// A manager whose boot finishes after `unfinished` reads; or no manager.
class FakeBootTimes final : public sys::BootTimesSource {
  public:
    int unfinished = 0;
    bool no_manager = false;
    int reads = 0;
    std::optional<SystemdTimestamps> read(std::string& problem) override {
        ++reads;
        if (no_manager) {
            problem = "no systemd manager on the system bus (Could not connect: No such file or directory)";
            return std::nullopt;
        }
        SystemdTimestamps t;
        t.initrd_us = 1'500'000;
        t.userspace_us = 4'250'000;
        t.security_start_us = 4'260'000;
        t.finish_us = reads > unfinished ? 19'750'000 : 0;
        return t;
    }
};

RunResult run_with(const Experiment& e, sys::BootTimesSource* source, testing::FakeClock& clock,
                   const fs::path& dir, const fs::path& tree) {
    sys::SuiteRequest req;
    req.experiment = &e;
    req.target = &e.targets[0];
    req.run_id = "a-1";
    req.run_dir = dir / "runs" / "a-1";
    req.probe_root = tree;
    req.boot_times = source;
    return sys::run_suite(req, clock);
}

} // namespace

TEST_CASE("boot times: bootbench waits, a second at a time, until systemd says the boot finished") {
    FakeBootTimes fake;
    fake.unfinished = 3;
    testing::FakeClock clock;
    sys::BootMeasurement m = sys::measure_boot(fake, clock, 300);
    CHECK(fake.reads == 4);
    CHECK(clock.sleeps == 3);
    CHECK(m.finish_monotonic_us == 19'750'000);
    CHECK(m.described == "systemd: Startup finished in 1.500s (kernel) + 2.750s (initrd) + 15.500s (userspace) = 19.750s");
    REQUIRE(m.metrics.metrics.size() == 4);
    CHECK(m.metrics.metrics.back().key == "boot_total_s");
    CHECK(m.metrics.metrics.back().value == Approx(19.75));
}

TEST_CASE("boot times: a boot that never finishes is waited for a bounded time, then said") {
    FakeBootTimes fake;
    fake.unfinished = 1'000'000;
    testing::FakeClock clock;
    sys::BootMeasurement m = sys::measure_boot(fake, clock, 300);
    CHECK(clock.now == Approx(300));
    CHECK(m.metrics.metrics.empty());
    CHECK(m.finish_monotonic_us == 0);
    CHECK(m.described ==
          "not measured: the boot had not finished after 300 s (FinishTimestampMonotonic is 0)");
}

TEST_CASE("boot times: no manager on the bus is said once, without waiting") {
    FakeBootTimes fake;
    fake.no_manager = true;
    testing::FakeClock clock;
    sys::BootMeasurement m = sys::measure_boot(fake, clock, 300);
    CHECK(fake.reads == 1);
    CHECK(clock.sleeps == 0);
    CHECK(m.described == "not measured: no systemd manager on the system bus (Could not connect: No such "
                         "file or directory)");
}

TEST_CASE("run_suite: the boot's times are metrics of the run, and the boot finished before the benches") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    FakeBootTimes fake;
    fake.unfinished = 2;
    testing::FakeClock clock;
    clock.now = 10; // the unit starts 10 s into the boot (CLOCK_MONOTONIC)
    RunResult r = run_with(testing::one_command_bench("true"), &fake, clock, dir.path(), tree.path());
    INFO(nlohmann::json(to_json(r)).dump(2));
    CHECK(r.status == RunStatus::ok);
    REQUIRE(r.find("boot_total_s"));
    CHECK(r.find("boot_total_s")->value == Approx(19.75));
    CHECK(r.find("boot_total_s")->bench == "boot");
    CHECK(r.find("boot_userspace_s")->value == Approx(15.5));
    CHECK_FALSE(r.find("boot_firmware_s")); // absent, not zero
    CHECK(r.missing.empty());
    CHECK(core::to_json(r.environment)["boot_times"] ==
          "systemd: Startup finished in 1.500s (kernel) + 2.750s (initrd) + 15.500s (userspace) = 19.750s");
    CHECK(core::to_json(r.environment)["boot_finish_monotonic_us"] == 19'750'000);
    CHECK(core::to_json(r.environment)["benches_start_monotonic_us"] == 12'000'000); // after two 1 s waits
}

TEST_CASE("run_suite: boot times off, or no boot of its own, are said in the environment") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    FakeBootTimes fake;
    testing::FakeClock clock;
    Experiment off = testing::one_command_bench("true");
    off.boot.measure = false;
    RunResult r = run_with(off, &fake, clock, dir.path(), tree.path());
    CHECK(fake.reads == 0);
    CHECK(core::to_json(r.environment)["boot_times"] == "not measured: [boot] measure = false");
    CHECK_FALSE(r.find("boot_total_s"));
    CHECK_FALSE(core::to_json(r.environment).contains("boot_finish_monotonic_us"));
    TempDir dir2;
    RunResult sandbox = run_with(testing::one_command_bench("true"), nullptr, clock, dir2.path(), tree.path());
    CHECK(core::to_json(sandbox.environment)["boot_times"] == "not measured: no boot of its own (a sandbox or a test)");
    CHECK(sandbox.status == RunStatus::ok);
}

TEST_CASE("run_suite: boot times alone are no result: a run whose benches all failed fails") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    FakeBootTimes fake;
    testing::FakeClock clock;
    Experiment e = testing::one_command_bench("true");
    e.benches[0].argv = {"sh", "-c", "exit 3"};
    RunResult r = run_with(e, &fake, clock, dir.path(), tree.path());
    CHECK(r.find("boot_total_s"));
    CHECK(r.status == RunStatus::failed);
}

TEST_CASE("the real read on this machine: boot times, or why not, never an exception") {
    sys::SystemdBootTimes real;
    std::string problem;
    auto t = real.read(problem);
    if (t)
        CHECK(t->userspace_us > 0);
    else
        CHECK(problem.rfind("no systemd manager on the system bus (", 0) == 0);
}
