#include "catch.hpp"
#include "run_builder.hpp"
#include "core/base/error.hpp"
#include "core/report/report.hpp"
#include "core/report/report_reproduce.hpp"

#include <cmath>

using namespace bootbench::core;

namespace {

RunResult run(const std::string& id, const std::string& target,
              std::vector<std::pair<std::string, double>> values,
              nlohmann::json env = nlohmann::json::object()) {
    RunResult r = bootbench::test::run_of(id, target, "2026-07-01T10:00:" + std::string(id.size() < 4 ? "0" : "") +
                                                          id.substr(id.size() - 1) + "+00:00");
    r.environment = bootbench::test::environment_of(env);
    for (auto& [key, value] : values)
        r.metrics.push_back({key, value, "ms", key == "ops" ? Better::higher : Better::lower, "b"});
    return r;
}

// a-1..a-n around 10 ms, b-1..b-n around 5 ms: b is 2x faster, fully separated.
ReportInput two_targets(int n = 4) {
    ReportInput in;
    in.baseline = "a";
    for (int i = 1; i <= n; ++i) {
        in.runs.push_back(
            run("a-" + std::to_string(i), "a", {{"lat", 10 + 0.1 * i}, {"ops", 100 + i}}));
        in.runs.push_back(
            run("b-" + std::to_string(i), "b", {{"lat", 5 + 0.1 * i}, {"ops", 200 + i}}));
    }
    return in;
}

std::string error_of(const ReportInput& in) {
    try {
        build_report(in);
    } catch (const bootbench::Error& e) {
        CHECK(e.code() == bootbench::ExitCode::bad_input);
        return e.what();
    }
    return "no error";
}

bool has_warning(const Report& r, const std::string& start) {
    for (const auto& w : r.warnings)
        if (w.rfind(start, 0) == 0)
            return true;
    return false;
}

} // namespace

TEST_CASE("report: 6 vs 6 fully separated is a real difference", "[report]") {
    Report r = build_report(two_targets(6));
    CHECK(r.title == "b vs a");
    REQUIRE(r.metrics.size() == 2);
    const MetricReport& lat = r.metrics[0]; // catalog order, then by key: lat, ops
    CHECK(lat.key == "lat");
    // a: 10.1 .. 10.6 -> 10.35; b: 5.1 .. 5.6 -> 5.35
    CHECK(lat.comparison->ratio == Approx(10.35 / 5.35));
    CHECK(lat.comparison->test.p_value == Approx(2.0 / 924));
    CHECK(lat.comparison->p_adjusted == Approx(4.0 / 924)); // Holm over 2 metrics
    CHECK(lat.comparison->verdict == Verdict::better);
    CHECK(lat.comparison->ci.lo > 1);
    const MetricReport& ops = r.metrics[1];
    CHECK(ops.comparison->ratio == Approx(203.5 / 103.5)); // higher is better: subject / baseline
    CHECK(ops.comparison->verdict == Verdict::better);
}

TEST_CASE("report: 4 vs 4 on two metrics shows nothing after Holm, and no interval", "[report]") {
    Report r = build_report(two_targets());
    const Comparison& lat = *r.metrics[0].comparison;
    // a: 10.1 10.2 10.3 10.4 -> 10.25; b: 5.1 .. 5.4 -> 5.25
    CHECK(lat.ratio == Approx(10.25 / 5.25));
    CHECK(lat.test.p_value == Approx(2.0 / 70));
    CHECK(lat.p_adjusted == Approx(4.0 / 70)); // 0.057: not below 0.05
    CHECK(lat.verdict == Verdict::same);
    CHECK(std::isnan(lat.ci.lo));
    CHECK(lat.no_interval == "fewer than 6 runs (a has 4)");
    // every b run against every a run: 10.1 / 5.4 up to 10.4 / 5.1
    CHECK(lat.run_range.lo == Approx(10.1 / 5.4));
    CHECK(lat.run_range.hi == Approx(10.4 / 5.1));
}

