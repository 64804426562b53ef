#include "catch.hpp"
#include "core/bench/perf_stat.hpp"
#include "core/result/run_result.hpp"

#include <fstream>
#include <sstream>
#include <string>

using namespace bootbench::core;

namespace {

std::string data(const std::string& name) {
    std::ifstream in(std::string(TEST_DATA_DIR) + "/" + name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::vector<std::string> kAsked(std::begin(kDefaultCounters), std::end(kDefaultCounters));

std::string reason(const BenchCounters& c, const std::string& event) {
    for (const auto& u : c.unavailable)
        if (u.key == event)
            return u.reason;
    return "(available)";
}

} // namespace

TEST_CASE("perf stat -x, from this machine: software events counted, hardware ones not supported",
          "[perf-stat]") {
    BenchCounters c = parse_perf_stat(data("perf_stat_no_pmu.csv"), "cpu", kAsked);
    CHECK(c.bench == "cpu");
    REQUIRE(c.values.size() == 4);
    CHECK(c.values[0].event == "task-clock");
    CHECK(c.values[0].value == Approx(573.11));
    CHECK(c.values[0].unit == "msec");
    CHECK(c.find("context-switches")->value == 129);
    CHECK(c.find("cpu-migrations")->value == 0);
    CHECK(c.find("page-faults")->value == 790);
    CHECK(c.find("ipc") == nullptr);
    CHECK(c.unavailable.size() == 4);
    CHECK(reason(c, "cycles") == "not supported: this machine's PMU or kernel has no such event (a "
                                 "VM often lacks hardware events)");
    CHECK(reason(c, "branch-misses") == reason(c, "cycles"));
    CHECK(c.failure.empty());
}

TEST_CASE("perf stat -x, with a PMU: multiplexed counts keep their running share, IPC is derived",
          "[perf-stat]") {
    BenchCounters c = parse_perf_stat(data("perf_stat_pmu.csv"), "b", kAsked);
    CHECK(c.find("cycles")->value == 7712345678.0);
    CHECK(c.find("cycles")->running_pct == Approx(75.01));
    CHECK(c.find("cache-misses")->running_pct == Approx(50.0));
    CHECK(c.find("context-switches")->running_pct == 100);
    REQUIRE(c.find("ipc"));
    CHECK(c.find("ipc")->value == Approx(9823456789.0 / 7712345678.0));
    CHECK(reason(c, "branch-misses") ==
          "not counted: perf could not schedule it while the bench ran");
    CHECK(c.unavailable.size() == 1);
}

TEST_CASE("perf stat -x,: an event perf printed nothing for, a hybrid CPU's PMUs, odd lines",
          "[perf-stat]") {
    BenchCounters hybrid =
        parse_perf_stat(data("perf_stat_hybrid.csv"), "b", {"cycles", "instructions"});
    CHECK(hybrid.values.size() == 2);
    CHECK(hybrid.values[1].event == "cpu_atom/cycles/");
    CHECK(reason(hybrid, "cycles") == "(available)");
    CHECK(reason(hybrid, "instructions") == "perf printed no count for it");
    BenchCounters odd =
        parse_perf_stat("# c\n\n12,,cycles\nx\n,,\nnan,,instructions,1,100.00,,\n", "b", {});
    CHECK(odd.values.size() == 1);
    CHECK(odd.find("cycles")->running_pct == 100);
    CHECK(reason(odd, "instructions") == "perf printed 'nan', not a count");
    CHECK(parse_perf_stat("", "b", {"cycles"}).unavailable.size() == 1);
}

TEST_CASE("a bench's counters go through the run's JSON and back", "[perf-stat][run-result]") {
    RunResult r;
    r.experiment = "e";
    r.run_id = "a-1";
    r.target = "a";
    r.counters.push_back(parse_perf_stat(data("perf_stat_pmu.csv"), "b", kAsked));
    r.counters.back().values[1].iterations = {1, 2, 3};
    r.counters.push_back({"c", {}, {}, "counters unavailable: perf is not installed"});
    RunResult back = run_result_from_json(to_json(r), "a-1.json");
    REQUIRE(back.counters.size() == 2);
    CHECK(to_json(back) == to_json(r));
    CHECK(back.counters[0].find("cycles")->running_pct == Approx(75.01));
    CHECK(back.counters[0].values[1].iterations == std::vector<double>{1, 2, 3});
    CHECK(back.counters[1].failure == "counters unavailable: perf is not installed");
    CHECK_FALSE(to_json(RunResult{}).contains("counters"));
}
