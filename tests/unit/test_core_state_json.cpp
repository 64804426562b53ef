// state.json field by field, against a literal document, in both
// directions: a field that to_json forgets or state_from_json ignores fails
// here (a round trip through both would hide it).
#include "catch.hpp"
#include "core/state/state.hpp"

using namespace bootbench::core;

namespace {

// Every field differs from its default.
const char* kLiteral = R"({
  "aborted": true,
  "current": 1,
  "default_set": true,
  "expected": {"checksum": "bbbb", "serial": 2, "stateroot": "os"},
  "experiment": "exp-1",
  "images": {"b": {"digest": "sha256:0123"}},
  "last_booted": {"checksum": "dddd", "serial": 4, "stateroot": "os"},
  "max_attempts": 5,
  "on_boot_failure": "stop",
  "original_default": {"checksum": "cccc", "serial": 1, "stateroot": "os"},
  "phase": "finishing",
  "pinned_by_bootbench": [{"checksum": "cccc", "serial": 1, "stateroot": "os"}],
  "quick": true,
  "runs": [
    {"attempts": 2, "failure": "crashed", "run": "a-1", "seconds": 0, "status": "failed", "target": "a"},
    {"attempts": 1, "failure": "", "run": "b-1", "seconds": 12.5, "status": "done", "target": "b"}
  ],
  "schema": 1,
  "started_at": "2026-11-30T10:00:00+00:00",
  "stop_reason": "aborted by the user",
  "stopped_because": "max 2 runs reached",
  "targets": [
    {"created_for_kargs": true, "deployment": {"checksum": "aaaa", "serial": 3, "stateroot": "os"},
     "target": "a", "was_pinned": true}
  ]
})";

State literal_state() {
    State s;
    s.aborted = true;
    s.current = 1;
    s.default_set = true;
    s.expected = {"os", "bbbb", 2};
    s.experiment = "exp-1";
    s.images = {{"b", {{"digest", "sha256:0123"}}}};
    s.last_booted = {"os", "dddd", 4};
    s.max_attempts = 5;
    s.on_boot_failure = OnBootFailure::stop;
    s.original_default = {"os", "cccc", 1};
    s.phase = Phase::finishing;
    s.pinned_by_bootbench = {{"os", "cccc", 1}};
    s.quick = true;
    s.runs = {{"a-1", "a", SlotStatus::failed, 2, "crashed", 0}, {"b-1", "b", SlotStatus::done, 1, "", 12.5}};
    s.started_at = "2026-11-30T10:00:00+00:00";
    s.stop_reason = "aborted by the user";
    s.stopped_because = "max 2 runs reached";
    s.targets = {{"a", {"os", "aaaa", 3}, true, true}};
    return s;
}

} // namespace

TEST_CASE("to_json writes every state field under its name", "[state]") {
    CHECK(to_json(literal_state()) == nlohmann::json::parse(kLiteral));
}

TEST_CASE("state_from_json reads every state field under its name", "[state]") {
    State s = state_from_json(nlohmann::json::parse(kLiteral), "state.json");
    CHECK(s.aborted);
    CHECK(s.current == 1);
    CHECK(s.default_set);
    CHECK(s.expected == DeploymentRef{"os", "bbbb", 2});
    CHECK(s.experiment == "exp-1");
    CHECK(s.images == nlohmann::json{{"b", {{"digest", "sha256:0123"}}}});
    CHECK(s.last_booted == DeploymentRef{"os", "dddd", 4});
    CHECK(s.max_attempts == 5);
    CHECK(s.on_boot_failure == OnBootFailure::stop);
    CHECK(s.original_default == DeploymentRef{"os", "cccc", 1});
    CHECK(s.phase == Phase::finishing);
    CHECK(s.pinned_by_bootbench == std::vector<DeploymentRef>{{"os", "cccc", 1}});
    CHECK(s.quick);
    CHECK(s.stopped_because == "max 2 runs reached");
    REQUIRE(s.runs.size() == 2);
    CHECK(s.runs[0].run_id == "a-1");
    CHECK(s.runs[0].target == "a");
    CHECK(s.runs[0].status == SlotStatus::failed);
    CHECK(s.runs[0].attempts == 2);
    CHECK(s.runs[0].failure == "crashed");
    CHECK(s.runs[1].status == SlotStatus::done);
    CHECK(s.runs[1].seconds == 12.5);
    CHECK(s.started_at == "2026-11-30T10:00:00+00:00");
    CHECK(s.stop_reason == "aborted by the user");
    REQUIRE(s.targets.size() == 1);
    CHECK(s.targets[0].target == "a");
    CHECK(s.targets[0].deployment == DeploymentRef{"os", "aaaa", 3});
    CHECK(s.targets[0].was_pinned);
    CHECK(s.targets[0].created_for_kargs);
}

TEST_CASE("a state from before last_booted reads with it unknown", "[state]") {
    nlohmann::json j = nlohmann::json::parse(kLiteral);
    j.erase("last_booted");
    CHECK(state_from_json(j, "state.json").last_booted.empty());
}

TEST_CASE("a state from before pinned_by_bootbench reads with only the targets pinned by it", "[state]") {
    nlohmann::json j = nlohmann::json::parse(kLiteral);
    j.erase("pinned_by_bootbench");
    State s = state_from_json(j, "state.json");
    CHECK(s.pinned_by_bootbench.empty());
    CHECK(s.targets.size() == 1);
}
