#include "catch.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/state/estimate.hpp"

using namespace bootbench::core;

namespace {

Bench built_in_code(BenchKind kind) {
    Bench b;
    b.kind = kind;
    return b;
}

} // namespace

TEST_CASE("every bench kind has its descriptor in the table", "[bench-kinds]") {
    for (const auto& [name, kind] : kBenchKindNames) {
        INFO(name);
        CHECK(bench_kind(kind).kind == kind);
        CHECK(bench_kind(kind).read_keys);
        CHECK(bench_kind(kind).parse);
    }
}

// The case: one `loops` field, two kinds, two defaults; a Bench
// built in code used to get perf-sched-pipe's 1000000 for messaging too.
TEST_CASE("a Bench built in code has its own kind's defaults", "[bench-kinds]") {
    CHECK(estimate_bench_seconds(built_in_code(BenchKind::perf_sched_pipe)) == Approx(10.5));   // 1000000 loops
    CHECK(estimate_bench_seconds(built_in_code(BenchKind::perf_sched_messaging)) == Approx(3.5)); // 20 x 1000
    CHECK(estimate_bench_seconds(built_in_code(BenchKind::sysbench_threads)) == Approx(30.5));
    CHECK(estimate_bench_seconds(built_in_code(BenchKind::schbench)) == Approx(30.5));
    CHECK(estimate_bench_seconds(built_in_code(BenchKind::perf_bench_futex)) == Approx(10.5)); // perf's 10 s
}

TEST_CASE("quick scales a Bench built in code from its kind's defaults", "[bench-kinds]") {
    Experiment e;
    for (const auto& [name, kind] : kBenchKindNames)
        e.benches.push_back(built_in_code(kind));
    Experiment q = quick_version(e);
    CHECK(q.benches[0].loops == 20000); // perf-sched-pipe: 1000000 / 50
    CHECK(q.benches[1].loops == 50);    // perf-sched-messaging: 1000 / 20
    CHECK(q.benches[2].runtime_s == 3);
    CHECK(q.benches[3].runtime_s == 3);
    CHECK(q.benches[5].runtime_s == 3);
}

TEST_CASE("a metric's unit and direction are decided once: the bench's equal the catalogue's", "[bench-kinds]") {
    for (const auto& [name, kind] : kBenchKindNames)
        for (const auto& spec : expected_metrics(built_in_code(kind))) {
            INFO(name << " " << spec.key);
            auto info = find_metric(spec.key);
            REQUIRE(info);
            CHECK(info->unit == spec.unit);
            CHECK(info->better == spec.better);
            CHECK(info->from == MetricFrom::bench);
        }
    auto futex = find_metric("futex_hash_ops_sec");
    REQUIRE(futex);
    CHECK(futex->unit == "ops/s");
    CHECK(futex->better == Better::higher);
}
