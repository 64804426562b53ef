// A bisection run by the experiment's state (core/bisect/bisect_run): the
// state's pending runs follow the search, every finished run is fed once,
// failures queue the build again and end the search after three, and the
// record survives its JSON.
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/bisect/bisect_run.hpp"
#include "experiment_text.hpp"

#include <map>
#include <string>

using namespace bootbench;
using namespace bootbench::core;

namespace {

const std::string kFile = R"([experiment]
name = "which-build"

[[bench]]
kind = "sysbench-threads"

[bisect]
good = { refspec = "r:os", commit = "aaaa" }
bad = { refspec = "r:os" }
metric = "sysbench_events"
)";

// Six commits: 12 shared digits for two of them, so their labels grow.
std::vector<std::string> commits() {
    return {std::string(64, 'a'), std::string(12, 'b') + std::string(52, '1'),
            std::string(12, 'b') + std::string(52, '2'), std::string(64, 'c'), std::string(64, 'd'),
            std::string(64, 'e')};
}

BisectRun fresh_run() {
    std::vector<CommitInfo> history;
    for (const auto& c : commits())
        history.push_back({c, "build " + c.substr(0, 1), "43." + c.substr(0, 1), "2026-11-0" + c.substr(0, 1)});
    return begin_bisect_run(parse_bisect(kFile, "b.toml"), "r:os", history, 7);
}

// A state whose targets are every build (as if all were deployed) and whose
// runs are the search's first round.
State fresh_state(const BisectRun& run) {
    State s;
    s.experiment = "which-build";
    for (size_t i = 0; i < run.labels.size(); ++i)
        s.targets.push_back({run.labels[i], {"os", run.commits[i], 0}, false, true});
    return add_runs(s, runs_for_builds(s, run, builds_to_queue(s, run)));
}

// Finishes the state's next run with `status`.
State finish_next(State s, SlotStatus status) {
    return complete_run(begin_attempt(std::move(s)), status, status == SlotStatus::failed ? "crashed" : "", 1);
}

// sysbench_events per build: good's and the builds before 3 high, the rest low.
RunValue value_by_build(const BisectRun& run, const RunSlot& slot) {
    size_t b = 0;
    while (run.labels[b] != slot.target)
        ++b;
    return {b < 3 ? 1000.0 + static_cast<double>(slot.attempts) : 800.0, ""};
}

Fed feed(const BisectRun& run, const State& s) {
    return feed_finished_runs(run, s, [&](const RunSlot& slot) { return value_by_build(run, slot); });
}

} // namespace

TEST_CASE("build labels are the commits' 12 first digits, longer where two share them") {
    std::vector<std::string> distinct = {std::string(64, 'a'), std::string(64, 'b')};
    CHECK(build_labels(distinct) == std::vector<std::string>{std::string(12, 'a'), std::string(12, 'b')});
    auto labels = build_labels(commits());
    CHECK(labels[0] == std::string(13, 'a'));
    CHECK(labels[1] == std::string(12, 'b') + "1");
    CHECK(labels[2] == std::string(12, 'b') + "2");
}

TEST_CASE("a bisect experiment has one target per build, selected by its commit") {
    BisectRun run = fresh_run();
    Experiment e = bisect_experiment(parse_bisect(kFile, "b.toml").experiment, run);
    REQUIRE(e.targets.size() == 6);
    CHECK(e.targets[3].name == std::string(13, 'c'));
    CHECK(e.targets[3].selector.kind == SelectorKind::checksum);
    CHECK(e.targets[3].selector.value == std::string(64, 'c'));
    CHECK(e.baseline == std::string(13, 'a'));
    CHECK(metric_direction(e, "sysbench_events") == Better::higher);
}

TEST_CASE("the first runs are good's and bad's, interleaved, with run ids per build") {
    BisectRun run = fresh_run();
    State s = fresh_state(run);
    REQUIRE(s.runs.size() == 20);
    CHECK(s.runs[0].run_id == std::string(13, 'a') + "-1");
    CHECK(s.runs[1].run_id == std::string(13, 'e') + "-1");
    CHECK(s.runs[2].run_id == std::string(13, 'a') + "-2");
    CHECK(s.phase == Phase::running);
    CHECK(s.expected.checksum == std::string(64, 'a'));
    CHECK(builds_to_queue(s, run).empty());
}

