// Issue 34 item 2: what the demo's A/A report teaches, from its own
// intervals: the noise floor, and why each verdict is ~.
#include "catch.hpp"
#include "core/report/noise_floor.hpp"
#include "core/report/render_text.hpp"

#include <limits>

using namespace bootbench::core;

namespace {

MetricReport metric(const std::string& key, Interval ci, double p_adjusted = 1) {
    MetricReport m;
    m.key = key;
    m.comparison = Comparison{1.02, ci, {}, Verdict::same, "", ci, p_adjusted};
    return m;
}

Report sandbox_report() {
    Report r;
    r.title = "A/A";
    r.baseline = "a";
    r.subject = "b";
    r.caption.provenance_tag = "sandbox simulation";
    // 1.25x slower to 1.10x faster reaches 25%; 0.97x to 1.04x reaches 4%
    r.metrics = {metric("sched_pipe_usecs_op", {0.8, 1.1}), metric("sysbench_events", {0.97, 1.04}),
                 metric("mem_used_mib", {0.5, 2.0})};
    return r;
}

} // namespace

TEST_CASE("the noise floor of a sandbox's A/A comparison is the widest reach of its bench metrics' intervals",
          "[noise-floor]") {
    Report r = sandbox_report();
    auto f = noise_floor(r);
    REQUIRE(f);
    CHECK(f->widest == "sched_pipe_usecs_op");
    CHECK(f->widest_percent == Approx(25));
    CHECK(f->narrowest == "sysbench_events");
    CHECK(f->narrowest_percent == Approx(4));
    // mem_used_mib is the system's, not a bench's: its 2x does not count
    CHECK(noise_floor_sentence(*f) ==
          "On this machine, differences below 25% are noise for these benches: in this A/A comparison the "
          "widest 95% interval (sched_pipe_usecs_op) reaches 25% from 1.00x, the narrowest (sysbench_events) 4%.");
}

TEST_CASE("no noise floor is stated for runs of real targets, or without an interval", "[noise-floor]") {
    Report r = sandbox_report();
    r.caption.provenance_tag = "";
    CHECK_FALSE(noise_floor(r));
    r = sandbox_report();
    for (auto& m : r.metrics)
        m.comparison->no_interval = "fewer than 6 runs (a has 4)";
    CHECK_FALSE(noise_floor(r));
}

TEST_CASE("a noise floor of 100% or more is worded as a ratio, as the report words one", "[noise-floor]") {
    Report r = sandbox_report();
    r.metrics[0].comparison->ci = {0.2, 1.1}; // 5.00x slower to 1.10x faster
    auto f = noise_floor(r);
    REQUIRE(f);
    CHECK(noise_floor_sentence(*f).rfind("On this machine, differences below 5.00x are noise for these benches: "
                                         "in this A/A comparison the widest 95% interval (sched_pipe_usecs_op) "
                                         "reaches 5.00x from 1.00x",
                                         0) == 0);
}

TEST_CASE("a ~ verdict says why: the interval spans 1.00x, the adjusted p is not below 0.05", "[noise-floor]") {
    Comparison c = *metric("m", {0.9, 1.2}, 0.42).comparison;
    CHECK(same_reason(c) == "~ as the interval spans 1.00x, p = 0.420 (Holm) not below 0.05");
    c.ci = {1.1, 1.2};
    CHECK(same_reason(c) == "~ as p = 0.420 (Holm) not below 0.05");
    c.no_interval = "fewer than 6 runs (a has 4)";
    c.ci = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
    CHECK(same_reason(c) == "~ as p = 0.420 (Holm) not below 0.05");
    c.ratio = 1;
    CHECK(same_reason(c) == "~ as the medians are equal");
    c.verdict = Verdict::better;
    CHECK(same_reason(c) == "");
}
