// Report defects an audit found (issue 16): what a reader sees when a sample
// has a zero, a metric has fewer values than runs, or run files disagree on
// a metric's direction.
#include "catch.hpp"
#include "run_builder.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/report.hpp"
#include "core/report/report_reproduce.hpp"

using namespace bootbench::core;

namespace {

RunResult run(const std::string& id, const std::string& target, const std::string& key,
              double value, Better better = Better::lower) {
    RunResult r = bootbench::test::run_of(id, target, bootbench::test::started_in_order(id));
    r.metrics.push_back({key, value, "ms", better, "b"});
    return r;
}

// a around 10 ms, b around 5 ms with `b_first` as b-1's value, n runs each.
ReportInput lat_runs(double b_first, int runs = 4) {
    ReportInput in;
    in.baseline = "a";
    for (int i = 1; i <= runs; ++i) {
        std::string n = std::to_string(i);
        in.runs.push_back(run("a-" + n, "a", "lat", 10 + 0.1 * i));
        in.runs.push_back(run("b-" + n, "b", "lat", i == 1 ? b_first : 5 + 0.1 * i));
    }
    return in;
}

} // namespace

TEST_CASE("report: a zero in a sample says why there is no interval", "[report][interval]") {
    Report r = build_report(lat_runs(0)); // b: 0, 5.2, 5.3, 5.4: a resampled median can be 0
    const Comparison& c = *r.metrics[0].comparison;
    CHECK(c.no_interval == "a value of b is 0");
    // no interval, so p alone decides: 2/70, the one metric, below 0.05
    CHECK(c.verdict == Verdict::better);
    std::string md = render_markdown(r, "report.svg");
    CHECK(md.find("| no interval: a value of b is 0 |") != std::string::npos);
    CHECK(md.find("n/a") == std::string::npos);
    nlohmann::json m = nlohmann::json::parse(render_json(r))["metrics"][0];
    CHECK(m["ci"].is_null());
    CHECK(m["no_ci"] == "a value of b is 0");
}

TEST_CASE("reproduce: fresh results without an interval say why", "[report][interval]") {
    std::vector<ReproduceRow> rows =
        compare_reproduction(build_report(lat_runs(5.1)), build_report(lat_runs(0)));
    CHECK(rows[0].verdict == Reproduction::inconclusive);
    CHECK(rows[0].why == "the fresh results have no interval: a value of b is 0");
}

TEST_CASE("report: an interval from positive values has no reason beside it",
          "[report][interval]") {
    Report r = build_report(lat_runs(5.1, 6));
    const Comparison& c = *r.metrics[0].comparison;
    CHECK(c.no_interval.empty());
    CHECK(c.ci.lo > 1);
    nlohmann::json m = nlohmann::json::parse(render_json(r))["metrics"][0];
    CHECK(m["ci"].size() == 2);
    CHECK_FALSE(m.contains("no_ci"));
}

namespace {

bool has_warning(const Report& r, const std::string& start) {
    for (const auto& w : r.warnings)
        if (w.rfind(start, 0) == 0)
            return true;
    return false;
}

} // namespace

TEST_CASE("report: a metric with too few values for a verdict is a warning whatever the runs",
          "[report][sample-size]") {
    ReportInput in = lat_runs(5.1, 6);
    for (auto& r : in.runs)
        if (r.run_id.rfind("a-", 0) == 0 || r.run_id == "b-1" || r.run_id == "b-2")
            r.metrics.push_back({"ops", 2 * r.metrics[0].value, "ops/s", Better::higher, "b"});
    Report r = build_report(in); // 6 runs each, but ops has 2 values of b and 6 of a
    CHECK(r.metrics[1].comparison->verdict == Verdict::same);
    CHECK(has_warning(r, "ops has 2 values of b and 6 of a: the smallest p-value the exact test "
                         "can give is 0.071, and 0.143 after Holm's adjustment over 2 metrics, "
                         "not below 0.05, so its verdict is ~. Take at least 5 runs of each "
                         "target that give it."));
    CHECK_FALSE(has_warning(r, "With ")); // the runs themselves are enough
    CHECK_FALSE(has_warning(r, "lat has"));
}

