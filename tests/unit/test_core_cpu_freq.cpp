#include "catch.hpp"
#include "run_builder.hpp"
#include "core/bench/cpu_freq.hpp"
#include "core/report/report.hpp"

using namespace bootbench::core;

namespace {

RunResult run(const std::string& id, const std::string& target, nlohmann::json freq) {
    RunResult r = bootbench::test::run_of(id, target, bootbench::test::started_in_order(id));
    r.metrics.push_back({"lat", 10, "ms", Better::lower, "b"});
    if (!freq.is_null())
        r.environment = bootbench::test::environment_of({{"cpu_freq_mhz", std::move(freq)}});
    return r;
}

std::vector<const RunResult*> pointers(const std::vector<RunResult>& runs) {
    std::vector<const RunResult*> out;
    for (const auto& r : runs)
        out.push_back(&r);
    return out;
}

} // namespace

TEST_CASE("cpu frequency: the samples' mean in MHz, none without samples", "[canaries]") {
    CHECK(average_mhz({2'000'000, 3'000'000}) == Approx(2500));
    CHECK(average_mhz({}) == std::nullopt);
}

TEST_CASE("cpu frequency: a bench below 90% of its median over the target's runs is a drop", "[canaries]") {
    std::vector<RunResult> runs = {run("a-1", "a", {{"pipe", 2800.0}}), run("a-2", "a", {{"pipe", 2100.0}}),
                                   run("a-3", "a", {{"pipe", 2810.0}}), run("b-1", "b", {{"pipe", 2100.0}}),
                                   run("b-2", "b", {{"pipe", 2100.0}}), run("b-3", "b", nullptr)};
    auto drops = frequency_drops(pointers(runs));
    // a's median is 2800: a-2 is 25% below; b runs slower throughout, which is no drop
    REQUIRE(drops.size() == 1);
    CHECK(drops["a-2"] == "CPU frequency during pipe averaged 2100 MHz, 25% below the median of a's runs (2800 MHz)");
    runs[1].environment.cpu_freq_mhz.set()["pipe"] = 2530.0; // 9.6% below: within the 10%
    CHECK(frequency_drops(pointers(runs)).empty());
}

TEST_CASE("cpu frequency: the report marks a run with a drop like the other canaries", "[canaries][report]") {
    ReportInput in;
    in.baseline = "a";
    in.runs = {run("a-1", "a", {{"pipe", 2800.0}}), run("a-2", "a", {{"pipe", 2000.0}}),
               run("a-3", "a", {{"pipe", 2800.0}}), run("b-1", "b", {{"pipe", 2800.0}}),
               run("b-2", "b", {{"pipe", 2800.0}}), run("b-3", "b", {{"pipe", 2800.0}})};
    Report r = build_report(in);
    REQUIRE(r.find_canary("a-2"));
    CHECK(r.find_canary("a-2")->text ==
          "CPU frequency during pipe averaged 2000 MHz, 29% below the median of a's runs (2800 MHz)");
    CHECK(r.canaries.size() == 1);
    bool warned = false;
    for (const auto& w : r.warnings)
        warned = warned || w == "run a-2: " + r.find_canary("a-2")->text;
    CHECK(warned);
}
