#include "catch.hpp"
#include "run_builder.hpp"
#include "core/sizing/plan_advice.hpp"
#include "core/report/render_variance.hpp"
#include "core/report/report.hpp"

#include <limits>

using namespace bootbench::core;

namespace {

// A run of `target` whose bench "pipe" ran len(iterations) times in 2 s.
RunResult boot(const std::string& id, const std::string& target, std::vector<double> iterations,
               const std::string& started) {
    RunResult r = bootbench::test::run_of(id, target, started);
    std::vector<double> sorted = iterations;
    r.metrics.push_back({"lat", median(sorted), "ms", Better::lower, "pipe", iterations});
    BenchRecord b;
    b.name = "pipe";
    b.wall_s = 2;
    b.iterations = static_cast<int>(iterations.size());
    r.benches.push_back(b);
    return r;
}

std::string two_digits(int n) {
    return (n < 10 ? "0" : "") + std::to_string(n);
}

// Runs every 62 s (a boot: 62 - 2 = 60 s; an iteration 1 s), a: {10,12} {14,16} {11,13}.
ReportInput pilot(bool timed = true) {
    ReportInput in;
    in.baseline = "a";
    std::vector<std::vector<double>> boots = {{10, 12}, {14, 16}, {11, 13}};
    int at = 0;
    for (size_t i = 0; i < boots.size(); ++i)
        for (const char* t : {"a", "b"}) {
            std::string stamp = timed ? "2026-07-01T10:" + two_digits(10 + at / 60) + ":" +
                                            two_digits(at % 60) + "+00:00"
                                      : "";
            in.runs.push_back(boot(std::string(t) + "-" + std::to_string(i + 1), t, boots[i], stamp));
            at += 62;
        }
    return in;
}

} // namespace

TEST_CASE("report: a metric with iterations gets its split, advice and costs", "[report][variance]") {
    Report r = build_report(pilot());
    const MetricReport& m = r.metrics[0];
    REQUIRE(m.variance.size() == 2);
    CHECK(m.variance[0].target == "a");
    CHECK(m.variance[0].split.t2_sq == Approx(10.0 / 3));
    CHECK(m.iteration_s == 1);
    CHECK(m.bench == "pipe");
    CHECK(r.boot_cost.measured);
    CHECK(r.boot_cost.seconds == 60);
    CHECK(m.variance[0].advice->iterations == 6);
    // Issue 32 item 7: the boots for the ratio of the two medians, not for
    // a's mean (222): w = (10/3 + pi x 2/6) / (38/3)^2 = 0.027302 for a and
    // for b (a x 2); t(826)^2 x pi/2 x 2w / 0.02^2 = 826.2 -> 827.
    CHECK(m.variance[0].advice->boots == 827);
    CHECK(m.variance[1].advice->boots == 827);
    CHECK(m.targets[0].summary.median == 12); // per-boot values 11, 15, 12
}

TEST_CASE("report: without times the boot cost is the estimate's, and says so", "[report][variance]") {
    Report r = build_report(pilot(false));
    CHECK_FALSE(r.boot_cost.measured);
    CHECK(r.boot_cost.seconds == 120); // 60 s boot + 60 s settle
    // r1 = ceil(sqrt(120 * 2 / (10/3))) = ceil(8.49) = 9
    CHECK(r.metrics[0].variance[0].advice->iterations == 9);
}

TEST_CASE("report: the estimated boot cost takes the experiment's settle, and says it", "[report][variance]") {
    ReportInput in = pilot(false);
    in.settle_s = 0;
    Report r = build_report(in);
    CHECK(r.boot_cost.seconds == 60); // 60 s boot + 0 s settle
    CHECK(variance_costs_line(r) == "Costs used: a boot 60.0 s (the estimate's 60 s boot + 0 s settle: the runs' "
                                    "times could not measure it); one iteration (measured wall time): lat 1.00 s.");
}

TEST_CASE("report: a variance split that is not a number says so, never 0.0%", "[report][variance]") {
    const double top = std::numeric_limits<double>::max();
    VarianceSplit nan_split = *variance_split({{top, top}, {top, top}}); // the sums overflow: inf - inf
    Report r = build_report(pilot());
    r.metrics[0].variance = {{"a", nan_split, std::nullopt}};
    CHECK(variance_lines(r) ==
          std::vector<std::string>{"lat on a (2 boots x 2 iterations): no variance split (the variances are not "
                                   "finite numbers: the values are too large); no advice: the mean is not above 0"});
    VarianceSplit none = *variance_split({{5, 5}, {5, 5}});
    r.metrics[0].variance = {{"a", none, std::nullopt}};
    CHECK(variance_lines(r)[0].find("): no variance within or between boots (every value is the same);") !=
          std::string::npos);
}

TEST_CASE("report: results without repeat have no split", "[report][variance]") {
    ReportInput in = pilot();
    for (auto& run : in.runs)
        run.metrics[0].iterations.clear();
    Report r = build_report(in);
    CHECK(r.metrics[0].variance.empty());
    CHECK(r.boot_cost.seconds == 0);
}

TEST_CASE("plan advice: runs and repeat for the experiment from a pilot", "[report][variance]") {
    Report r = build_report(pilot());
    Experiment e;
    e.runs = 4;
    e.targets.resize(2);
    Bench pipe, other;
    pipe.name = "pipe";
    pipe.repeat = 2;
    other.name = "other";
    e.benches = {pipe, other};
    e.source_file = "x.toml";
    PlanAdvice a = plan_advice(r, e);
    CHECK(a.runs == 827);
    CHECK(a.current_runs == 4);
    REQUIRE(a.benches.size() == 1);
    CHECK(a.benches[0].repeat == 6);
    CHECK(a.benches[0].current == 2);
    CHECK(a.sized.benches[0].repeat == 6);
    CHECK(a.sized.benches[1].repeat == 1);
    CHECK(a.sized.runs == 827);
    e.benches = {other};
    CHECK_THROWS_WITH(plan_advice(r, e),
                      "the pilot's results have no bench that ran more than once per boot and is in x.toml: "
                      "run a pilot with repeat = 3 (or more) on the benches, e.g. runs = 4, then plan --from "
                      "its results");
}
