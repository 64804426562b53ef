#include "catch.hpp"
#include "core/base/error.hpp"
#include "fake_tree.hpp"
#include "sys/run/background_load.hpp"
#include "sys/probe/conditions_gate.hpp"
#include "sys/probe/quiet_units.hpp"
#include "sys/store/user_lines.hpp"

#include <cstdlib>
#include <functional>

using namespace bootbench;
using namespace bootbench::sys;
using testing::FakeClock;
using testing::TempDir;

namespace {

// Sensors whose temperature follows the fake clock.
class FakeSensors final : public Sensors {
  public:
    explicit FakeSensors(FakeClock& clock) : clock_(clock) {}
    std::function<std::optional<double>(double)> temp = [](double) { return 40.0; };
    std::map<std::string, std::string> govs;
    bool refuse_writes = false;
    int reads = 0;

    std::optional<TempReading> cpu_temperature() override {
        ++reads;
        auto t = temp(clock_.now);
        return t ? std::optional<TempReading>(TempReading{*t, "fake Tctl"}) : std::nullopt;
    }
    std::map<std::string, std::string> governors() override { return govs; }
    void set_governor(const std::string& policy, const std::string& governor) override {
        if (refuse_writes)
            throw Error("cannot set the governor of " + policy);
        govs[policy] = governor;
    }

  private:
    FakeClock& clock_;
};

core::Conditions gate(double max_c = 55, int timeout_s = 600) {
    core::Conditions c;
    c.settle_s = 0;
    c.max_start_temp_c = max_c;
    c.temp_wait_timeout_s = timeout_s;
    return c;
}

const core::ConditionRecord& last(const GateOutcome& o) {
    return o.records.back();
}

} // namespace

TEST_CASE("gate: waits for the CPU to cool, sleeping, reading every 5 s") {
    TempDir dir;
    FakeClock clock;
    FakeSensors sensors(clock);
    sensors.temp = [](double now) { return 70.0 - now; }; // cools 1 C a second
    auto out = pass_gate(gate(), dir.path(), sensors, clock, nullptr);
    CHECK(out.failure.empty());
    CHECK(clock.now == 15);
    CHECK(sensors.reads == 4);
    CHECK(clock.sleeps == 3);
    CHECK(last(out).check == core::ConditionCheck::temperature);
    CHECK(last(out).found == "55.0 C (fake Tctl)");
    CHECK(last(out).decision == core::ConditionDecision::run);
    CHECK(last(out).detail == "after waiting 15 s to cool");
    REQUIRE(out.start_temp);
    CHECK(out.start_temp->celsius == 55);
}

TEST_CASE("gate: on timeout, run and flag, or fail with the reason") {
    TempDir dir;
    FakeClock clock;
    FakeSensors sensors(clock);
    sensors.temp = [](double) { return 70.0; };
    auto flagged = pass_gate(gate(55, 60), dir.path(), sensors, clock, nullptr);
    CHECK(flagged.failure.empty());
    CHECK(clock.now == 60);
    CHECK(last(flagged).decision == core::ConditionDecision::run_flagged);

    FakeClock clock2;
    FakeSensors hot(clock2);
    hot.temp = [](double) { return 70.0; };
    auto c = gate(55, 60);
    c.on_temp_timeout = core::OnTempTimeout::fail;
    auto failed = pass_gate(c, dir.path(), hot, clock2, nullptr);
    CHECK(failed.failure ==
          "conditions: temperature: the CPU is still above 55.0 C after 60 s "
          "(temp_wait_timeout_s); on_temp_timeout = \"fail\": cool the machine or raise "
          "max_start_temp_c");
}

// The wait is said once a minute, the outcome once, through the one sink;
// a condition that only says "run" is not said at all.
TEST_CASE("gate: says the wait and the timeout to the user, each line whole") {
    TempDir dir;
    FakeClock clock;
    FakeSensors sensors(clock);
    sensors.temp = [](double) { return 70.0; };
    LineCapture lines;
    auto out = pass_gate(gate(55, 60), dir.path(), sensors, clock, nullptr);
    CHECK(out.failure.empty());
    CHECK(lines.text() ==
          "bootbench: conditions: temperature: wanted <= 55.0 C, found 70.0 C (fake Tctl): wait (waited 0 s "
          "of 60 s)\n"
          "bootbench: conditions: temperature: wanted <= 55.0 C, found 70.0 C (fake Tctl): run-flagged (the "
          "CPU is still above 55.0 C after 60 s (temp_wait_timeout_s); on_temp_timeout = \"run\": running "
          "anyway, this run is flagged)\n");
}

