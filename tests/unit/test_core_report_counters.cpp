#include "catch.hpp"
#include "core/report/render_counters.hpp"
#include "core/report/render_html.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/report.hpp"
#include "run_builder.hpp"

#include <string>

using namespace bootbench::core;

namespace {

// A sysbench-threads run "cpu" with `events` done; perf counted context
// switches and cycles (cycles 0: the PMU has none, as in a VM).
RunResult counted(const std::string& id, const std::string& target, double events, double switches,
                  double latency, double cycles = 0) {
    RunResult r = bootbench::test::run_of(id, target, bootbench::test::started_in_order(id));
    r.metrics.push_back({"sysbench_events", events, "events", Better::higher, "cpu"});
    r.metrics.push_back({"sysbench_lat_avg_ms", latency, "ms", Better::lower, "cpu"});
    bootbench::test::add_bench(r, "cpu", BenchKind::sysbench_threads);
    BenchCounters c{"cpu", {{"context-switches", switches}}};
    if (cycles > 0)
        c.values.push_back({"cycles", cycles}), c.values.push_back({"ipc", 1.5});
    else
        c.unavailable.push_back({"cycles", "not supported: no PMU"});
    r.counters.push_back(c);
    return r;
}

// a: 1000 events, 2000 switches (2 per event); b: 2000 events, 8000 switches (4 per event).
ReportInput two_targets() {
    ReportInput in;
    in.baseline = "a";
    for (int i = 1; i <= 4; ++i) {
        in.runs.push_back(counted("a-" + std::to_string(i), "a", 1000, 2000, 10 + i));
        in.runs.push_back(
            counted("b-" + std::to_string(i), "b", 2000, 8000, 5 + i, i == 4 ? 9e9 : 0));
    }
    return in;
}

} // namespace

TEST_CASE("report: counters per unit of work, subject over baseline, never a metric or a verdict",
          "[report][counters]") {
    Report r = build_report(two_targets());
    REQUIRE(r.counters.rows.size() == 3);
    const CounterRow& cs = r.counters.rows[0];
    CHECK(cs.bench == "cpu");
    CHECK(cs.event == "context-switches");
    CHECK(cs.per == "sysbench_events");
    REQUIRE(cs.targets.size() == 2);
    CHECK(cs.targets[0].median == 2);
    CHECK(cs.targets[1].median == 4);
    CHECK(cs.targets[1].runs == 4);
    CHECK(*cs.change == 2);
    // cycles in one run of b only: no change without the baseline; IPC is not divided by the work.
    CHECK(r.counters.rows[1].event == "cycles");
    CHECK_FALSE(r.counters.rows[1].change);
    CHECK(r.counters.rows[2].event == "ipc");
    CHECK(r.counters.rows[2].per.empty());
    CHECK(r.counters.rows[2].targets[0].target == "b");
    // the metrics (and Holm's family) are the bench's two, as without counters
    CHECK(r.metrics.size() == 2);
    CHECK(r.counters.unavailable ==
          std::vector<std::string>{"a, bench cpu: cycles: not supported: no PMU (4 of 4 runs)",
                                   "b, bench cpu: cycles: not supported: no PMU (3 of 4 runs)"});
}

TEST_CASE(
    "report: the Counters table in markdown, HTML and JSON says they explain and do not decide",
    "[report][counters]") {
    Report r = build_report(two_targets());
    std::string md = render_markdown(r, "chart.svg");
    CHECK(md.find("\n## Counters\n\n" + std::string(kCountersNote)) != std::string::npos);
    CHECK(md.find("| bench | event | a (baseline) | b | b / a |\n|---|---|---:|---:|---:|\n") !=
          std::string::npos);
    CHECK(
        md.find(
            "| cpu | context-switches per sysbench\\_events | 2.00 (n=4) | 4.00 (n=4) | 2.00x |") !=
        std::string::npos);
    CHECK(md.find("- Not counted: b, bench cpu: cycles: not supported: no PMU (3 of 4 runs)") !=
          std::string::npos);
    std::string html = render_html(r);
    CHECK(html.find("<h2>Counters</h2>") != std::string::npos);
    CHECK(html.find("<td>context-switches per sysbench_events</td><td>2.00 (n=4)</td>") !=
          std::string::npos);
    auto j = nlohmann::json::parse(render_json(r));
    CHECK(j["counters"]["rows"][0]["per"] == "sysbench_events");
    CHECK(j["counters"]["rows"][0]["targets"]["b"]["median"] == 4.0);
    CHECK(j["counters"]["rows"][0]["change"] == 2.0);
    CHECK(j["counters"]["rows"][1]["change"].is_null());
    CHECK(j["counters"]["note"] == kCountersNote);
    CHECK(j["metrics"].size() == 2);
}

TEST_CASE("report: without counters the report is as before; perf refused is a line",
          "[report][counters]") {
    ReportInput in = two_targets();
    for (auto& run : in.runs)
        run.counters.clear();
    Report plain = build_report(in);
    CHECK(plain.counters.empty());
    CHECK(render_markdown(plain, "c.svg").find("Counters") == std::string::npos);
    CHECK_FALSE(nlohmann::json::parse(render_json(plain)).contains("counters"));
    in.runs[0].counters.push_back({"cpu", {}, {}, "counters unavailable: perf is not installed"});
    Report refused = build_report(in);
    CHECK(refused.counters.rows.empty());
    CHECK(refused.counters.unavailable ==
          std::vector<std::string>{
              "a, bench cpu: counters unavailable: perf is not installed (1 of 4 runs)"});
    CHECK(render_markdown(refused, "c.svg")
              .find("- Not counted: a, bench cpu: counters unavailable") != std::string::npos);
}
