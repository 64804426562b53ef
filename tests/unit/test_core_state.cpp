#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/state/state.hpp"
#include "error_of.hpp"

using namespace bootbench;
using namespace bootbench::core;

namespace {

const DeploymentRef kA{"os", "aaaa", 0};
const DeploymentRef kB{"os", "bbbb", 0};
const DeploymentRef kOther{"os", "cccc", 1};

State two_by_two(int max_attempts = 3, OnBootFailure on_fail = OnBootFailure::skip) {
    Experiment e;
    e.name = "x";
    e.runs = 2;
    e.max_attempts = max_attempts;
    e.on_boot_failure = on_fail;
    for (const char* n : {"a", "b"}) {
        Target t;
        t.name = n;
        e.targets.push_back(t);
    }
    auto plan = plan_runs(e);
    State s = initial_state(e, plan, {{"a", kA, false, false}, {"b", kB, true, false}}, kOther,
                            "2026-11-30T10:00:00+00:00");
    s.phase = Phase::running;
    return mark_default_set(s);
}

// What state_from_json says of `doc`, read as /var/lib/bootbench/state.json.
std::string error_of(const nlohmann::json& doc) {
    return test::error_of([&] { state_from_json(doc, "/var/lib/bootbench/state.json"); });
}

} // namespace

TEST_CASE("the first run expects its target's deployment", "[state]") {
    State s = two_by_two();
    CHECK(s.expected == kA);
    CHECK(s.current_run()->run_id == "a-1");
    CHECK(decide_on_boot(s, kA).action == BootAction::run_suite);
}

TEST_CASE("a completed run moves to the next target, then to finishing", "[state]") {
    State s = two_by_two();
    s = begin_attempt(s);
    CHECK(s.runs[0].attempts == 1);
    s = complete_run(s, SlotStatus::done, "", 12.5);
    CHECK(s.runs[0].status == SlotStatus::done);
    CHECK(s.runs[0].seconds == 12.5);
    CHECK(s.current_run()->run_id == "b-1");
    CHECK(s.expected == kB);
    CHECK_FALSE(s.default_set);
    CHECK(decide_on_boot(s, kB).action == BootAction::set_default_again);
    s = mark_default_set(s);
    CHECK(decide_on_boot(s, kB).action == BootAction::run_suite);
    for (int i = 0; i < 3; ++i)
        s = mark_default_set(complete_run(begin_attempt(s), SlotStatus::done, "", 1));
    CHECK(s.phase == Phase::finishing);
    CHECK(s.expected == kOther);
    CHECK(decide_on_boot(s, kA).action == BootAction::finish);
    s = finish(s);
    CHECK(decide_on_boot(s, kOther).action == BootAction::nothing);
    CHECK(s.count(SlotStatus::done) == 4);
}

TEST_CASE("a wrong boot counts an attempt and asks for the default again", "[state]") {
    State s = two_by_two();
    BootDecision d = decide_on_boot(s, kB);
    CHECK(d.action == BootAction::wrong_boot);
    CHECK(d.message == "wrong deployment booted for run a-1: expected os/aaaa.0, booted os/bbbb.0");
    s = record_wrong_boot(s, kB);
    CHECK(s.runs[0].attempts == 1);
    CHECK(s.current == 0);
    CHECK_FALSE(s.default_set);
}

TEST_CASE("max_attempts wrong boots fail the run and go on", "[state]") {
    State s = two_by_two(2);
    s = mark_default_set(record_wrong_boot(s, kB));
    s = record_wrong_boot(s, kB);
    CHECK(s.runs[0].status == SlotStatus::failed);
    CHECK(s.runs[0].failure ==
          "the expected deployment os/aaaa.0 did not boot in 2 attempts (last booted: os/bbbb.0)");
    CHECK(s.current_run()->run_id == "b-1");
    CHECK(s.phase == Phase::running);
}

TEST_CASE("on_boot_failure = stop ends the experiment after a failed boot", "[state]") {
    State s = two_by_two(1, OnBootFailure::stop);
    s = record_wrong_boot(s, kB);
    CHECK(s.phase == Phase::finishing);
    CHECK(s.expected == kOther);
    CHECK(s.stop_reason.find("stopped after run a-1 failed") == 0);
}

TEST_CASE("an interrupted run is rerun, and given up after max_attempts", "[state]") {
    State s = begin_attempt(two_by_two(2)); // boot 1: killed mid-run
    CHECK(decide_on_boot(s, kA).action == BootAction::run_suite);
    CHECK_FALSE(attempts_exhausted(s));
    s = begin_attempt(s); // boot 2: killed again
    CHECK(attempts_exhausted(s));
    s = give_up_run(s, "interrupted 2 times");
    CHECK(s.runs[0].status == SlotStatus::failed);
    CHECK(s.current_run()->run_id == "b-1");
}