TEST_CASE("gate: no sensor runs at once and says so; the start band is recorded") {
    TempDir dir;
    FakeClock clock;
    FakeSensors sensors(clock);
    sensors.temp = [](double) { return std::nullopt; };
    auto c = gate();
    c.start_temp_band_c = 2;
    auto out = pass_gate(c, dir.path(), sensors, clock, nullptr);
    CHECK(out.failure.empty());
    CHECK(clock.sleeps == 0);
    CHECK(out.records[3].found == "no sensor");
    CHECK(last(out).check == core::ConditionCheck::start_temp_band);
    CHECK(last(out).found == "no sensor");
}

TEST_CASE("gate: settle is measured from boot") {
    TempDir dir;
    FakeClock clock;
    clock.boot_offset = 10; // the unit started 10 s after boot
    FakeSensors sensors(clock);
    auto c = gate();
    c.settle_s = 60;
    auto out = pass_gate(c, dir.path(), sensors, clock, nullptr);
    CHECK(clock.now == 50);
    CHECK(core::to_json(out.records[0]) == nlohmann::json{{"check", "settle"},
                                                          {"wanted", "60 s after boot"},
                                                          {"found", "booted 10 s ago"},
                                                          {"decision", "wait"},
                                                          {"detail", "waiting 50 s more"}});
}

TEST_CASE("gate: the governor is set for the run and restored after it") {
    TempDir dir;
    FakeClock clock;
    FakeSensors sensors(clock);
    sensors.govs = {{"policy0", "powersave"}, {"policy1", "performance"}};
    auto c = gate();
    c.governor = "performance";
    c.set_governor = true;
    auto out = pass_gate(c, dir.path(), sensors, clock, nullptr);
    CHECK(out.failure.empty());
    CHECK(out.records[2].decision == core::ConditionDecision::set);
    CHECK(out.records[3].check == core::ConditionCheck::governor_set);
    CHECK(out.records[3].found == "performance");
    CHECK(sensors.govs["policy0"] == "performance");
    out.governor.reset();
    CHECK(sensors.govs["policy0"] == "powersave");
    CHECK(sensors.govs["policy1"] == "performance");
}

TEST_CASE("gate: a governor that cannot be set fails the run with the reason") {
    TempDir dir;
    FakeClock clock;
    FakeSensors sensors(clock);
    sensors.govs = {{"policy0", "powersave"}};
    sensors.refuse_writes = true;
    auto c = gate();
    c.governor = "performance";
    c.set_governor = true;
    auto out = pass_gate(c, dir.path(), sensors, clock, nullptr);
    CHECK(out.failure == "conditions: governor-set: cannot set the governor of policy0");
    CHECK(sensors.reads == 0); // no temperature wait for a run that cannot go on
}

TEST_CASE("gate: a running sched_ext scheduler fails a run that wants it disabled") {
    TempDir dir;
    testing::build_laptop_tree(dir.path());
    testing::write(dir.path() / "sys/kernel/sched_ext/state", "enabled\n");
    testing::write(dir.path() / "sys/kernel/sched_ext/root/ops", "lavd_1.0.4\n");
    FakeClock clock;
    FakeSensors sensors(clock);
    auto c = gate();
    c.sched_ext = "disabled";
    auto out = pass_gate(c, dir.path(), sensors, clock, nullptr);
    CHECK(out.records[1].found == "enabled (lavd_1.0.4)");
    CHECK(out.failure ==
          "conditions: sched_ext: a sched_ext scheduler is running: stop it (e.g. systemctl stop "
          "scx_loader) or set [conditions] sched_ext = \"enabled\"");
}

TEST_CASE("background load: stress-ng runs in its own group and is stopped") {
    TempDir dir;
    core::Load load;
    load.kind = core::Load::Kind::count;
    load.count = 1;
    pid_t pgid = -1;
    {
        BackgroundLoad bg(load, 2, 120, dir.path());
        REQUIRE(bg.active());
        CHECK(bg.command() == "stress-ng --cpu 1 --timeout 120s");
        pgid = bg.pgid();
        // the parent and its worker, however long stress-ng takes to fork it
        CHECK(testing::wait_until([pgid] { return testing::live_members(pgid) >= 2; }));
        CHECK(bg.stop().empty());
    }
    CHECK(testing::group_gone(pgid));
}

