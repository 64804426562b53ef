#include "catch.hpp"
#include "core/bench/parsers.hpp"

#include <fstream>
#include <sstream>

using namespace bootbench::core;

namespace {

std::string data(const std::string& name) {
    std::ifstream in(std::string(TEST_DATA_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::optional<double> get(const std::vector<MetricValue>& values, const std::string& key) {
    for (const auto& v : values)
        if (v.key == key)
            return v.value;
    return std::nullopt;
}

Bench bench_of(BenchKind kind, const std::string& name) {
    Bench b;
    b.kind = kind;
    b.name = name;
    return b;
}

MetricSpec spec(const std::string& key, const std::string& regex, Better better = Better::lower) {
    MetricSpec m;
    m.key = key;
    m.regex = regex;
    m.unit = "ms";
    m.better = better;
    return m;
}

} // namespace

TEST_CASE("perf sched pipe: real output") {
    auto v = parse_perf_sched_pipe(data("perf_sched_pipe.txt"));
    CHECK(v.size() == 2);
    CHECK(get(v, "sched_pipe_usecs_op") == 4.1485);
    CHECK(get(v, "sched_pipe_ops_sec") == 241050);
    auto loaded = parse_perf_sched_pipe(data("perf_sched_pipe_loaded.txt"));
    CHECK(get(loaded, "sched_pipe_usecs_op") == 23.8042);
    CHECK(get(loaded, "sched_pipe_ops_sec") == 42009);
}

TEST_CASE("perf sched pipe: truncated and garbage output give no values") {
    CHECK(parse_perf_sched_pipe(data("perf_sched_pipe_truncated.txt")).empty());
    auto partial = parse_perf_sched_pipe(data("perf_sched_pipe_no_ops.txt"));
    CHECK(get(partial, "sched_pipe_usecs_op") == 4.1485);
    CHECK_FALSE(get(partial, "sched_pipe_ops_sec"));
    CHECK(parse_perf_sched_pipe(data("garbage.bin")).empty()); // nan and -12 are not values
    CHECK(parse_perf_sched_pipe(data("perf_not_a_command.txt")).empty());
    CHECK(parse_perf_sched_pipe("").empty());
    CHECK(parse_perf_sched_pipe("usecs/op\n12usecs/op\n").empty());
}

TEST_CASE("perf sched messaging: real, truncated and foreign output") {
    CHECK(get(parse_perf_sched_messaging(data("perf_sched_messaging.txt")),
              "sched_messaging_total_s") == 2.133);
    CHECK(parse_perf_sched_messaging(data("perf_sched_messaging_truncated.txt")).empty());
    CHECK(parse_perf_sched_messaging(data("garbage.bin")).empty());
    // the pipe bench prints "Total time" too, but not for this parser's bench
    CHECK(get(parse_perf_sched_messaging("     Total time: 0.5 [sec]\n"),
              "sched_messaging_total_s") == 0.5);
    CHECK(parse_perf_sched_messaging("     Total time: 0.5 [usec]\n").empty());
}

TEST_CASE("sysbench threads: real output") {
    auto v = parse_sysbench_threads(data("sysbench_threads.txt"));
    CHECK(v.size() == 3);
    CHECK(get(v, "sysbench_events") == 4833);
    CHECK(get(v, "sysbench_lat_avg_ms") == 1.24);
    CHECK(get(v, "sysbench_lat_95th_ms") == 2.35);
}

TEST_CASE("sysbench threads: truncated and garbage output") {
    auto cut = parse_sysbench_threads(data("sysbench_threads_truncated.txt"));
    CHECK(get(cut, "sysbench_events") == 4833);
    CHECK_FALSE(get(cut, "sysbench_lat_avg_ms"));
    auto bad = parse_sysbench_threads(data("sysbench_threads_garbage.txt"));
    CHECK_FALSE(get(bad, "sysbench_events"));
    CHECK_FALSE(get(bad, "sysbench_lat_avg_ms"));
    CHECK(get(bad, "sysbench_lat_95th_ms") == 2.35);
    CHECK(parse_sysbench_threads(data("garbage.bin")).empty());
    // "avg:" outside the latency section is not the latency
    CHECK(parse_sysbench_threads("General statistics:\n    avg: 5\n").empty());
}

TEST_CASE("schbench: the final report's wakeup percentiles, not an interval report's") {
    auto v = parse_schbench(data("schbench.txt"));
    CHECK(v.size() == 2);
    CHECK(get(v, "schbench_p50_us") == 2100);
    CHECK(get(v, "schbench_p99_us") == 11888);
}

TEST_CASE("schbench: a run cut short has no final report") {
    CHECK(parse_schbench(data("schbench_truncated.txt")).empty());
    CHECK(parse_schbench(data("garbage.bin")).empty());
    CHECK(parse_schbench("").empty());
}

TEST_CASE("perf bench futex hash: real output, its average over the threads") {
    auto v = parse_bench_output(bench_of(BenchKind::perf_bench_futex, "futex"), data("perf_bench_futex_hash.txt"));
    CHECK(v.problems.empty());
    REQUIRE(v.values.size() == 1);
    CHECK(get(v.values, "futex_hash_ops_sec") == 2009600); // not a thread's own "[ 1421312 ops/sec ]"
}

TEST_CASE("perf bench futex hash: truncated and foreign output give no value, and say where to look") {
    Bench futex = bench_of(BenchKind::perf_bench_futex, "futex");
    CHECK(parse_bench_output(futex, data("perf_bench_futex_hash_truncated.txt")).values.empty());
    CHECK(parse_bench_output(futex, data("perf_not_a_command.txt")).values.empty());
    CHECK(parse_bench_output(futex, data("garbage.bin")).values.empty());
    CHECK(parse_bench_output(futex, "Averaged nan operations/sec (+- 1.00%), total secs = 1\n").values.empty());
    auto cut = collect_metrics(futex, data("perf_bench_futex_hash_truncated.txt"), "", "run/futex.stdout");
    CHECK(cut.metrics.empty());
    REQUIRE(cut.missing.size() == 1);
    CHECK(cut.missing[0].key == "futex_hash_ops_sec");
    CHECK(cut.missing[0].reason == "bench 'futex': no value in its output (see run/futex.stdout)");
    auto ok = collect_metrics(futex, data("perf_bench_futex_hash.txt"), "", "run/futex.stdout");
    REQUIRE(ok.metrics.size() == 1);
    CHECK(ok.metrics[0].unit == "ops/s");
    CHECK(ok.metrics[0].better == Better::higher);
}

TEST_CASE("command: first match of each regex, capture group 1") {
    std::string out = "warmup 99 ms\nlatency: 12.5 ms\nlatency: 13 ms\nscore=-3\n";
    auto v = parse_command(out, {spec("lat", "latency: ([0-9.]+)"), spec("score", "score=(\\S+)"),
                                 spec("absent", "nothing here: (\\d+)"), spec("word", "(warmup)")})
                 .values;
    CHECK(get(v, "lat") == 12.5);
    CHECK(get(v, "score") == -3);
    CHECK_FALSE(get(v, "absent"));
    CHECK_FALSE(get(v, "word"));
    // an experiment built in code may hold a regex the file parser would reject
    auto broken = parse_command(out, {spec("broken", "(")});
    CHECK(broken.values.empty());
    REQUIRE(broken.problems.size() == 1);
    CHECK(broken.problems[0].reason ==
          "regex '(' does not compile: missing closing parenthesis at offset 1");
}

TEST_CASE("parse_number accepts plain non-negative numbers only") {
    CHECK(parse_number(" 4.5 ") == 4.5);
    CHECK(parse_number("1e3") == 1000);
    CHECK_FALSE(parse_number("nan"));
    CHECK_FALSE(parse_number("inf"));
    CHECK_FALSE(parse_number("-1"));
    CHECK_FALSE(parse_number("4.5x"));
    CHECK_FALSE(parse_number(""));
}

TEST_CASE("collect_metrics: found, missing and failed, with the reasons a user reads") {
    Bench pipe = bench_of(BenchKind::perf_sched_pipe, "pipe");
    auto ok = collect_metrics(pipe, data("perf_sched_pipe.txt"), "", "run/pipe.stdout");
    REQUIRE(ok.metrics.size() == 2);
    CHECK(ok.metrics[0].key == "sched_pipe_usecs_op");
    CHECK(ok.metrics[0].unit == "us/op");
    CHECK(ok.metrics[0].better == Better::lower);
    CHECK(ok.metrics[0].bench == "pipe");
    CHECK(ok.metrics[1].better == Better::higher);
    CHECK(ok.missing.empty());

    auto partial = collect_metrics(pipe, data("perf_sched_pipe_no_ops.txt"), "", "run/pipe.stdout");
    CHECK(partial.metrics.size() == 1);
    REQUIRE(partial.missing.size() == 1);
    CHECK(partial.missing[0].key == "sched_pipe_ops_sec");
    CHECK(partial.missing[0].reason ==
          "bench 'pipe': no value in its output (see run/pipe.stdout)");

    auto failed = collect_metrics(pipe, data("perf_sched_pipe.txt"), "timed out after 5 s", "x");
    CHECK(failed.metrics.empty());
    REQUIRE(failed.missing.size() == 2);
    CHECK(failed.missing[1].reason == "bench 'pipe' timed out after 5 s");

    Bench cmd = bench_of(BenchKind::command, "mine");
    cmd.metrics = {spec("t", "took (\\d+) ms", Better::higher)};
    auto c = collect_metrics(cmd, "took 42 ms\n", "", "x");
    REQUIRE(c.metrics.size() == 1);
    CHECK(c.metrics[0].value == 42);
    CHECK(c.metrics[0].unit == "ms");
    CHECK(c.metrics[0].better == Better::higher);
    auto none = collect_metrics(cmd, "took many ms\n", "", "run/mine.stdout");
    REQUIRE(none.missing.size() == 1);
    CHECK(
        none.missing[0].reason ==
        "bench 'mine': regex 'took (\\d+) ms' found no number in its output (see run/mine.stdout)");
}

TEST_CASE("expected metrics use the published keys") {
    std::vector<std::string> keys;
    for (auto kind : {BenchKind::perf_sched_pipe, BenchKind::perf_sched_messaging,
                      BenchKind::sysbench_threads, BenchKind::schbench})
        for (const auto& m : expected_metrics(bench_of(kind, "b")))
            keys.push_back(m.key);
    CHECK(keys == std::vector<std::string>{"sched_pipe_usecs_op", "sched_pipe_ops_sec",
                                           "sched_messaging_total_s", "sysbench_events",
                                           "sysbench_lat_avg_ms", "sysbench_lat_95th_ms",
                                           "schbench_p50_us", "schbench_p99_us"});
}

TEST_CASE("command: a 50,000-digit line gives a missing metric, not a crash") {
    Bench cmd = bench_of(BenchKind::command, "long");
    cmd.metrics = {spec("t", "took ([0-9]+)")};
    auto c = collect_metrics(cmd, "took " + std::string(50000, '7') + "\n", "", "run/long.stdout");
    CHECK(c.metrics.empty());
    REQUIRE(c.missing.size() == 1);
    CHECK(
        c.missing[0].reason ==
        "bench 'long': regex 'took ([0-9]+)' found no number in its output (see run/long.stdout)");
}

TEST_CASE("command: catastrophic backtracking stops at the match limit with the reason") {
    Bench cmd = bench_of(BenchKind::command, "slow");
    cmd.metrics = {spec("t", "(a|a)*b([0-9])"), spec("u", "took ([0-9]+)")};
    std::string line = std::string(28, 'a') + "bx";
    auto c = collect_metrics(cmd, line + "\ntook 3\n", "", "run/slow.stdout");
    REQUIRE(c.metrics.size() == 1);
    CHECK(c.metrics[0].key == "u");
    REQUIRE(c.missing.size() == 1);
    CHECK(c.missing[0].key == "t");
    CHECK(c.missing[0].reason ==
          "bench 'slow': regex '(a|a)*b([0-9])' gave up on a line of 30 bytes (match limit "
          "exceeded); make the regex simpler (see run/slow.stdout)");
    // without a 'b' PCRE2 knows at once that nothing can match
    auto none = collect_metrics(cmd, std::string(28, 'a') + "\n", "", "x");
    CHECK(none.missing[0].reason ==
          "bench 'slow': regex '(a|a)*b([0-9])' found no number in its output (see x)");
}

TEST_CASE("command: a metric regex sees the first 64 KiB of a line") {
    std::vector<MetricSpec> specs = {spec("t", "took ([0-9]+)")};
    std::string pad(kMaxMetricLine, 'x');
    CHECK(get(parse_command("took 5 " + pad + "\n", specs).values, "t") == 5);
    CHECK_FALSE(get(parse_command(pad + " took 5\ntook 6\n", specs).values, "t") == 5);
    CHECK(get(parse_command(pad + " took 5\ntook 6\n", specs).values, "t") == 6);
}