TEST_CASE("finished runs are fed once; the round's end queues the next build's runs") {
    BisectRun run = fresh_run();
    State s = fresh_state(run);
    for (int i = 0; i < 19; ++i)
        s = finish_next(std::move(s), SlotStatus::done);
    Fed f = feed(run, s);
    CHECK(f.run.fed == 19);
    CHECK(f.run.search.phase == BisectPhase::endpoints);
    Fed again = feed(f.run, f.state); // nothing new: nothing fed twice
    CHECK(again.run.search.values[0].size() == 10);
    s = finish_next(std::move(f.state), SlotStatus::done);
    f = feed(f.run, s);
    REQUIRE(f.run.search.phase == BisectPhase::search);
    auto queue = builds_to_queue(f.state, f.run);
    CHECK(queue == std::vector<int>(8, f.run.search.candidate));
    State next = add_runs(f.state, runs_for_builds(f.state, f.run, queue));
    CHECK(next.runs[20].run_id == f.run.labels[static_cast<size_t>(f.run.search.candidate)] + "-1");
    CHECK(next.phase == Phase::running);
}

TEST_CASE("a failed run queues its build again; three failures end the bisection undecided") {
    BisectRun run = fresh_run();
    State s = fresh_state(run);
    s = finish_next(std::move(s), SlotStatus::failed);
    Fed f = feed(run, s);
    CHECK(f.run.search.phase == BisectPhase::endpoints);
    CHECK(builds_to_queue(f.state, f.run) == std::vector<int>{0});
    s = add_runs(f.state, runs_for_builds(f.state, f.run, {0}));
    CHECK(s.runs.back().run_id == std::string(13, 'a') + "-11");
    for (int i = 0; i < 19; ++i) // the rest of the round, then good's retry fails twice more
        s = finish_next(std::move(s), SlotStatus::done);
    s.runs.push_back({"extra-1", run.labels[0], SlotStatus::pending, 0, "", 0});
    s = finish_next(finish_next(std::move(s), SlotStatus::failed), SlotStatus::failed);
    f = feed(f.run, s);
    CHECK(f.run.search.outcome == BisectOutcome::undecided);
    CHECK(f.run.search.verdict ==
          "build aaaaaaaaaaaaa failed 3 runs (the last: crashed); the bisection cannot judge it and ends undecided");
    CHECK(f.state.phase == Phase::finishing);
    CHECK(f.state.stop_reason == f.run.search.verdict);
    CHECK(f.state.runs.size() == f.state.current);
}

TEST_CASE("a run without the metric counts as a failure of its build") {
    RunResult r;
    r.metrics.push_back({"other", 1, "", Better::lower, "x", {}});
    RunValue v = metric_value(r, "sysbench_events");
    CHECK_FALSE(v.value.has_value());
    CHECK(v.why == "the run measured no sysbench_events");
    r.metrics.push_back({"sysbench_events", 812, "", Better::higher, "x", {}});
    CHECK(metric_value(r, "sysbench_events").value == 812);
}

TEST_CASE("the bisect record survives its JSON, and a damaged one is named") {
    BisectRun run = fresh_run();
    run.fed = 3;
    BisectRun back = bisect_run_from_json(to_json(run), "state.json bisect");
    CHECK(back.labels == run.labels);
    CHECK(back.commits == run.commits);
    CHECK(back.fed == 3);
    CHECK(back.search.pending == run.search.pending);
    REQUIRE(back.history.size() == 6);
    CHECK(back.history[3].checksum == std::string(64, 'c'));
    CHECK(back.history[3].subject == "build c");
    CHECK(back.history[3].version == "43.c");
    nlohmann::json bad = to_json(run);
    bad["labels"][1] = "../etc";
    CHECK_THROWS_WITH(bisect_run_from_json(bad, "state.json bisect"),
                      "state.json bisect: the build label '../etc' is not a valid target name");
    bad = to_json(run);
    bad["labels"].erase(0);
    CHECK_THROWS_WITH(bisect_run_from_json(bad, "state.json bisect"),
                      "state.json bisect: labels and commits must pair up, and fed count from 0");
}