TEST_CASE("report: one metric, 4 vs 4 fully separated: p alone decides", "[report]") {
    ReportInput in = two_targets();
    for (auto& run : in.runs)
        run.metrics.pop_back(); // lat only
    Report r = build_report(in);
    const Comparison& lat = *r.metrics[0].comparison;
    CHECK(lat.p_adjusted == Approx(2.0 / 70));
    CHECK(lat.verdict == Verdict::better);
}

TEST_CASE("report: a worse subject is worse, an equal one is ~", "[report]") {
    ReportInput in = two_targets(6);
    in.baseline = "b";
    Report r = build_report(in);
    CHECK(r.subject == "a");
    CHECK(r.metrics[0].comparison->verdict == Verdict::worse);
    CHECK(r.metrics[0].comparison->ratio < 1);
    ReportInput same;
    same.baseline = "a";
    for (int i = 0; i < 4; ++i) {
        same.runs.push_back(run("a-" + std::to_string(i), "a", {{"lat", 10.0 + i}}));
        same.runs.push_back(run("b-" + std::to_string(i), "b", {{"lat", 10.5 + i}}));
    }
    CHECK(build_report(same).metrics[0].comparison->verdict == Verdict::same);
}

TEST_CASE("report: bad input names what is wrong and what to do", "[report][errors]") {
    ReportInput in = two_targets();
    in.baseline = "c";
    CHECK(error_of(in) ==
          "unknown baseline 'c': the results have targets a, b (pass --baseline with one of them)");
    in.baseline = "";
    CHECK(error_of(in) == "no baseline: pass --baseline with one of the targets a, b (or set "
                          "baseline in the experiment file)");
    in.baseline = "a";
    in.subject = "z";
    CHECK(error_of(in) ==
          "unknown subject 'z': the results have targets a, b (pass --subject with one of them)");
    in.subject = "";
    in.exclude = {{"a-9", "why not"}};
    CHECK(error_of(in) ==
          "cannot exclude 'a-9': no run with that id in the results (runs: a-1, a-2, a-3, a-4, "
          "b-1, b-2, b-3, b-4)");
}

TEST_CASE("report: no common metric is an error listing each side's metrics", "[report][errors]") {
    ReportInput in;
    in.baseline = "a";
    in.runs = {run("a-1", "a", {{"lat", 1}}), run("b-1", "b", {{"ops", 2}})};
    CHECK(error_of(in) ==
          "no metric common to baseline 'a' and subject 'b' (a: lat; b: ops): check that both "
          "targets ran the same benches");
    RunResult failed = run("b-2", "b", {});
    failed.status = RunStatus::failed;
    in.runs = {run("a-1", "a", {{"lat", 1}}), failed};
    CHECK(error_of(in) ==
          "no metric common to baseline 'a' and subject 'b' (a: lat; b: none, 1 failed): check "
          "that both targets ran the same benches");
    in.runs = {run("a-1", "a", {{"lat", 1}})};
    CHECK(error_of(in) == "nothing to compare: the results have runs of 'a' only; a report needs "
                          "runs of two targets");
}

TEST_CASE("report: failed runs are listed with their failure text and have no metrics",
          "[report]") {
    ReportInput in = two_targets();
    RunResult failed = run("b-5", "b", {});
    failed.status = RunStatus::failed;
    failed.failure = "booted the wrong deployment";
    in.runs.push_back(failed);
    Report r = build_report(in);
    const TargetReport* b = r.find_target("b");
    REQUIRE(b->failed.size() == 1);
    CHECK(b->failed[0].run == "b-5");
    CHECK(b->failed[0].failure == "booted the wrong deployment");
    CHECK(b->runs.size() == 4);
    CHECK(has_warning(r, "1 run failed and has no metrics (listed under Failed runs)."));
}

