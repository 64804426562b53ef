#include "catch.hpp"
#include "core/host/gate.hpp"

using namespace bootbench::core;

namespace {

Conditions hot_gate(OnTempTimeout on_timeout = OnTempTimeout::run) {
    Conditions c;
    c.max_start_temp_c = 55;
    c.temp_wait_timeout_s = 600;
    c.on_temp_timeout = on_timeout;
    return c;
}

} // namespace

TEST_CASE("settle counts from boot, not from when the unit started") {
    auto early = decide_settle(60, 12.5);
    CHECK(early.wait_s == 47.5);
    CHECK(to_json(early.record) == nlohmann::json{{"check", "settle"},
                                                  {"wanted", "60 s after boot"},
                                                  {"found", "booted 12.5 s ago"},
                                                  {"decision", "wait"},
                                                  {"detail", "waiting 47.5 s more"}});
    auto late = decide_settle(60, 300);
    CHECK(late.wait_s == 0);
    CHECK(late.record.decision == ConditionDecision::run);
    CHECK(decide_settle(0, 0).wait_s == 0);
}

TEST_CASE("governor: not asked, no cpufreq, matching, set, or fail with what to do") {
    Conditions c;
    CHECK(decide_governor(c, {{"policy0", "powersave"}}).action == GateAction::run);
    c.governor = "performance";
    auto none = decide_governor(c, {});
    CHECK(none.action == GateAction::run);
    CHECK(none.record.found == "no cpufreq");
    CHECK(none.record.detail ==
          "no cpufreq policy in /sys/devices/system/cpu/cpufreq: the governor cannot be checked");
    CHECK(
        decide_governor(c, {{"policy0", "performance"}, {"policy1", "performance"}}).record.found ==
        "performance");

    auto wrong = decide_governor(c, {{"policy0", "performance"}, {"policy1", "powersave"}});
    CHECK(wrong.action == GateAction::fail);
    CHECK(wrong.record.found == "policy0=performance, policy1=powersave");
    CHECK(wrong.record.detail ==
          "the governor of policy1 is not performance: set it before the run (cpupower "
          "frequency-set -g performance) or set [conditions] set_governor = true");
    c.set_governor = true;
    auto set = decide_governor(c, {{"policy0", "powersave"}});
    CHECK(set.action == GateAction::set);
    CHECK(set.record.decision == ConditionDecision::set);
    CHECK(set.record.detail ==
          "setting performance on policy0; the old value is restored after the suite");

    CHECK(verify_governor(c, {{"policy0", "performance"}}).action == GateAction::run);
    auto stuck = verify_governor(c, {{"policy0", "powersave"}});
    CHECK(stuck.action == GateAction::fail);
    CHECK(
        stuck.record.detail ==
        "the governor of policy0 did not change to performance: check scaling_available_governors");
}

TEST_CASE("sched_ext: state checked, with the running scheduler named") {
    Conditions c;
    CHECK(decide_sched_ext(c, std::string("enabled"), std::string("lavd")).action ==
          GateAction::run);
    c.sched_ext = "disabled";
    CHECK(decide_sched_ext(c, std::string("disabled"), std::nullopt).action == GateAction::run);
    auto absent = decide_sched_ext(c, std::nullopt, std::nullopt);
    CHECK(absent.action == GateAction::run);
    CHECK(absent.record.found == "no sched_ext");
    auto running = decide_sched_ext(c, std::string("enabled"), std::string("lavd_1.0"));
    CHECK(running.action == GateAction::fail);
    CHECK(running.record.found == "enabled (lavd_1.0)");
    CHECK(running.record.detail ==
          "a sched_ext scheduler is running: stop it (e.g. systemctl stop scx_loader) "
          "or set [conditions] sched_ext = \"enabled\"");
    c.sched_ext = "enabled";
    CHECK(decide_sched_ext(c, std::string("disabled"), std::nullopt).record.detail ==
          "no sched_ext scheduler is running: start one before the run");
    CHECK(
        decide_sched_ext(c, std::nullopt, std::nullopt).record.detail ==
        "this kernel has no sched_ext (/sys/kernel/sched_ext/state is absent): boot a kernel with "
        "CONFIG_SCHED_CLASS_EXT or remove [conditions] sched_ext");
}

TEST_CASE("temperature: cool enough, wait, and the two timeout policies") {
    auto cool = decide_temperature(hot_gate(), 50.0, 0);
    CHECK(cool.action == GateAction::run);
    CHECK(cool.record.wanted == "<= 55.0 C");
    CHECK(cool.record.found == "50.0 C");
    CHECK(decide_temperature(hot_gate(), 55.0, 0).action ==
          GateAction::run); // at the limit is fine
    CHECK(decide_temperature(hot_gate(), 54.0, 120).record.detail == "after waiting 120 s to cool");

    auto hot = decide_temperature(hot_gate(), 70.0, 30);
    CHECK(hot.action == GateAction::wait);
    CHECK(hot.record.detail == "waited 30 s of 600 s");

    auto flagged = decide_temperature(hot_gate(OnTempTimeout::run), 70.0, 600);
    CHECK(flagged.action == GateAction::run_flagged);
    CHECK(flagged.record.decision == ConditionDecision::run_flagged);
    CHECK(flagged.record.detail ==
          "the CPU is still above 55.0 C after 600 s (temp_wait_timeout_s); "
          "on_temp_timeout = \"run\": running anyway, this run is flagged");
    auto failed = decide_temperature(hot_gate(OnTempTimeout::fail), 70.0, 601);
    CHECK(failed.action == GateAction::fail);
    CHECK(failed.record.detail ==
          "the CPU is still above 55.0 C after 601 s (temp_wait_timeout_s); "
          "on_temp_timeout = \"fail\": cool the machine or raise max_start_temp_c");
}

TEST_CASE("temperature: no sensor runs and says so") {
    auto d = decide_temperature(hot_gate(OnTempTimeout::fail), std::nullopt, 0);
    CHECK(d.action == GateAction::run);
    CHECK(d.record.found == "no sensor");
    CHECK(d.record.detail ==
          "no CPU temperature sensor among hwmon k10temp, zenpower, coretemp and thermal zones "
          "x86_pkg_temp, acpitz: running without waiting to cool");
}

TEST_CASE("start band: recorded only when asked for") {
    Conditions c;
    CHECK_FALSE(start_band_record(c, 40.0));
    c.start_temp_band_c = 3;
    auto r = start_band_record(c, 41.25);
    REQUIRE(r);
    CHECK(r->wanted == "within 3.0 C across runs");
    CHECK(r->found == "41.2 C");
    CHECK(r->decision == ConditionDecision::record);
}

TEST_CASE("log line") {
    CHECK(log_line({ConditionCheck::governor, "performance", "powersave", ConditionDecision::fail, "why"}) ==
          "governor: wanted performance, found powersave: fail (why)");
    CHECK(log_line({ConditionCheck::settle, "0 s after boot", "booted 5 s ago", ConditionDecision::run, ""}) ==
          "settle: wanted 0 s after boot, found booted 5 s ago: run");
}
