#include "catch.hpp"
#include "run_builder.hpp"
#include "core/base/error.hpp"
#include "core/experiment/experiment.hpp"
#include "core/result/per_watt.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/report.hpp"
#include "experiment_text.hpp"

#include <string>

using namespace bootbench;
using namespace bootbench::core;

namespace {

// A run of sysbench-threads with its events and, when `watts` > 0, its power.
RunResult run(const std::string& id, const std::string& target, double events, double watts) {
    RunResult r = bootbench::test::run_of(id, target, bootbench::test::started_in_order(id));
    r.metrics.push_back({"sysbench_events", events, "events", Better::higher, "sysbench-threads"});
    r.metrics.push_back({"sysbench_lat_avg_ms", 2, "ms", Better::lower, "sysbench-threads"});
    if (watts > 0)
        r.metrics.push_back({"sysbench-threads_power_w", watts, "W", Better::lower, "sysbench-threads"});
    return r;
}

const MetricReport* metric(const Report& r, const std::string& key) {
    for (const auto& m : r.metrics)
        if (m.key == key)
            return &m;
    return nullptr;
}

// The shared file (experiment_text.hpp) with two benches, sysbench-threads (a
// rate) and schbench (latencies only), as its lines 15 to 18: a [report]
// table added after it has its first key on line 20.
const std::string kTwoBenches =
    bootbench::test::with_bench("kind = \"sysbench-threads\"\n[[bench]]\nkind = \"schbench\"");

std::string error_of(const std::string& report_table) {
    try {
        parse_experiment(kTwoBenches + "[report]\n" + report_table, "exp.toml");
    } catch (const Error& e) {
        CHECK(e.code() == ExitCode::bad_input);
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("per watt: events over the bench's average power, higher is better", "[per_watt]") {
    std::vector<RunResult> runs = {run("a-1", "a", 1000, 20)};
    CHECK(add_per_watt(runs, {"sysbench_events"}).empty());
    const Metric* m = runs[0].find("sysbench_events_per_watt");
    REQUIRE(m);
    CHECK(m->value == Approx(50.0)); // 1000 events / 20 W
    CHECK(m->unit == "events/W");
    CHECK(m->better == Better::higher);
    CHECK(m->bench == "sysbench-threads");
    CHECK(runs[0].metrics.size() == 4);
    CHECK(per_watt_key("sched_pipe_ops_sec") == "sched_pipe_ops_sec_per_watt");
}

TEST_CASE("per watt: without RAPL power the value is absent and the report says why, once",
          "[per_watt]") {
    std::vector<RunResult> none = {run("a-1", "a", 1000, 0), run("a-2", "a", 900, 0)};
    CHECK(add_per_watt(none, {"sysbench_events"}) ==
          std::vector<std::string>{
              "no RAPL power recorded for sysbench-threads: performance per watt needs RAPL"});
    CHECK(!none[0].find("sysbench_events_per_watt"));
    CHECK(!none[1].find("sysbench_events_per_watt"));
    std::vector<RunResult> some = {run("a-1", "a", 1000, 0), run("a-2", "a", 900, 30)};
    CHECK(add_per_watt(some, {"sysbench_events"}) ==
          std::vector<std::string>{"no RAPL power recorded for sysbench-threads in 1 of 2 runs: "
                                   "performance per watt needs RAPL"});
    REQUIRE(some[1].find("sysbench_events_per_watt"));
    CHECK(some[1].find("sysbench_events_per_watt")->value == Approx(30.0));
    // a metric no run has derives nothing and says nothing
    CHECK(add_per_watt(some, {"sched_pipe_ops_sec"}).empty());
}

TEST_CASE("per watt: the report compares it like every metric, in the Holm family", "[per_watt][report]") {
    ReportInput in;
    in.baseline = "a";
    in.per_watt = {"sysbench_events"};
    for (int i = 1; i <= 6; ++i) { // same events; b draws half the power
        in.runs.push_back(run("a-" + std::to_string(i), "a", 1000 + i, 20 + 0.1 * i));
        in.runs.push_back(run("b-" + std::to_string(i), "b", 1000 + i, 10 + 0.1 * i));
    }
    Report r = build_report(in);
    const MetricReport* m = metric(r, "sysbench_events_per_watt");
    REQUIRE(m);
    CHECK(m->unit == "events/W");
    CHECK(m->better == Better::higher);
    REQUIRE(m->comparison);
    CHECK(m->comparison->verdict == Verdict::better);
    CHECK(m->comparison->ratio > 1.9);
    // 4 metrics (events, latency, power, per watt); power and per watt both
    // fully separated (p = 2/924 each): Holm makes the smaller one 4p, the next max(4p, 3p)
    CHECK(m->comparison->p_adjusted == Approx(8.0 / 924));
    CHECK(r.warnings.empty());
    CHECK(render_markdown(r, "").find("events/W") != std::string::npos);
    CHECK(render_json(r).find("\"sysbench_events_per_watt\"") != std::string::npos);
    in.per_watt.clear();
    CHECK(!metric(build_report(in), "sysbench_events_per_watt"));
}

TEST_CASE("per watt: a report without RAPL warns and still compares the rest", "[per_watt][report]") {
    ReportInput in;
    in.baseline = "a";
    in.per_watt = {"sysbench_events"};
    for (int i = 1; i <= 3; ++i) {
        in.runs.push_back(run("a-" + std::to_string(i), "a", 1000 + i, 0));
        in.runs.push_back(run("b-" + std::to_string(i), "b", 2000 + i, 0));
    }
    Report r = build_report(in);
    CHECK(!metric(r, "sysbench_events_per_watt"));
    CHECK(metric(r, "sysbench_events"));
    CHECK(std::count(r.warnings.begin(), r.warnings.end(),
                     "no RAPL power recorded for sysbench-threads: performance per watt needs RAPL") == 1);
}

TEST_CASE("per watt: [report] per_watt lists higher-is-better metrics a bench gives", "[per_watt][experiment]") {
    Experiment e = parse_experiment(kTwoBenches + "[report]\nper_watt = [\"sysbench_events\"]\n", "exp.toml");
    CHECK(e.report.per_watt == std::vector<std::string>{"sysbench_events"});
    CHECK(error_of("per_watt = [\"sysbench_lat_avg_ms\"]\n") ==
          "exp.toml:20:13: report.per_watt: 'sysbench_lat_avg_ms' is lower-is-better, and a time or a "
          "latency per watt means nothing: list a rate or a count, such as 'sysbench_events'");
    CHECK(error_of("per_watt = [\"sysbench_events\", \"schbench_p99_us\"]\n") ==
          "exp.toml:20:32: report.per_watt: 'schbench_p99_us' is lower-is-better, and a time or a "
          "latency per watt means nothing: list a rate or a count, such as 'sysbench_events'");
    CHECK(error_of("per_watt = [\"sched_pipe_ops_sec\"]\n") ==
          "exp.toml:20:13: report.per_watt: no bench gives the metric 'sched_pipe_ops_sec' (the benches give: "
          "schbench_p50_us, schbench_p99_us, sysbench_events, sysbench_lat_95th_ms, sysbench_lat_avg_ms)");
    CHECK(error_of("per_watt = [\"mem_used_mib\"]\n").find("no bench gives the metric 'mem_used_mib'") !=
          std::string::npos);
    CHECK(error_of("per_watt = \"sysbench_events\"\n") ==
          "exp.toml:20:1: report.per_watt must be an array of strings, not a string");
    CHECK(error_of("per_watt = [1]\n") == "exp.toml:20:13: report.per_watt must hold only strings, found an integer");
}

TEST_CASE("per watt: a metric listed twice, or a derived name a bench already gives, is refused",
          "[per_watt][experiment]") {
    CHECK(error_of("per_watt = [\"sysbench_events\", \"sysbench_events\"]\n") ==
          "exp.toml:20:32: report.per_watt lists 'sysbench_events' twice");
    std::string text = kTwoBenches + "\n[[bench]]\nkind = \"command\"\nname = \"mine\"\nargv = [\"x\"]\n"
                       "timeout_s = 5\n[[bench.metric]]\nbetter = \"higher\"\nkey = \"sysbench_events_per_watt\"\n"
                       "regex = 'v ([0-9]+)'\n[report]\nper_watt = [\"sysbench_events\"]\n";
    try {
        parse_experiment(text, "exp.toml");
        FAIL("a derived key that a bench gives was accepted");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) ==
              "exp.toml:30:13: report.per_watt: 'sysbench_events' derives 'sysbench_events_per_watt', which bench "
              "mine gives already: rename that metric");
    }
}

TEST_CASE("per watt: with no rate among the benches the message says so", "[per_watt][experiment]") {
    std::string text = kTwoBenches;
    text.replace(text.find("sysbench-threads"), 16, "perf-sched-messaging");
    try {
        parse_experiment(text + "[report]\nper_watt = [\"schbench_p99_us\"]\n", "exp.toml");
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) ==
              "exp.toml:20:13: report.per_watt: 'schbench_p99_us' is lower-is-better, and a time or a latency per "
              "watt means nothing: list a rate or a count (no bench of this experiment gives one)");
    }
}