TEST_CASE("report: metrics with the same too few values share one warning",
          "[report][sample-size]") {
    ReportInput in = lat_runs(5.1, 6);
    for (auto& r : in.runs)
        if (r.run_id.rfind("a-", 0) == 0 || r.run_id == "b-1" || r.run_id == "b-2")
            for (const char* key : {"x", "y"})
                r.metrics.push_back({key, r.metrics[0].value, "ms", Better::lower, "b"});
    Report r = build_report(in);
    CHECK(has_warning(r, "x, y have 2 values of b and 6 of a: the smallest p-value the exact test "
                         "can give is 0.071, and 0.214 after Holm's adjustment over 3 metrics, "
                         "not below 0.05, so their verdicts are ~. Take at least 5 runs of each "
                         "target that give them."));
}

TEST_CASE("report: 4 runs each cannot show a difference among 8 metrics", "[report][sample-size]") {
    ReportInput in = lat_runs(5.1);
    for (auto& r : in.runs)
        for (int k = 1; k < 8; ++k)
            r.metrics.push_back({"m" + std::to_string(k), r.metrics[0].value, "ms", Better::lower, "b"});
    Report r = build_report(in);
    CHECK(has_warning(r, "With 4 runs of b and 4 of a, the smallest p-value the exact test can give "
                         "is 0.029, and 0.229 after Holm's adjustment over 8 metrics, not below "
                         "0.05: no difference can be shown to be real, so every verdict is ~. "
                         "Take at least 6 runs of each target."));
}

namespace {

// a-1, the first run read, says the catalog's lower-is-better key is higher-is-better.
ReportInput disagreeing_runs(const std::string& key) {
    ReportInput in = lat_runs(5.1);
    for (auto& r : in.runs) {
        r.metrics[0].key = key;
        r.source = "runs/" + r.run_id + ".json";
    }
    in.runs[0].metrics[0].better = Better::higher;
    return in;
}

} // namespace

TEST_CASE("report: the metric catalog decides a known metric's direction, not the first run file",
          "[report][direction]") {
    Report r = build_report(disagreeing_runs("sched_pipe_usecs_op"));
    const MetricReport& m = r.metrics[0];
    CHECK(m.better == Better::lower);
    CHECK(m.comparison->ratio == Approx(10.25 / 5.25)); // b is 2x faster: better
    CHECK(m.comparison->verdict == Verdict::better);
    CHECK(has_warning(r, "sched_pipe_usecs_op: runs/a-1.json says higher is better; the metric "
                         "catalog says lower, and the report uses lower."));
}

TEST_CASE("report: an unknown metric takes the first run's direction and names those that differ",
          "[report][direction]") {
    ReportInput in = disagreeing_runs("lat");
    in.runs[1].source = ""; // b-1, read from no file, is named by its id
    Report r = build_report(in);
    CHECK(r.metrics[0].better == Better::higher);
    CHECK(has_warning(r, "lat: run b-1, runs/a-2.json, runs/b-2.json, runs/a-3.json and 3 more say lower "
                         "is better; the first run (runs/a-1.json) says higher, and the report "
                         "uses higher."));
}

TEST_CASE("report: metrics no run has are named with why, once per reason", "[report][missing]") {
    ReportInput in = lat_runs(5.1);
    const std::string skipped = "bench 'schbench' was skipped: schbench is not installed";
    for (auto& r : in.runs) {
        r.missing.push_back({"schbench_p50_us", skipped});
        r.missing.push_back({"schbench_p99_us", skipped});
        if (r.run_id == "a-1")
            r.missing.push_back({"stress_bogo_ops", "bench 'stress' timed out"});
        if (r.run_id == "b-1")
            r.missing.push_back({"lat", "bench 'b' failed"}); // other runs have lat
    }
    Report r = build_report(in);
    CHECK(has_warning(r, "schbench_p50_us, schbench_p99_us are in no run: " + skipped + " (said by 8 of 8 runs)."));
    CHECK(has_warning(r, "stress_bogo_ops is in no run: bench 'stress' timed out (said by 1 of 8 runs)."));
    CHECK_FALSE(has_warning(r, "lat is in no run"));
}