TEST_CASE("report: a metric missing in some runs uses the runs that have it", "[report]") {
    ReportInput in = two_targets();
    in.runs.push_back(run("b-5", "b", {{"lat", 5.0}}));
    Report r = build_report(in);
    CHECK(r.metrics[1].find("b")->summary.n == 4); // ops: b-5 has none
    CHECK(r.metrics[0].find("b")->summary.n == 5);
    CHECK(has_warning(r, "ops is missing in 1 of 9 runs (b-5)"));
}

TEST_CASE("report: a metric only one target has is shown, not compared", "[report]") {
    ReportInput in = two_targets();
    in.runs.push_back(run("a-5", "a", {{"extra", 3}}));
    Report r = build_report(in);
    const MetricReport& extra = r.metrics[0]; // not in the catalog: by key, extra < lat < ops
    CHECK(extra.key == "extra");
    CHECK_FALSE(extra.comparison);
    CHECK(extra.find("b")->summary.n == 0);
}

TEST_CASE("report: environment differences are warnings unless the experiment varies them",
          "[report]") {
    ReportInput in = two_targets();
    for (auto& r : in.runs)
        r.environment = bootbench::test::environment_of({
            {"governor", r.target == "a" ? "performance" : "powersave"},
            {"mitigations", {{"spectre_v2", r.target == "a" ? "Mitigation" : "Vulnerable"}}},
            {"cpu_model", nullptr}});
    Report r = build_report(in);
    CHECK(has_warning(
        r, "CPU frequency governor (governor) differs between runs: 'performance' in a-1, a-2, "
           "a-3, a-4; 'powersave' in b-1, b-2, b-3, b-4. Only the deployment should differ"));
    CHECK(has_warning(r, "CPU vulnerability mitigations (mitigations) differs"));
    CHECK_FALSE(has_warning(r, "CPU model"));
    Experiment e;
    e.targets.resize(2);
    e.targets[1].kargs = {"mitigations=off"};
    in.varied_keys = varied_environment_keys(e);
    CHECK(in.varied_keys == std::set<std::string>{"mitigations"});
    CHECK_FALSE(has_warning(build_report(in), "CPU vulnerability mitigations"));
}

TEST_CASE("report: start temperatures more than 8 C apart are a warning", "[report]") {
    ReportInput in = two_targets();
    for (auto& r : in.runs)
        r.environment.temp_start_c = r.target == "a" ? 45.0 : 53.0; // 8 C apart: fine
    CHECK_FALSE(has_warning(build_report(in), "Start temperatures differ"));
    for (auto& r : in.runs)
        r.environment.temp_start_c = r.target == "a" ? 45.0 : 54.0;
    CHECK(has_warning(build_report(in),
                      "Start temperatures differ: median 54.0 C for b against 45.0 C for a"));
}

TEST_CASE("report: the caption says machine, dates and conditions", "[report]") {
    ReportInput in = two_targets();
    for (auto& r : in.runs)
        r.environment = bootbench::test::environment_of({{"cpu_model", "Ryzen"},
                                                         {"nproc", 12},
                                                         {"governor", "performance"},
                                                         {"smt", "on"},
                                                         {"ac_power", true}});
    Report r = build_report(in);
    CHECK(r.caption.machine == "Ryzen, 12 CPUs");
    CHECK(r.caption.dates == "2026-07-01");
    CHECK(r.caption.conditions == "governor performance, SMT on, AC power yes");
    for (auto& run : in.runs)
        run.environment.smt = "notsupported"; // the kernel's word
    CHECK(build_report(in).caption.conditions == "governor performance, SMT not supported, AC power yes");
}

