#include "catch.hpp"
#include "run_builder.hpp"
#include "core/bench/iterations.hpp"
#include "core/report/report.hpp"
#include "core/result/run_result.hpp"

#include <algorithm>

using namespace bootbench::core;

namespace {

BenchIteration iteration(double wall, std::vector<std::pair<std::string, double>> values,
                         BenchStatus status = BenchStatus::ok, std::string reason = "") {
    BenchIteration it;
    it.record.name = "pipe";
    it.record.wall_s = wall;
    it.record.status = status;
    it.record.reason = std::move(reason);
    for (auto& [k, v] : values)
        it.metrics.metrics.push_back({k, v, "us/op", Better::lower, "pipe"});
    return it;
}

} // namespace

TEST_CASE("one iteration comes back as it was: results read as before repeat", "[iterations]") {
    BenchIteration one = fold_iterations({iteration(2.5, {{"a", 4}})}, 1);
    CHECK(one.record.iterations == 1);
    CHECK(one.record.wall_s == 2.5);
    CHECK(one.metrics.metrics[0].value == 4);
    CHECK(one.metrics.metrics[0].iterations.empty());
    CHECK(iteration_stem("pipe", 1) == "pipe");
    CHECK(iteration_stem("pipe", 3) == "pipe.iter-3");
}

TEST_CASE("iterations fold to their median, every value kept, wall times summed", "[iterations]") {
    BenchIteration f = fold_iterations(
        {iteration(1, {{"a", 5}, {"b", 1}}), iteration(2, {{"a", 3}}), iteration(3, {{"a", 10}, {"b", 2}})}, 3);
    CHECK(f.record.iterations == 3);
    CHECK(f.record.wall_s == 6);
    CHECK(f.record.status == BenchStatus::ok);
    REQUIRE(f.metrics.metrics.size() == 2);
    CHECK(f.metrics.metrics[0].key == "a");
    CHECK(f.metrics.metrics[0].value == 5); // median of 5, 3, 10
    CHECK(f.metrics.metrics[0].iterations == std::vector<double>{5, 3, 10});
    CHECK(f.metrics.metrics[1].value == 1.5); // median of the two that gave it
    CHECK(f.metrics.metrics[1].iterations == std::vector<double>{1, 2});
    CHECK(f.metrics.missing.empty());
}

TEST_CASE("a failing iteration ends the bench and says which it was", "[iterations]") {
    BenchIteration bad = iteration(1, {}, BenchStatus::failed, "exited with status 1");
    bad.metrics.missing.push_back({"a", "pipe could not run"});
    bad.metrics.missing.push_back({"a", "pipe could not run (again)"});
    BenchIteration f = fold_iterations({iteration(1, {{"b", 2}}), bad}, 5);
    CHECK(f.record.iterations == 2);
    CHECK(f.record.status == BenchStatus::failed);
    CHECK(f.record.reason == "iteration 2 of 5: exited with status 1");
    REQUIRE(f.metrics.missing.size() == 1);
    CHECK(f.metrics.missing[0].reason == "pipe could not run");
    CHECK(f.metrics.metrics[0].iterations == std::vector<double>{2});
}

TEST_CASE("iterations round-trip through the run JSON; old files have none", "[iterations]") {
    RunResult r;
    r.run_id = "a-1";
    r.metrics.push_back({"a", 5, "us/op", Better::lower, "pipe", {5, 3, 10}});
    r.metrics.push_back({"b", 1, "", Better::higher, "pipe"});
    BenchRecord b;
    b.name = "pipe";
    b.iterations = 3;
    r.benches.push_back(b);
    nlohmann::json j = to_json(r);
    CHECK(j["metrics"]["a"]["iterations"] == nlohmann::json::array({5, 3, 10}));
    CHECK_FALSE(j["metrics"]["b"].contains("iterations"));
    CHECK(j["benches"][0]["iterations"] == 3);
    RunResult back = run_result_from_json(j, "a-1.json");
    CHECK(back.metrics[0].iterations == std::vector<double>{5, 3, 10});
    CHECK(back.metrics[1].iterations.empty());
    CHECK(back.benches[0].iterations == 3);
    j["benches"][0].erase("iterations");
    CHECK(run_result_from_json(j, "a-1.json").benches[0].iterations == 1);
    j["metrics"]["a"]["iterations"] = nlohmann::json::array({1, "x"});
    CHECK_THROWS_WITH(run_result_from_json(j, "a-1.json"),
                      "a-1.json: metrics.a: field 'iterations' must be an array of numbers");
}

