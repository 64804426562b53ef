// The published Margine vs Bluefin-DX set (tests/data/published, Apache-2.0):
// the report must give the numbers anyone can compute by hand from the files.
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/report/published.hpp"
#include "core/report/report.hpp"
#include "error_of.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

const std::string kDir = std::string(TEST_DATA_DIR) + "/published/margine-2026-06-16";

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<RunResult> published_runs() {
    std::vector<RunResult> runs;
    for (const char* id :
         {"bluefin-dx-1", "bluefin-dx-2", "bluefin-dx-3", "bluefin-dx-4", "margine-cachyos-1",
          "margine-cachyos-2", "margine-cachyos-3", "margine-cachyos-4"}) {
        std::string path = kDir + "/" + id + ".json";
        runs.push_back(run_from_published(nlohmann::json::parse(slurp(path)), id, path));
    }
    return runs;
}

ReportInput published_input() {
    ReportInput in;
    in.runs = published_runs();
    in.baseline = "bluefin-dx";
    return in;
}

const MetricReport& metric(const Report& r, const std::string& key) {
    for (const auto& m : r.metrics)
        if (m.key == key)
            return m;
    FAIL("no metric " << key);
    throw;
}

double median_of(const Report& r, const std::string& key, const std::string& target) {
    return metric(r, key).find(target)->summary.median;
}

struct Expected {
    const char* key;
    double baseline_median, subject_median, ratio;
};

// By hand from the files. bluefin-dx has 4 runs: its median is the mean of
// the middle two. margine-cachyos has runs 2-4: its median is the middle one.
// Ratios are baseline/subject for lower-is-better, subject/baseline for
// higher-is-better (> 1 = margine-cachyos better).
const Expected kExpected[] = {
    // 7.943863 7.95377 7.990634 7.996969 -> (7.95377 + 7.990634) / 2 = 7.972202
    // 4.288402 4.45432 4.462258 -> 4.45432; 7.972202 / 4.45432 = 1.78976858...
    {"sched_pipe_usecs_op", 7.972202, 4.45432, 1.7897685842},
    // 125047 125146 125726 125883 -> 125436; 224101 224501 233187 -> 224501; 224501 / 125436
    {"sched_pipe_ops_sec", 125436, 224501, 1.7897652986},
    // 3.2 3.246 3.253 3.387 -> 3.2495; 2.957 2.988 3.1 -> 2.988; 3.2495 / 2.988
    {"sched_messaging_total_s", 3.2495, 2.988, 1.0875167336},
    // 54586 56961 57207 57443 -> 57084; 82980 88163 88207 -> 88163; 88163 / 57084
    {"sysbench_events", 57084, 88163, 1.5444432766},
    // 6.26 6.29 6.32 6.59 -> 6.305; 4.08 4.08 4.34 -> 4.08; 6.305 / 4.08
    {"sysbench_lat_avg_ms", 6.305, 4.08, 1.5453431373},
    // 20.37 21.11 21.5 21.89 -> 21.305; 23.95 23.95 24.38 -> 23.95; 21.305 / 23.95
    {"sysbench_lat_95th_ms", 21.305, 23.95, 0.8895615866},
    // 2940 2972 2988 2996 -> 2980; 2042 2076 2100 -> 2076; 2980 / 2076
    {"schbench_p50_us", 2980, 2076, 1.4354527938},
    // 9648 9776 11664 11856 -> 10720; 11888 11984 12240 -> 11984; 10720 / 11984
    {"schbench_p99_us", 10720, 11984, 0.8945260347},
};

} // namespace

TEST_CASE("published set with margine-cachyos-1 excluded: medians and ratios by hand",
          "[report][published]") {
    ReportInput in = published_input();
    in.exclude = {{"margine-cachyos-1", "older deployment"}};
    Report r = build_report(in);
    CHECK(r.subject == "margine-cachyos");
    REQUIRE(r.metrics.size() == 8);
    for (const auto& e : kExpected) {
        INFO(e.key);
        CHECK(median_of(r, e.key, "bluefin-dx") == Approx(e.baseline_median).epsilon(1e-12));
        CHECK(median_of(r, e.key, "margine-cachyos") == Approx(e.subject_median).epsilon(1e-12));
        REQUIRE(metric(r, e.key).comparison);
        CHECK(metric(r, e.key).comparison->ratio == Approx(e.ratio).epsilon(1e-9));
        CHECK(metric(r, e.key).find("margine-cachyos")->summary.n == 3);
        CHECK(metric(r, e.key).find("bluefin-dx")->summary.n == 4);
    }
    CHECK(r.outliers.empty());
}