TEST_CASE("reproduce: inside the interval, outside, and an interval across 1.00x",
          "[report][reproduce]") {
    Report fresh = build_report(two_targets(6)); // lat ratio 1.93, ops 1.97, both clearly better
    Report published = fresh;
    published.metrics[0].comparison->ratio = fresh.metrics[0].comparison->ratio; // same as fresh
    published.metrics[1].comparison->ratio = 1.2;                                // far from 1.98
    auto rows = compare_reproduction(published, fresh);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].verdict == Reproduction::reproduced);
    CHECK(rows[1].verdict == Reproduction::not_reproduced);
    CHECK(rows[1].why.rfind("published 1.20x is outside the fresh interval", 0) == 0);
    Report noisy = fresh;
    noisy.metrics[0].comparison->ci = {0.9, 2.5};
    CHECK(compare_reproduction(published, noisy)[0].verdict == Reproduction::inconclusive);
    CHECK(compare_reproduction(published, noisy)[0].why ==
          "the fresh interval 0.90x - 2.50x includes 1.00x: more "
          "runs needed");
    CHECK(compare_reproduction(published, build_report(two_targets(4)))[0].why ==
          "the fresh results have no interval: fewer than 6 runs (a has 4)");
}

TEST_CASE("reproduce: different machines, kernels or a sandbox make a miss 'not comparable'",
          "[report][reproduce]") {
    Report fresh = build_report(two_targets(6));
    Report published = fresh;
    published.metrics[1].comparison->ratio = 1.2; // outside the fresh interval
    CHECK(environment_differences(published, fresh).empty());
    published.caption.machine = "AMD Ryzen 7 7840U, 16 CPUs";
    fresh.caption.machine = "AMD EPYC, 2 CPUs";
    published.targets[0].kernels = {"6.15.2-cachyos"};
    fresh.targets[0].kernels = {"6.12.0"};
    fresh.caption.provenance_tag = "sandbox simulation";
    auto differences = environment_differences(published, fresh);
    CHECK(differences == std::vector<std::string>{"the fresh runs are a sandbox simulation",
                                                  "CPU: published AMD Ryzen 7 7840U, 16 CPUs; fresh AMD EPYC, 2 CPUs",
                                                  "kernel of a: published 6.15.2-cachyos; fresh 6.12.0"});
    auto rows = compare_reproduction(published, fresh);
    // Issue 32 item 8: a hit in another experiment is no reproduction either.
    CHECK(rows[0].verdict == Reproduction::not_comparable);
    CHECK(rows[0].why.rfind("not comparable: the fresh runs are a sandbox simulation; CPU: published AMD Ryzen 7 "
                            "7840U, 16 CPUs; fresh AMD EPYC, 2 CPUs; kernel of a: published 6.15.2-cachyos; "
                            "fresh 6.12.0 (published 1.93x is inside ",
                            0) == 0);
    CHECK(rows[1].verdict == Reproduction::not_comparable);
    CHECK(rows[1].why.rfind("not comparable: the fresh runs are a sandbox simulation; CPU: published AMD Ryzen 7 "
                            "7840U, 16 CPUs; fresh AMD EPYC, 2 CPUs; kernel of a: published 6.15.2-cachyos; "
                            "fresh 6.12.0 (published 1.20x is outside the fresh interval ",
                            0) == 0);
    CHECK(render_reproduction(rows).find("not comparable") != std::string::npos);
    CHECK(render_reproduction(rows).find("  reproduced  ") == std::string::npos);
}

TEST_CASE("reproduce: when the experiments differ, no metric is reproduced, inconclusive or not: all are "
          "'not comparable'",
          "[report][reproduce]") {
    Report fresh = build_report(two_targets(4)); // no interval: inconclusive in the same experiment
    Report published = build_report(two_targets(6));
    fresh.caption.provenance_tag = "sandbox simulation, --quick";
    auto rows = compare_reproduction(published, fresh);
    REQUIRE(rows.size() == 2);
    for (const auto& row : rows) {
        CHECK(row.verdict == Reproduction::not_comparable);
        CHECK(row.why == "not comparable: the fresh runs are a sandbox simulation, --quick (the fresh results "
                         "have no interval: fewer than 6 runs (a has 4))");
    }
}

