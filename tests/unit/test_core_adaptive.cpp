// The stopping rule of an adaptive experiment, on fake results and a fake
// clock: each reason to stop, another round, min respected, balanced rounds.
#include "catch.hpp"
#include "run_builder.hpp"
#include "core/sizing/adaptive.hpp"

#include <algorithm>
#include <map>

using namespace bootbench::core;

namespace {

Experiment adaptive(int min, int max, double precision, Order order = Order::interleaved) {
    Experiment e;
    e.name = "night";
    e.baseline = "a";
    e.order = order;
    e.runs = max;
    for (const char* t : {"a", "b"})
        e.targets.push_back({t, {}, {}, "", false, false, false, {}});
    Adaptive a;
    a.min_runs = min;
    a.precision = precision;
    a.until = "06:30";
    a.until_minutes = 6 * 60 + 30;
    e.adaptive = a;
    return e;
}

RunResult run(const std::string& target, int k, std::map<std::string, double> values) {
    RunResult r = bootbench::test::run_of(target + "-" + std::to_string(k), target,
                                          "2026-12-01T01:00:" + std::string(k < 10 ? "0" : "") + std::to_string(k) + "+00:00");
    for (const auto& [key, v] : values)
        r.metrics.push_back({key, v, "ms", Better::lower, "b"});
    return r;
}

// `rounds` rounds of a (around 10) and b (around 8): "lat" within noise
// `lat_noise` (relative), "ops" always +-30%.
std::vector<RunResult> rounds_of(int rounds, double lat_noise) {
    std::vector<RunResult> out;
    for (int k = 1; k <= rounds; ++k) {
        double wobble = (k % 3 - 1) * lat_noise, wide = (k % 2 ? 0.3 : -0.3);
        out.push_back(run("a", k, {{"lat", 10 * (1 + wobble)}, {"ops", 100 * (1 + wide)}}));
        out.push_back(run("b", k, {{"lat", 8 * (1 - wobble)}, {"ops", 100 * (1 - wide)}}));
    }
    return out;
}

const RoundClock kNoDeadline{0, -1, 600};

} // namespace

TEST_CASE("precision: every primary metric within the target after min rounds stops", "[adaptive]") {
    Experiment e = adaptive(6, 30, 0.02);
    e.adaptive->primary = {"lat"};
    RoundDecision d = decide_after_round(e, rounds_of(6, 0.001), 6, kNoDeadline);
    CHECK(d.reason == StopReason::precision);
    CHECK(d.text == "every primary metric within +-2% after 6 rounds");
    REQUIRE(d.precision.size() == 1);
    CHECK(d.precision[0].metric == "lat");
    CHECK(d.precision[0].target == "b");
    REQUIRE(d.precision[0].half_width);
    CHECK(*d.precision[0].half_width < 0.02);
}

TEST_CASE("precision: a noisy primary metric keeps it going; every metric is primary by default",
          "[adaptive]") {
    Experiment e = adaptive(6, 30, 0.02);
    RoundDecision d = decide_after_round(e, rounds_of(10, 0.001), 10, kNoDeadline);
    CHECK(d.reason == StopReason::none); // ops is +-30%
    CHECK(d.precision.size() == 2);
    CHECK(decide_after_round(e, rounds_of(10, 0.2), 10, kNoDeadline).reason == StopReason::none);
}

TEST_CASE("precision: a per-watt metric can be the primary one", "[adaptive][per_watt]") {
    Experiment e = adaptive(6, 30, 0.02);
    e.report.per_watt = {"lat"};
    e.adaptive->primary = {"lat_per_watt"};
    std::vector<RunResult> runs = rounds_of(6, 0.001);
    for (auto& r : runs)
        r.metrics.push_back({"b_power_w", 20, "W", Better::lower, "b"}); // the bench's power
    RoundDecision d = decide_after_round(e, runs, 6, kNoDeadline);
    REQUIRE(d.precision.size() == 1);
    CHECK(d.precision[0].metric == "lat_per_watt");
    CHECK(d.reason == StopReason::precision);
}

TEST_CASE("min is respected: a precise interval before min rounds does not stop", "[adaptive]") {
    Experiment e = adaptive(8, 30, 0.02);
    e.adaptive->primary = {"lat"};
    CHECK(decide_after_round(e, rounds_of(7, 0.001), 7, kNoDeadline).reason == StopReason::none);
    CHECK(decide_after_round(e, rounds_of(8, 0.001), 8, kNoDeadline).reason == StopReason::precision);
    // below 6 runs there is no interval at all: precision cannot stop it
    Experiment early = adaptive(2, 30, 0.02);
    early.adaptive->primary = {"lat"};
    RoundDecision d = decide_after_round(early, rounds_of(5, 0.0), 5, kNoDeadline);
    CHECK(d.reason == StopReason::none);
    REQUIRE(d.precision.size() == 1);
    CHECK_FALSE(d.precision[0].half_width);
    CHECK(d.precision[0].why_none == "fewer than 6 runs (a has 5)");
}

TEST_CASE("max: the last allowed round stops it", "[adaptive]") {
    Experiment e = adaptive(6, 12, 0.02);
    CHECK(decide_after_round(e, rounds_of(11, 0.2), 11, kNoDeadline).reason == StopReason::none);
    RoundDecision d = decide_after_round(e, rounds_of(12, 0.2), 12, kNoDeadline);
    CHECK(d.reason == StopReason::max_runs);
    CHECK(d.text == "max 12 runs reached");
}

