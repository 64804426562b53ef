#include "catch.hpp"

#include <algorithm>
#include "core/base/error.hpp"
#include "core/experiment/experiment.hpp"
#include "core/host/quiet.hpp"
#include "error_of.hpp"

using namespace bootbench;
using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

const char* kBase = R"([experiment]
name = "q"
runs = 1
baseline = "a"
[[target]]
name = "a"
deployment = 0
[[target]]
name = "b"
deployment = 1
[[bench]]
kind = "perf-sched-pipe"
)";

} // namespace

TEST_CASE("stop_units: absent means the default list, [] means none", "[quiet]") {
    CHECK(parse_experiment(kBase, "q.toml").conditions.stop_units == std::nullopt);
    CHECK(stop_units_of(std::nullopt) == default_stop_units());
    auto e = parse_experiment(std::string(kBase) + "[conditions]\nstop_units = []\n", "q.toml");
    REQUIRE(e.conditions.stop_units);
    CHECK(stop_units_of(e.conditions.stop_units).empty());
    for (const char* u : {"uupd.timer", "rpm-ostreed-automatic.timer", "bootc-fetch-apply-updates.timer",
                          "fstrim.timer"})
        CHECK(std::count(default_stop_units().begin(), default_stop_units().end(), u) == 1);
}

TEST_CASE("stop_units: a name that is no unit is an error at its line", "[quiet]") {
    std::string text = std::string(kBase) + "[conditions]\nstop_units = [\"fstrim.timer\", \"rm -rf\"]\n";
    CHECK(error_of([&] { parse_experiment(text, "q.toml"); }) ==
          "q.toml:14:1: conditions.stop_units: 'rm -rf' is not a unit name ending in .timer, .service, .path "
          "or .socket");
    CHECK(is_stoppable_unit_name("flatpak-system-update.timer"));
    CHECK(is_stoppable_unit_name("user@1000.service"));
    CHECK_FALSE(is_stoppable_unit_name("fstrim"));
    CHECK_FALSE(is_stoppable_unit_name("-.timer x"));
}

TEST_CASE("systemctl list-unit-files output: the first column", "[quiet]") {
    CHECK(parse_unit_files("fstrim.timer enabled enabled\nuupd.timer   disabled enabled\n\n") ==
          std::vector<std::string>{"fstrim.timer", "uupd.timer"});
    CHECK(parse_unit_files("0 unit files listed.\n").empty());
}

TEST_CASE("the gate record says what was stopped and what the host lacks", "[quiet]") {
    UnitPresence p = presence_of({"uupd.timer", "fstrim.timer"}, {"fstrim.timer", "other.timer"});
    CHECK(p.present == std::vector<std::string>{"fstrim.timer"});
    CHECK(p.absent == std::vector<std::string>{"uupd.timer"});
    CHECK(log_line(quiet_record(p, "")) ==
          "quiet: wanted stop fstrim.timer, uupd.timer, found present: fstrim.timer; absent: uupd.timer: run "
          "(stopped, masked until the next boot)");
    ConditionRecord failed = quiet_record(p, "systemctl mask --runtime --now failed: Access denied");
    CHECK(failed.decision == ConditionDecision::run_flagged);
    CHECK(failed.detail == "could not stop them: systemctl mask --runtime --now failed: Access denied");
    CHECK(quiet_record({{}, {"uupd.timer"}}, "").detail == "nothing to stop");
}

TEST_CASE("plan names the units, the missing ones, and updaters left running", "[quiet]") {
    CHECK(quiet_plan_text({"fstrim.timer", "uupd.timer"}, {"fstrim.timer", "rpm-ostreed-automatic.timer"}) ==
          "quiet machine: each boot stops these until the next boot, before settling:\n"
          "  on this host: fstrim.timer\n  not on this host: uupd.timer\n"
          "  warning: rpm-ostreed-automatic.timer can stage an update during the experiment; add it to "
          "[conditions] stop_units\n");
    CHECK(quiet_plan_text({}, {"uupd.timer"}) == "quiet machine: [conditions] stop_units = [] stops nothing\n");
    CHECK(updaters_left_running(default_stop_units(), {"uupd.timer"}).empty());
}

TEST_CASE("stop_units: the default list has Universal Blue's brew and ublue-update timers and tmpfiles-clean",
          "[quiet]") {
    for (const char* u : {"brew-update.timer", "brew-upgrade.timer", "ublue-update.timer",
                          "systemd-tmpfiles-clean.timer", "uupd.timer"})
        CHECK(std::count(default_stop_units().begin(), default_stop_units().end(), u) == 1);
}

TEST_CASE("systemctl show output: what timers trigger, and which units are running", "[quiet]") {
    CHECK(parse_triggers("uupd.service\n\nfstrim.service\nuupd.service\n\n") ==
          std::vector<std::string>{"uupd.service", "fstrim.service"});
    CHECK(parse_triggers("a.service b.service\n") == std::vector<std::string>{"a.service", "b.service"});
    CHECK(parse_triggers("\n").empty());
    CHECK(parse_running("Id=uupd.service\nActiveState=activating\n\nActiveState=inactive\nId=fstrim.service\n\n"
                        "ActiveState=active\nId=man-db.service") ==
          std::vector<std::string>{"uupd.service", "man-db.service"});
    CHECK(parse_running("Id=x.service\nActiveState=failed\n").empty());
}

TEST_CASE("the gate record names the services already running and flags the run", "[quiet]") {
    QuietStop stop{presence_of({"uupd.timer", "fstrim.timer"}, {"uupd.timer", "fstrim.timer"}),
                   {"uupd.service", "fstrim.service"},
                   {"uupd.service"},
                   ""};
    CHECK(log_line(quiet_record(stop)) ==
          "quiet: wanted stop uupd.timer, fstrim.timer, found present: uupd.timer, fstrim.timer; absent: none; "
          "they start: uupd.service, fstrim.service; running: uupd.service: run-flagged (stopped, masked until "
          "the next boot; uupd.service was already running at this boot)");
    stop.running.clear();
    CHECK(quiet_record(stop).decision == ConditionDecision::run);
    CHECK(quiet_record(stop).detail == "stopped, masked until the next boot");
}