namespace {

BenchRecord bench_ran(const std::string& name, std::vector<std::string> argv) {
    BenchRecord b;
    b.name = name;
    b.argv = std::move(argv);
    return b;
}

// Both sides compare a and b; every run of a side ran `benches`.
ReportInput ran(std::vector<BenchRecord> benches) {
    ReportInput in = two_targets(6);
    for (auto& r : in.runs)
        r.benches = benches;
    return in;
}

} // namespace

TEST_CASE("reproduce: other bench parameters make a miss 'not comparable', naming only what differs",
          "[report][reproduce]") {
    std::vector<std::string> podman = {"podman", "run", "--name", "n", "--privileged", "0123abcd"};
    std::vector<std::string> sysbench = {"sysbench", "threads", "--threads=12", "--time=30", "run"};
    std::vector<std::string> wrapped = podman;
    wrapped.insert(wrapped.end(), sysbench.begin(), sysbench.end());
    Report published = build_report(ran({bench_ran("sysbench-threads", sysbench),
                                         bench_ran("messaging", {"perf", "bench", "sched", "messaging", "-g",
                                                                 "20", "-l", "1000"})}));
    // The same commands, one inside the tools container: not a difference.
    CHECK(environment_differences(published, build_report(ran({bench_ran("sysbench-threads", wrapped)})))
              .empty());
    Report fresh = build_report(ran({bench_ran("sysbench-threads", {"sysbench", "threads", "--threads=12",
                                                                    "--time=3", "run"}),
                                     bench_ran("messaging", {"perf", "bench", "sched", "messaging", "-g",
                                                             "20", "-l", "100", "-p"})}));
    CHECK(environment_differences(published, fresh) ==
          std::vector<std::string>{"bench messaging: published -l 1000; fresh -l 100 -p",
                                   "bench sysbench-threads: published --time=30; fresh --time=3"});
    published.metrics[1].comparison->ratio = 1.2; // outside the fresh interval
    CHECK(compare_reproduction(published, fresh)[1].verdict == Reproduction::not_comparable);
}

TEST_CASE("reproduce: a bench that one side did not run, or records no command for, is not held against it",
          "[report][reproduce]") {
    Report published = build_report(two_targets(6)); // an imported set: no commands recorded
    Report fresh = build_report(ran({bench_ran("pipe", {"perf", "bench", "sched", "pipe", "-l", "10"})}));
    CHECK(environment_differences(published, fresh).empty());
    CHECK(environment_differences(fresh, published).empty());
}

TEST_CASE("report: one run each is shown, never called a difference", "[report]") {
    ReportInput in;
    in.baseline = "a";
    in.runs = {run("a-1", "a", {{"lat", 10}}), run("b-1", "b", {{"lat", 5}})};
    Report r = build_report(in);
    const Comparison& c = *r.metrics[0].comparison;
    CHECK(c.ratio == 2);
    CHECK(c.no_interval == "fewer than 6 runs (a has 1)");
    CHECK(c.run_range.lo == 2);
    CHECK(c.run_range.hi == 2);
    CHECK(c.test.p_value == 1);
    CHECK(c.verdict == Verdict::same);
    CHECK(has_warning(
        r, "With 1 run of b and 1 of a, the smallest p-value the exact test can give is 1.000"));
}

TEST_CASE("report: every target names the exact image its runs measured", "[report][images]") {
    ReportInput in = two_targets();
    const std::string pinned = "ostree-image-signed:docker://ghcr.io/x/b@sha256:" + std::string(64, '1');
    for (auto& r : in.runs)
        if (r.target == "b")
            r.image = ResolvedImage{"ostree-image-signed:docker://ghcr.io/x/b:stable", "", "", "", pinned};
    Report rep = build_report(in);
    REQUIRE(rep.find_target("b"));
    CHECK(rep.find_target("b")->images == std::vector<std::string>{pinned});
    CHECK(rep.find_target("a")->images.empty());
    CHECK(images_line(rep) == "b: " + pinned);
    CHECK_FALSE(has_warning(rep, "b measured"));
    // A tag that moved mid-experiment: two images under one name is a warning.
    in.runs.back().image->pinned_reference = "ghcr.io/x/b@sha256:" + std::string(64, '2');
    CHECK(has_warning(build_report(in), "b measured 2 different images (the tag moved during the experiment): "));
}