TEST_CASE("until: no round starts that would end after the deadline", "[adaptive]") {
    Experiment e = adaptive(6, 30, 0.02);
    // started 23:10 at +01:00: 06:30 is the next day's
    double deadline = deadline_of(e, "2026-12-04T23:10:00+01:00");
    CHECK(deadline == *epoch_of("2026-12-05T06:30:00+01:00"));
    double now = *epoch_of("2026-12-05T06:15:00+01:00");
    // a round is 2 runs x 600 s = 20 min: from 06:05 it fits, from 06:15 it does not
    CHECK(decide_after_round(e, rounds_of(7, 0.2), 7, {now - 600, deadline, 600}).reason == StopReason::none);
    RoundDecision d = decide_after_round(e, rounds_of(7, 0.2), 7, {now, deadline, 600});
    CHECK(d.reason == StopReason::until);
    CHECK(d.text == "the next round would end after 06:30");
    // the deadline binds below min too: it is the night's end
    CHECK(decide_after_round(e, rounds_of(2, 0.2), 2, {now, deadline, 600}).reason == StopReason::until);
}

TEST_CASE("until later the same day is that day's; the offset is the start's", "[adaptive]") {
    Experiment e = adaptive(6, 30, 0.02);
    CHECK(deadline_of(e, "2026-12-05T01:00:00+01:00") == *epoch_of("2026-12-05T06:30:00+01:00"));
    CHECK(deadline_of(e, "2026-12-05T06:30:00-05:00") == *epoch_of("2026-12-06T06:30:00-05:00"));
    CHECK(*epoch_of("1970-01-01T01:00:00+01:00") == 0);
    CHECK_FALSE(epoch_of("yesterday"));
    e.adaptive->until_minutes = -1;
    CHECK(deadline_of(e, "2026-12-05T01:00:00+01:00") == -1);
    CHECK(rounds_that_fit(0, 3600, 1200) == 3);
    CHECK(rounds_that_fit(3600, 0, 1200) == 0);
}

TEST_CASE("plan's until line: the first round always runs, the max caps the rest", "[adaptive]") {
    Experiment e = adaptive(6, 30, 0.02);
    CHECK(until_text(e, 0, 1200) == "until 06:30: no round fits from now (20 min 00 s per round): the first "
                                    "round runs anyway, then it stops (of min 6, max 30)");
    CHECK(until_text(e, 1, 1200) ==
          "until 06:30: 1 round fits from now (20 min 00 s per round): at most 1 of min 6, max 30");
    CHECK(until_text(e, 45, 1200) ==
          "until 06:30: 45 rounds fit from now (20 min 00 s per round): at most 30 of min 6, max 30");
}

TEST_CASE("the rule ignores which arm is ahead: swapping the arms decides the same", "[adaptive]") {
    Experiment e = adaptive(6, 30, 0.02);
    e.adaptive->primary = {"lat"};
    auto runs = rounds_of(6, 0.001);
    for (auto& r : runs) {
        std::string other = r.target == "a" ? "b" : "a";
        r.run_id = other + r.run_id.substr(1);
        r.target = other;
    }
    CHECK(decide_after_round(e, runs, 6, kNoDeadline).reason == StopReason::precision);
}

TEST_CASE("rounds are balanced: one run per target, in the experiment's order", "[adaptive]") {
    auto ids = [](const std::vector<PlannedRun>& runs) {
        std::vector<std::string> out;
        for (const auto& r : runs)
            out.push_back(r.run_id);
        return out;
    };
    Experiment e = adaptive(6, 30, 0.02, Order::counterbalanced);
    CHECK(ids(plan_round(e, 1)) == std::vector<std::string>{"a-1", "b-1"});
    CHECK(ids(plan_round(e, 2)) == std::vector<std::string>{"b-2", "a-2"});
    CHECK(ids(plan_runs(e)).size() == 60); // the longest night: max rounds
    e.order = Order::random;
    for (int k = 1; k <= 20; ++k) {
        auto round = ids(plan_round(e, k));
        std::sort(round.begin(), round.end());
        CHECK(round == std::vector<std::string>{"a-" + std::to_string(k), "b-" + std::to_string(k)});
    }
    CHECK(ids(initial_plan(e)).size() == 2);
}

TEST_CASE("a state at the end of a round gets the next round, or nothing once stopped", "[adaptive]") {
    Experiment e = adaptive(6, 30, 0.02);
    std::vector<TargetState> ts = {{"a", {"s", "aaa", 0}, false, false}, {"b", {"s", "bbb", 0}, false, false}};
    State s = initial_state(e, initial_plan(e), ts, {"s", "orig", 0}, "2026-12-04T23:10:00+01:00");
    s.phase = Phase::running;
    CHECK_FALSE(round_decision_due(s, e));
    s = complete_run(complete_run(s, SlotStatus::done, "", 1), SlotStatus::done, "", 1);
    CHECK(s.phase == Phase::finishing);
    REQUIRE(round_decision_due(s, e));
    CHECK(rounds_in(s, e) == 1);
    s = add_round(s, e);
    CHECK(s.phase == Phase::running);
    CHECK(s.runs.size() == 4);
    CHECK(s.current_run()->run_id == "a-2");
    CHECK(s.expected == ts[0].deployment);
    CHECK_FALSE(s.default_set);
    s = complete_run(complete_run(s, SlotStatus::done, "", 1), SlotStatus::failed, "x", 1);
    s.stopped_because = "max 2 runs reached";
    CHECK_FALSE(round_decision_due(s, e));
    State back = state_from_json(to_json(s), "state.json");
    CHECK(back.stopped_because == "max 2 runs reached");
    nlohmann::json old = to_json(s);
    old.erase("stopped_because"); // a state written before adaptive experiments
    CHECK(state_from_json(old, "state.json").stopped_because.empty());
    Experiment fixed = e;
    fixed.adaptive.reset();
    s.stopped_because.clear();
    CHECK_FALSE(round_decision_due(s, fixed));
}