TEST_CASE("the state keeps the bisect record through its JSON, and has none for an experiment") {
    State s;
    s.experiment = "x";
    CHECK_FALSE(to_json(s).contains("bisect"));
    s.bisect = to_json(fresh_run());
    CHECK(state_from_json(to_json(s), "state.json").bisect == s.bisect);
}

TEST_CASE("a bisection's estimate: the steps of a binary search and the runs of first and last rounds") {
    BisectRules rules; // 10 each endpoint, 8 a step, 4 each of the pair; 3 more a round, 8 rounds
    BisectEstimate e = estimate_bisect(16, rules);
    CHECK(e.steps == 4); // 15 gaps: 8, 4, 2, 1
    CHECK(e.runs_first_rounds == 20 + 4 * 8 + 8);
    CHECK(e.runs_at_most == 60 + 7 * (6 + 4 * 5 + 6));
    CHECK(estimate_bisect(4, rules).steps == 2); // 3 gaps: 2, 1
    CHECK(estimate_bisect(5, rules).steps == 2); // 4 gaps: 2, 1
}

TEST_CASE("a bisect file's runs: the search asks for them and its estimate counts them") {
    std::vector<CommitInfo> history;
    for (const auto& c : commits())
        history.push_back({c, "", "", ""});
    BisectFile f = parse_bisect(
        test::replace(kFile, "[bisect]\n",
                      "[bisect]\nendpoint_runs = 5\nstep_runs = 5\nconfirm_runs = 2\n"),
        "b.toml");
    BisectRun run = begin_bisect_run(f, "r:os", history, 7);
    CHECK(run.search.rules.endpoint_runs == 5);
    CHECK(run.search.rules.step_runs == 5);
    CHECK(run.search.rules.confirm_runs == 2);
    CHECK(run.search.pending == std::vector<int>{0, 5, 0, 5, 0, 5, 0, 5, 0, 5});
    CHECK(bisect_run_from_json(to_json(run), "state").search.rules.step_runs == 5);
    BisectEstimate e = estimate_bisect(16, run.search.rules);
    CHECK(e.steps == 4);
    CHECK(e.runs_first_rounds == 10 + 4 * 5 + 4);
    CHECK(e.runs_at_most == 34 + 7 * (6 + 4 * 5 + 6));
    CHECK(estimate_bisect(6, run.search.rules).runs_first_rounds ==
          10 + 3 * 5 + 4); // 4 between: 3 steps
}

TEST_CASE("status says where the search stands, and its verdict once done") {
    BisectRun run = fresh_run();
    std::string good = std::string(13, 'a'), bad = std::string(13, 'e');
    CHECK(bisect_status_text(run) ==
          "bisect: good " + good + " against bad " + bad + ", round 1; 0 decisions so far, 6 builds from good to bad\n");
    State s = fresh_state(run);
    for (int i = 0; i < 20; ++i)
        s = finish_next(std::move(s), SlotStatus::done);
    Fed f = feed(run, s);
    REQUIRE(f.run.search.phase == BisectPhase::search);
    CHECK(bisect_status_text(f.run) == "bisect: judging " + f.run.labels[2] + ", round 1; the regression is after " +
                                           good + " and at or before " + bad + " (5 builds); 1 decision so far, 6 "
                                           "builds from good to bad\n");
    nlohmann::json j = bisect_status_json(f.run);
    CHECK(j["phase"] == "search");
    CHECK(j["candidate"] == f.run.labels[2]);
    CHECK(j["last_good"] == good);
    f.run.search = end_undecided(f.run.search, "stopped");
    CHECK(bisect_status_text(f.run) == "bisect: done after 1 decision: stopped\n");
}