TEST_CASE("verdict: p below alpha after Holm, and the interval on the ratio's side", "[report][verdict]") {
    Comparison c;
    c.ratio = 1.2;
    c.p_adjusted = 0.01;
    c.ci = {1.1, 1.5};
    CHECK(verdict_of(c) == Verdict::better);
    c.ci = {0.9, 1.5}; // across 1.00x: not shown
    CHECK(verdict_of(c) == Verdict::same);
    c.ratio = 0.8;
    c.ci = {0.7, 1.1};
    CHECK(verdict_of(c) == Verdict::same);
    c.ci = {0.7, 0.9};
    CHECK(verdict_of(c) == Verdict::worse);
    c.p_adjusted = kAlpha; // p must be below alpha, not at it
    CHECK(verdict_of(c) == Verdict::same);
    c.p_adjusted = 0.01;
    c.no_interval = "fewer than 6 runs (a has 4)"; // no interval: p alone
    c.ci = {std::nan(""), std::nan("")};
    CHECK(verdict_of(c) == Verdict::worse);
}

TEST_CASE("report: runs that ended at the CPU's thermal limit are said to measure the cooling too",
          "[report]") {
    ReportInput in = two_targets(4);
    for (auto& r : in.runs)
        r.environment.temp_end_c = 80.0;
    auto said = [](const Report& r) {
        for (const auto& w : r.warnings)
            if (w.find("thermal limit") != std::string::npos)
                return w;
        return std::string();
    };
    CHECK(said(build_report(in)).empty());
    in.runs[0].environment.temp_end_c = 100.1;
    in.runs[3].environment.temp_end_c = 95.0; // the limit itself counts
    CHECK(said(build_report(in)) ==
          "2 of 8 runs ended at 95.0-100.1 C, at the CPU's thermal limit: their last benches ran throttled, so "
          "the results measure the cooling too. Shorter benches, or a cooler room, keep them below 95 C.");
}

TEST_CASE("reproduce: a fresh comparison without an interval shows none in the table", "[report][reproduce]") {
    Report fresh = build_report(two_targets(4)); // below 6 runs: no interval
    auto table = render_reproduction(compare_reproduction(fresh, fresh));
    CAPTURE(table);
    CHECK(table.find("n/a") == std::string::npos);
    CHECK(table.find("lat                       1.95x      1.95x    -                inconclusive    the fresh "
                     "results have no interval: fewer than 6 runs (a has 4)") != std::string::npos);
}

TEST_CASE("report: layered packages of a target's deployments are named; old results stay as they were",
          "[report][layered]") {
    ReportInput in = two_targets();
    Report before = build_report(in);
    CHECK(layered_line(before).empty());
    for (auto& r : in.runs)
        if (r.target == "b") {
            nlohmann::json j = to_json(r);
            CHECK_FALSE(j["deployment"].contains("layered")); // a result as before: no key
            r.deployment.layering = {true, {"htop"}, {}, {"kernel-6.9.1-1.fc40.x86_64"}};
            j = to_json(r);
            CHECK(j["deployment"]["layered"] ==
                  nlohmann::json::parse(R"({"packages": ["htop"], "removed": [], "replaced": ["kernel-6.9.1-1.fc40.x86_64"]})"));
            CHECK(run_result_from_json(j, "b.json").deployment.layering == r.deployment.layering);
        }
    Report after = build_report(in);
    CHECK(layered_line(after) == "b: packages htop; replaced kernel-6.9.1-1.fc40.x86_64");
    CHECK(after.targets[1].layered == std::vector<std::string>{"packages htop; replaced kernel-6.9.1-1.fc40.x86_64"});
    CHECK(after.targets[0].layered.empty());
}