TEST_CASE("the iterations' CPU frequency is their mean, from those that sampled one", "[iterations]") {
    BenchIteration a = iteration(1, {{"a", 1}}), b = iteration(1, {{"a", 2}}), c = iteration(1, {{"a", 3}});
    a.freq_mhz = 3000;
    c.freq_mhz = 2000; // b had no cpufreq sample
    CHECK(fold_iterations({a, b, c}, 3).freq_mhz == 2500);
    CHECK_FALSE(fold_iterations({b, b}, 2).freq_mhz);
}

namespace {

RunResult measured(const std::string& id, double lat) {
    RunResult r = bootbench::test::run_of(id, id.substr(0, 1), "2026-07-01T10:00:0" + id.substr(2) + "+00:00");
    r.metrics.push_back({"lat", lat, "ms", Better::lower, "pipe"});
    BenchRecord b;
    b.name = "pipe";
    b.iterations = 3;
    r.benches.push_back(b);
    return r;
}

} // namespace

TEST_CASE("a bench that failed in an iteration is a warning of the report: run, iteration, reason",
          "[iterations][report]") {
    ReportInput in;
    in.baseline = "a";
    for (int i = 1; i <= 3; ++i) {
        in.runs.push_back(measured("a-" + std::to_string(i), 10 + i));
        in.runs.push_back(measured("b-" + std::to_string(i), 5 + i));
    }
    BenchRecord& stopped = in.runs[3].benches[0]; // b-2
    stopped.iterations = 2;
    stopped.status = BenchStatus::failed;
    stopped.reason = "iteration 2 of 3: exited with status 3: gone";
    in.runs[3].status = RunStatus::partial;
    Report r = build_report(in);
    CHECK(std::count(r.warnings.begin(), r.warnings.end(),
                     "bench pipe stopped before its last iteration in 1 of 6 runs (b-2): their values are "
                     "the median of the iterations before the failure (b-2: iteration 2 of 3: exited with "
                     "status 3: gone).") == 1);
}

TEST_CASE("counters follow the iterations' folding: median per event, every value kept", "[iterations][counters]") {
    auto counted = [](double cycles, std::vector<MissingMetric> unavailable, double pct = 100) {
        BenchIteration it = iteration(1, {{"a", 1}});
        it.counters = BenchCounters{"pipe", {{"cycles", cycles, "", pct}}, std::move(unavailable)};
        return it;
    };
    BenchIteration f = fold_iterations({counted(30, {{"cache-misses", "not counted: x"}}), counted(10, {}, 60),
                                        counted(20, {{"branch-misses", "not supported: y"}})},
                                       3);
    REQUIRE(f.counters);
    CHECK(f.counters->bench == "pipe");
    REQUIRE(f.counters->values.size() == 1);
    CHECK(f.counters->values[0].value == 20);
    CHECK(f.counters->values[0].iterations == std::vector<double>{30, 10, 20});
    CHECK(f.counters->values[0].running_pct == 60);
    REQUIRE(f.counters->unavailable.size() == 2);
    CHECK(f.counters->unavailable[0].key == "cache-misses");
    CHECK(f.counters->unavailable[1].reason == "not supported: y");
    CHECK_FALSE(fold_iterations({iteration(1, {}), iteration(1, {})}, 2).counters);
    BenchIteration none = iteration(1, {});
    none.counters = BenchCounters{"pipe", {}, {}, "counters unavailable: perf is not installed"};
    CHECK(fold_iterations({none, none}, 2).counters->failure == "counters unavailable: perf is not installed");
}