TEST_CASE("background load: killed on an exception too") {
    TempDir dir;
    core::Load load;
    load.kind = core::Load::Kind::half;
    pid_t pgid = -1;
    try {
        BackgroundLoad bg(load, 2, 120, dir.path());
        pgid = bg.pgid();
        throw std::runtime_error("bench failed");
    } catch (const std::runtime_error&) {
    }
    REQUIRE(pgid > 0);
    CHECK(testing::group_gone(pgid));
}

TEST_CASE("background load: none for cpu_workers = 0") {
    TempDir dir;
    BackgroundLoad bg(core::Load{}, 2, 10, dir.path());
    CHECK_FALSE(bg.active());
    CHECK(bg.stop().empty());
}

namespace {

// A stand-in systemctl first on PATH: records each call, fails the verb named
// in `fail` with a message on stderr.
struct StandInSystemctl {
    TempDir dir;
    std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    explicit StandInSystemctl(const std::string& fail = "") {
        std::string script = "#!/bin/sh\necho \"$*\" >>" + (dir.path() / "calls").string() + "\n";
        if (!fail.empty())
            script += "[ \"$1\" = " + fail + " ] && { echo 'Access denied' >&2; exit 4; }\n";
        script += "exit 0\n";
        testing::write(dir.path() / "systemctl", script);
        std::filesystem::permissions(dir.path() / "systemctl", std::filesystem::perms::owner_all);
        ::setenv("PATH", (dir.path().string() + ":" + old_path).c_str(), 1);
    }
    ~StandInSystemctl() { ::setenv("PATH", old_path.c_str(), 1); }
    std::string calls() { return testing::read(dir.path() / "calls"); }
};

} // namespace

TEST_CASE("quiet units: a runtime mask without a daemon reload, then a stop") {
    StandInSystemctl systemctl;
    SystemctlUnits().stop_until_reboot({"fstrim.timer", "uupd.timer"});
    CHECK(systemctl.calls() == "mask --runtime --no-reload -- fstrim.timer uupd.timer\n"
                               "stop -- fstrim.timer uupd.timer\n");
}

TEST_CASE("quiet units: a failed stop says which systemctl call and why") {
    StandInSystemctl systemctl("stop");
    CHECK_THROWS_WITH(SystemctlUnits().stop_until_reboot({"fstrim.timer"}),
                      "systemctl stop failed: Access denied");
}

TEST_CASE("quiet units: what the timers trigger and which of those run, from systemctl show") {
    StandInSystemctl systemctl;
    testing::write(systemctl.dir.path() / "systemctl",
                   "#!/bin/sh\necho \"$*\" >>" + (systemctl.dir.path() / "calls").string() +
                       "\ncase \"$2\" in\n"
                       "--property=Triggers) printf 'uupd.service\\n\\nfstrim.service\\n' ;;\n"
                       "--property=Id,ActiveState) printf 'ActiveState=activating\\nId=uupd.service\\n\\n"
                       "ActiveState=inactive\\nId=fstrim.service\\n' ;;\nesac\n");
    CHECK(SystemctlUnits().triggered({"uupd.timer", "fstrim.timer"}) ==
          std::vector<std::string>{"uupd.service", "fstrim.service"});
    CHECK(SystemctlUnits().running({"uupd.service", "fstrim.service"}) == std::vector<std::string>{"uupd.service"});
    CHECK(systemctl.calls() == "show --property=Triggers --value -- uupd.timer fstrim.timer\n"
                               "show --property=Id,ActiveState -- uupd.service fstrim.service\n");
    CHECK(SystemctlUnits().triggered({}).empty()); // no call for no timer
}

TEST_CASE("quiet units: a failed show says which systemctl call and why") {
    StandInSystemctl systemctl("show");
    CHECK_THROWS_WITH(SystemctlUnits().triggered({"uupd.timer"}),
                      "systemctl show --property=Triggers failed: Access denied");
}

// systemctl's own words when it has some, else how it ended (the one decoder's).
TEST_CASE("quiet units: a silent failure or a kill says how systemctl ended") {
    StandInSystemctl systemctl;
    testing::write(systemctl.dir.path() / "systemctl", "#!/bin/sh\n[ \"$1\" = stop ] && exit 5\nexit 0\n");
    CHECK_THROWS_WITH(SystemctlUnits().stop_until_reboot({"fstrim.timer"}),
                      "systemctl stop failed: exited with status 5");
    testing::write(systemctl.dir.path() / "systemctl", "#!/bin/sh\nkill -KILL $$\n");
    CHECK_THROWS_WITH(SystemctlUnits().triggered({"uupd.timer"}),
                      "systemctl show --property=Triggers failed: was killed by SIGKILL");
}