TEST_CASE("published set: exclusion is listed with its reason", "[report][published]") {
    ReportInput in = published_input();
    in.exclude = {{"margine-cachyos-1", "older deployment"}};
    Report r = build_report(in);
    const TargetReport* m = r.find_target("margine-cachyos");
    REQUIRE(m);
    CHECK(m->runs ==
          std::vector<std::string>{"margine-cachyos-2", "margine-cachyos-3", "margine-cachyos-4"});
    REQUIRE(m->excluded.size() == 1);
    CHECK(m->excluded[0].run == "margine-cachyos-1");
    CHECK(m->excluded[0].reason == "older deployment");
    CHECK(r.targets[0].name == "bluefin-dx");
}

TEST_CASE("published set: 3 vs 4 runs cannot be significant, so every verdict is ~",
          "[report][published]") {
    ReportInput in = published_input();
    in.exclude = {{"margine-cachyos-1", "older deployment"}};
    Report r = build_report(in);
    for (const auto& m : r.metrics) {
        INFO(m.key);
        CHECK(m.comparison->test.p_value == Approx(2.0 / 35)); // every metric is fully separated
        CHECK(m.comparison->verdict == Verdict::same);
    }
    bool warned = false;
    for (const auto& w : r.warnings)
        warned |= w.find("smallest p-value the exact test can give is 0.057") != std::string::npos;
    CHECK(warned);
}

TEST_CASE("published set: runs taken in blocks are a warning", "[report][published]") {
    ReportInput in = published_input();
    in.exclude = {{"margine-cachyos-1", "older deployment"}};
    Report r = build_report(in);
    bool warned = false;
    for (const auto& w : r.warnings)
        warned |=
            w.rfind("Runs were taken in blocks (all bluefin-dx, then all margine-cachyos)", 0) == 0;
    CHECK(warned);
}

TEST_CASE("published set with every run: margine-cachyos-1 is flagged", "[report][published]") {
    Report r = build_report(published_input());
    const Outlier* pipe = nullptr;
    for (const auto& o : r.outliers)
        if (o.run == "margine-cachyos-1" && o.metric == "sched_pipe_usecs_op")
            pipe = &o;
    REQUIRE(pipe);
    // the median of the other three: 4.45432
    CHECK(pipe->rest_median == 4.45432);
    CHECK(pipe->value == 7.748927);
    for (const auto& o : r.outliers)
        CHECK(o.run == "margine-cachyos-1"); // nobody else
    // Flagged, not dropped: still counted in the median.
    CHECK(median_of(r, "sched_pipe_usecs_op", "margine-cachyos") == Approx(4.458289));
    CHECK(r.find_target("margine-cachyos")->runs.size() == 4);
    bool warned = false;
    for (const auto& w : r.warnings)
        warned |=
            w ==
            "1 run is flagged as an outlier (margine-cachyos-1); it is kept unless you exclude it "
            "(--exclude RUN_ID).";
    CHECK(warned);
}

TEST_CASE("published file: identity keys map onto the environment", "[report][published]") {
    RunResult r = published_runs()[4];
    CHECK(r.run_id == "margine-cachyos-1");
    CHECK(r.target == "margine-cachyos");
    CHECK(r.started_at == "2026-06-16T18:51:25+02:00");
    CHECK(to_json(r.environment)["kernel_release"] == "7.0.12-cachyos1.fc44.x86_64");
    CHECK(to_json(r.environment)["sched_ext_state"] == "disabled");
    CHECK(to_json(r.environment)["nproc"] == 12);
    CHECK(to_json(r.environment)["temp_start_c"] == 45.1);
    CHECK(r.metrics.size() == 8);
    CHECK_FALSE(r.find("sysbench_total_time_s")); // not a catalog metric
    REQUIRE(r.find("sched_pipe_ops_sec"));
    CHECK(r.find("sched_pipe_ops_sec")->better == Better::higher);
}