TEST_CASE("a start that never completed does nothing at boot", "[state]") {
    State s = two_by_two();
    s.phase = Phase::starting;
    CHECK(decide_on_boot(s, kA).action == BootAction::nothing);
    CHECK(decide_on_boot(s, kA).message.find("bootbench abort") != std::string::npos);
    s = abort_experiment(s, "aborted by the user");
    CHECK(s.phase == Phase::finishing);
    CHECK(decide_on_boot(s, kA).action == BootAction::finish);
    CHECK(finish(s).phase == Phase::aborted);
    CHECK(finish(s).stop_reason == "aborted by the user");
}

TEST_CASE("state survives a JSON round trip", "[state]") {
    State s = complete_run(begin_attempt(two_by_two()), SlotStatus::done, "", 3);
    State back = state_from_json(to_json(s), "state.json");
    CHECK(to_json(back) == to_json(s));
    CHECK(back.targets[1].was_pinned);
}

// simulate --quick is carried by the state: the saved experiment file stays as written.
TEST_CASE("a quick rehearsal is kept in the state; older states are not quick", "[state]") {
    Experiment e;
    e.name = "x";
    e.quick = true;
    State s = initial_state(e, {}, {}, kOther, "2026-11-30T10:00:00+00:00");
    CHECK(s.quick);
    CHECK(state_from_json(to_json(s), "state.json").quick);
    nlohmann::json old = to_json(two_by_two());
    old.erase("quick");
    CHECK_FALSE(state_from_json(old, "state.json").quick);
}

TEST_CASE("a corrupt state names the file and the field", "[state]") {
    nlohmann::json j = to_json(two_by_two());
    nlohmann::json bad = j;
    bad.erase("runs");
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: missing field 'runs'");
    bad = j;
    bad["phase"] = "dancing";
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: field 'phase' has an unknown value 'dancing'");
    bad = j;
    bad["current"] = 9;
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: field 'current' (9) is outside the 4 runs");
    bad = j;
    bad["schema"] = 2;
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: state schema 2 is not supported (this "
                           "bootbench reads 1)");
    bad = j;
    bad["expected"]["serial"] = "x";
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: expected: field 'serial' must be an integer");
}

TEST_CASE("abort leaves a finished or aborted experiment as it is", "[state]") {
    State done = finish(two_by_two());
    done.stop_reason = "";
    State after = abort_experiment(done, "aborted by the user");
    CHECK(after.phase == Phase::finished);
    CHECK_FALSE(after.aborted);
    CHECK(after.stop_reason.empty());
    CHECK(to_json(after) == to_json(done));
    State aborted = finish(abort_experiment(two_by_two(), "first"));
    REQUIRE(aborted.phase == Phase::aborted);
    CHECK(abort_experiment(aborted, "second").stop_reason == "first");
}

TEST_CASE("names read from a state are checked like the experiment file's: they become paths", "[state]") {
    nlohmann::json j = to_json(two_by_two());
    const std::string rule = "use 1 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit, "
                             "without '/' or '..'";
    nlohmann::json bad = j;
    bad["experiment"] = "../../etc";
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: field 'experiment' '../../etc' is not a valid "
                           "name: " + rule);
    bad = j;
    bad["runs"][1]["run"] = "../x-1";
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: runs: field 'run' '../x-1' is not a valid run id: "
                           "a target name, '-' and a number, such as 'a-1'");
    bad = j;
    bad["runs"][1]["run"] = "a";
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: runs: field 'run' 'a' is not a valid run id: "
                           "a target name, '-' and a number, such as 'a-1'");
    bad = j;
    bad["targets"][0]["target"] = "a/b";
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: targets: field 'target' 'a/b' is not a valid "
                           "name: " + rule);
    bad = j;
    bad["runs"][0]["target"] = "";
    CHECK(error_of(bad) == "/var/lib/bootbench/state.json: runs: field 'target' '' is not a valid name: " + rule);
    nlohmann::json good = j;
    std::string longest(64, 'a');
    good["runs"][0]["target"] = longest;
    good["runs"][0]["run"] = longest + "-12";
    CHECK(error_of(good) == "(no error)");
}

TEST_CASE("the first boot after a deployment switch is known from the boot before", "[state]") {
    State s;
    DeploymentRef a{"os", "aaaa", 0}, b{"os", "bbbb", 0};
    CHECK(first_boot_after_switch(s, a) == std::nullopt); // nothing recorded yet
    s = note_boot(s, a);
    CHECK(s.last_booted == a);
    CHECK(first_boot_after_switch(s, b) == true);
    CHECK(first_boot_after_switch(s, a) == false); // the same again: a power cut, a repeated arm
    s = note_boot(s, b);
    CHECK(first_boot_after_switch(s, a) == true);
}