TEST_CASE("published file: wrong documents are refused with the file named",
          "[report][published]") {
    auto message = [](const nlohmann::json& j) {
        try {
            run_from_published(j, "x", "dir/x.json");
        } catch (const bootbench::Error& e) {
            CHECK(e.code() == bootbench::ExitCode::bad_input);
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(message({{"schema", "other/1"}, {"label", "a"}}) ==
          "dir/x.json: schema is 'other/1', expected 'margine-bench-kernel/1'");
    CHECK(message({{"schema", "margine-bench-kernel/1"}}) ==
          "dir/x.json: missing field 'label' (the arm this run belongs to)");
    CHECK(message({{"schema", "margine-bench-kernel/1"},
                   {"label", "a"},
                   {"sched_pipe_usecs_op", "fast"}}) ==
          "dir/x.json: field 'sched_pipe_usecs_op' must be a number");
    CHECK(message({{"schema", "margine-bench-kernel/1"}, {"label", "a"}}) ==
          "dir/x.json: no known metric (expected keys such as sched_pipe_usecs_op)");
    CHECK(message(nlohmann::json::array()) == "dir/x.json: expected a JSON object");
}

TEST_CASE("published README: the excluded run and its reason", "[report][published]") {
    auto ex = published_exclusions(slurp(kDir + "/README.md"), "README.md");
    REQUIRE(ex.size() == 1);
    CHECK(ex[0].run == "margine-cachyos-1");
    CHECK(ex[0].reason == "excluded by the publisher (README.md): taken on an older candidate "
                          "deployment, hours before the "
                          "others, and a 2x outlier on `sched_pipe_usecs_op` (7.7 us against ~4.4 "
                          "us for the other three).");
    CHECK(published_exclusions("nothing to see", "README.md").empty());
}

TEST_CASE("published README: a 100 KB exclusion line is read, its reason shortened",
          "[report][published]") {
    std::string words;
    for (int i = 0; i < 20000; ++i)
        words += " slow";
    auto ex = published_exclusions("* `a-1.json` was excluded because" + words + "\n", "README.md");
    REQUIRE(ex.size() == 1);
    std::string kept;
    for (int i = 0; i < 58; ++i)
        kept += " slow";
    CHECK(ex[0].reason == "excluded by the publisher (README.md): because" + kept + " ...");
}

TEST_CASE("published README: the reason is one line without the median preamble",
          "[report][published]") {
    auto ex = published_exclusions("- `b-2.json` was excluded\n   from the published median:\n"
                                   "   too hot\n\n- `c-1.json` was excluded   (noisy)\n",
                                   "R.md");
    REQUIRE(ex.size() == 2);
    CHECK(ex[0].run == "b-2");
    CHECK(ex[0].reason == "excluded by the publisher (R.md): too hot");
    CHECK(ex[1].run == "c-1");
    CHECK(ex[1].reason == "excluded by the publisher (R.md): (noisy)");
}

TEST_CASE("published README: a paragraph PCRE2 gives up on names the file", "[report][published]") {
    std::string lines;
    for (int i = 0; i < 200000; ++i)
        lines += "\n x";
    CHECK(error_of([&] { published_exclusions("`a-1.json` was excluded" + lines, "README.md"); }) ==
          "README.md: cannot read the exclusions (matching depth limit exceeded); shorten the "
          "paragraph after 'was excluded'");
}

TEST_CASE("published set: the system's figures (memory, processes) are neither read nor missing",
          "[report][published]") {
    for (const auto& r : published_runs()) {
        CHECK_FALSE(r.find("mem_used_mib"));
        for (const auto& m : r.missing)
            CHECK(m.key.rfind("mem_", 0) != 0);
    }
    ReportInput in;
    in.runs = published_runs();
    in.baseline = "bluefin-dx";
    Report r = build_report(in);
    for (const auto& w : r.warnings)
        CHECK(w.find("mem_used_mib") == std::string::npos);
    CHECK(r.canaries.empty());
}

TEST_CASE("published file: an identity key of another type is refused, naming the file and the key",
          "[report][published]") {
    nlohmann::json j = {{"schema", "margine-bench-kernel/1"}, {"label", "a"}, {"sched_pipe_usecs_op", 4.5},
                        {"nproc", "twelve"}};
    try {
        run_from_published(j, "x", "dir/x.json");
        FAIL("no error");
    } catch (const bootbench::Error& e) {
        CHECK(e.code() == bootbench::ExitCode::bad_input);
        CHECK(std::string(e.what()) == "dir/x.json: field 'nproc' must be an integer");
    }
    j["nproc"] = 12;
    j["kernel"] = 7;
    CHECK(error_of([&] { run_from_published(j, "x", "dir/x.json"); }) ==
          "dir/x.json: field 'kernel' must be a string");
}
