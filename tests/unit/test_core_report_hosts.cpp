#include "catch.hpp"
#include "run_builder.hpp"
#include "core/base/error.hpp"
#include "core/report/render_hosts.hpp"
#include "core/report/report_hosts.hpp"
#include "core/stats/stats_hosts.hpp"
#include "error_of.hpp"

#include <cmath>

using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

RunResult run(const std::string& id, const std::string& target, double lat, const std::string& machine,
              const std::string& hostname) {
    RunResult r = bootbench::test::run_of(id, target, bootbench::test::started_in_order(id));
    r.environment = bootbench::test::environment_of({{"hostname", hostname}, {"cpu_model", "CPU " + hostname}, {"nproc", 8}});
    if (!machine.empty())
        r.environment.machine_id = machine;
    r.metrics.push_back({"lat", lat, "ms", Better::lower, "b"});
    return r;
}

// Six runs of a and b on one machine, every a at `a_lat` and every b at `b_lat`.
void add_host(ReportInput& in, const std::string& machine, const std::string& hostname, double a_lat,
              double b_lat) {
    for (int i = 1; i <= 6; ++i) {
        in.runs.push_back(run("a-" + std::to_string(i), "a", a_lat, machine, hostname));
        in.runs.push_back(run("b-" + std::to_string(i), "b", b_lat, machine, hostname));
    }
}

// lab1: b is 2x faster; lab2: b is 2x slower.
ReportInput two_hosts() {
    ReportInput in;
    in.baseline = "a";
    add_host(in, "1111111111111111", "lab1", 10, 5);
    add_host(in, "2222222222222222", "lab2", 10, 20);
    return in;
}

} // namespace

TEST_CASE("geometric mean and pooled ratio of hosts") {
    CHECK(geometric_mean({4, 1}) == Approx(2));
    CHECK(geometric_mean({2, 8, 4}) == Approx(4));
    // lower is better: host 1 ratio 2/1 = 2, host 2 ratio 1/2 = 0.5: pooled 1
    std::vector<HostSamples> hosts = {{{1, 1, 1}, {2, 2, 2}}, {{2}, {1}}};
    CHECK(pooled_ratio(hosts, Better::lower) == Approx(1));
    CHECK(pooled_ratio(hosts, Better::higher) == Approx(1));
    CHECK(pooled_ratio({{{3, 1, 2}, {1}}}, Better::higher) == Approx(2)); // median 2 / 1
}

TEST_CASE("the hosts bootstrap resamples hosts: ratios 2 and 8 pool to 2..8") {
    // Every drawn pair is {2,2} -> 2, {2,8} -> 4 or {8,8} -> 8 (a quarter
    // each at the ends): the 2.5% and 97.5% points are 2 and 8.
    std::vector<HostSamples> hosts = {{{2, 2}, {1, 1}}, {{8}, {1}}};
    Interval ci = bootstrap_hosts_ci(hosts, Better::higher, 42);
    CHECK(ci.lo == Approx(2));
    CHECK(ci.hi == Approx(8));
    CHECK(pooled_ratio(hosts, Better::higher) == Approx(4));
}

TEST_CASE("the hosts bootstrap resamples runs within a host") {
    // One host, subject {1, 4}, baseline {1}: resampled medians 1, 2.5, 4.
    Interval ci = bootstrap_hosts_ci({{{1, 4}, {1}}}, Better::higher, 7);
    CHECK(ci.lo == Approx(1));
    CHECK(ci.hi == Approx(4));
    // Identical hosts without spread have no width.
    Interval flat = bootstrap_hosts_ci({{{3}, {1}}, {{6, 6}, {2}}}, Better::higher, 7);
    CHECK(flat.lo == Approx(3));
    CHECK(flat.hi == Approx(3));
}

TEST_CASE("the hosts bootstrap is seeded: the same seed, the same interval") {
    std::vector<HostSamples> hosts = {{{1, 2, 3, 4}, {2, 3}}, {{5, 1}, {2, 2, 7}}, {{3}, {1, 9}}};
    Interval a = bootstrap_hosts_ci(hosts, Better::lower, 99);
    Interval b = bootstrap_hosts_ci(hosts, Better::lower, 99);
    CHECK(a.lo == b.lo);
    CHECK(a.hi == b.hi);
    CHECK(a.lo < a.hi);
}

TEST_CASE("runs without a machine id are one host") {
    ReportInput in;
    in.baseline = "a";
    add_host(in, "", "lab1", 10, 5);
    add_host(in, "", "lab2", 10, 20); // same run ids, no ids: old results
    CHECK_FALSE(spans_hosts(in.runs));
    CHECK(spans_hosts(two_hosts().runs));
}

TEST_CASE("a report across hosts: one report per host, the pooled ratio, the disagreement") {
    HostsReport r = build_hosts_report(two_hosts());
    REQUIRE(r.hosts.size() == 2);
    CHECK(r.subject == "b");
    CHECK(r.hosts[0].host.label == "lab1");
    CHECK(r.hosts[1].host.label == "lab2");
    REQUIRE(r.hosts[0].report);
    CHECK(r.hosts[0].report->metrics[0].comparison->verdict == Verdict::better);
    CHECK(r.hosts[1].report->metrics[0].comparison->verdict == Verdict::worse);
    REQUIRE(r.pooled.size() == 1);
    const PooledMetric& p = r.pooled[0];
    CHECK(p.ratio == Approx(1)); // sqrt(2 * 0.5)
    CHECK(p.ci.lo == Approx(0.5));
    CHECK(p.ci.hi == Approx(2));
    CHECK(p.verdict == Verdict::same);
    CHECK(pooled_text(p) == "1.00x (95% CI 0.50x to 2.00x)");
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0] == "machines disagree on lat: b is better on lab1 2.00x and worse on lab2 0.50x; "
                           "the pooled ratio hides this, read the machines' tables");
}

TEST_CASE("hosts that agree pool to a verdict and no warning") {
    ReportInput in;
    in.baseline = "a";
    add_host(in, "1111111111111111", "lab1", 10, 5);
    add_host(in, "2222222222222222", "lab2", 9, 3);
    HostsReport r = build_hosts_report(in);
    REQUIRE(r.pooled.size() == 1);
    CHECK(r.pooled[0].ratio == Approx(std::sqrt(2.0 * 3.0)));
    CHECK(r.pooled[0].verdict == Verdict::better);
    CHECK(r.warnings.empty());
}

TEST_CASE("hosts sharing a hostname are told apart by their id") {
    ReportInput in;
    in.baseline = "a";
    add_host(in, "1111111111111111", "sandbox", 10, 5);
    add_host(in, "2222222222222222", "sandbox", 10, 5);
    HostsReport r = build_hosts_report(in);
    CHECK(r.hosts[0].host.label == "sandbox 11111111");
    CHECK(r.hosts[1].host.label == "sandbox 22222222");
    CHECK(host_caption(r.hosts[0].host) == "machine sandbox 11111111 (CPU sandbox, 8 CPUs)");
}

TEST_CASE("a host whose runs compare nothing is reported, the others pooled") {
    ReportInput in = two_hosts();
    in.runs.push_back(run("a-1", "a", 10, "3333333333333333", "lab3")); // never got to b
    HostsReport r = build_hosts_report(in);
    REQUIRE(r.hosts.size() == 3);
    CHECK_FALSE(r.hosts[2].report);
    CHECK(r.hosts[2].error == "no run of 'b' on this machine");
    CHECK(r.warnings[0] == "machine lab3 (1 run) is not compared: " + r.hosts[2].error);
    CHECK(r.pooled[0].hosts.size() == 2);
}

TEST_CASE("bad input across hosts: the messages") {
    ReportInput in = two_hosts();
    in.exclude.push_back({"c-9", "by hand"});
    CHECK(error_of([&] { build_hosts_report(in); }) ==
          "cannot exclude 'c-9': no machine has a run with that id");
    ReportInput typo = two_hosts();
    typo.baseline = "x";
    CHECK(error_of([&] { build_hosts_report(typo); }) ==
          "unknown baseline 'x': the results have targets a, b (pass --baseline with one of them)");
    ReportInput split; // each machine ran one target only
    split.baseline = "a";
    split.runs.push_back(run("a-1", "a", 10, "1111111111111111", "lab1"));
    split.runs.push_back(run("b-1", "b", 10, "2222222222222222", "lab2"));
    CHECK(error_of([&] { build_hosts_report(split); }) == "lab1: no run of 'b' on this machine");
}

TEST_CASE("an exclusion applies on every host that has the run") {
    ReportInput in = two_hosts();
    in.exclude.push_back({"b-6", "by hand"});
    HostsReport r = build_hosts_report(in);
    for (const auto& h : r.hosts)
        CHECK(h.report->find_target("b")->excluded.size() == 1);
}

TEST_CASE("the renderers of a report across hosts") {
    HostsReport r = build_hosts_report(two_hosts());
    std::string md = render_hosts_markdown(r, "report.svg");
    CHECK(md.find("## Pooled over machines") != std::string::npos);
    CHECK(md.find("| lat | 2 | 1.00x (95% CI 0.50x to 2.00x) | 1.000 | ~ | lab1 2.00x better, lab2 0.50x worse |") !=
          std::string::npos);
    CHECK(md.find("## machine lab1 (CPU lab1, 8 CPUs)") != std::string::npos);
    CHECK(md.find("\n# ") == std::string::npos); // one title: the machines' are sections
    nlohmann::json j = hosts_to_json(r);
    CHECK(j["hosts"].size() == 2);
    CHECK(j["hosts"][0]["machine_id"] == "1111111111111111");
    CHECK(j["hosts"][0]["report"]["metrics"][0]["verdict"] == "better");
    CHECK(j["pooled"][0]["ci"][0] == Approx(0.5));
    CHECK(j["pooled"][0]["p_value"] == Approx(1));
    CHECK(j["pooled"][0]["p_holm"] == Approx(1));
    std::string svg = render_hosts_svg(r);
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", 0) == 0);
    std::string html = render_hosts_html(r);
    CHECK(html.find("<div class=\"hosts-row\">\n<figure>\n<figcaption>lab1</figcaption>\n<svg") != std::string::npos);
    CHECK(html.find("<h1>") == html.rfind("<h1>"));
}

TEST_CASE("a report across sandboxes says first that it is not a measurement") {
    ReportInput in = two_hosts();
    for (auto& r : in.runs)
        r.environment.sandbox = true;
    HostsReport r = build_hosts_report(in);
    std::string md = render_hosts_markdown(r, "report.svg");
    CHECK(md.rfind("# b vs a\n\n> **Not a measurement of the targets.** Simulated on a sandbox", 0) == 0);
    CHECK(render_hosts_html(r).find("<h1>b vs a</h1>\n<p class=\"provenance\"><strong>Not a measurement") !=
          std::string::npos);
    CHECK(render_hosts_markdown(build_hosts_report(two_hosts()), "report.svg").find("Not a measurement") ==
          std::string::npos);
}

// Issue 32 item 6: a pooled verdict had no false-verdict control (an
// interval of 2 or 3 runs per machine, no test, no Holm).
TEST_CASE("the stratified rank test ranks within machines only") {
    // one machine: the one-machine test's p
    std::vector<double> a = {1, 4, 5, 9}, b = {2, 3, 6, 7, 8};
    CHECK(stratified_rank_test({{a, b}}).p_value == Approx(mann_whitney(a, b).p_value));
    // two machines of 3 against 3, the subject lowest on both: 2 of the
    // C(6,3)^2 = 400 arrangements are as extreme; the second machine's
    // level (100x the first's) changes nothing
    RankTest t = stratified_rank_test({{{1, 2, 3}, {4, 5, 6}}, {{100, 200, 300}, {400, 500, 600}}});
    CHECK(t.method == PValueMethod::exact);
    CHECK(t.p_value == Approx(2.0 / 400));
    CHECK(t.min_p_value == Approx(2.0 / 400));
    // opposite on the two machines: no evidence at all
    CHECK(stratified_rank_test({{{1, 2, 3}, {4, 5, 6}}, {{4, 5, 6}, {1, 2, 3}}}).p_value == Approx(1));
    // above kStratifiedExactMaxN values: the normal approximation
    std::vector<HostSamples> big(5);
    for (int h = 0; h < 5; ++h)
        for (int i = 0; i < 26; ++i) {
            big[h].subject.push_back(i * 2 + h * 1000);
            big[h].baseline.push_back(i * 2 + 1 + h * 1000);
        }
    RankTest normal = stratified_rank_test(big);
    CHECK(normal.method == PValueMethod::normal);
    CHECK(normal.p_value > 0.5); // interleaved values: no difference
}

namespace {

// `runs` runs of a and b on one machine, `metrics` metrics on each, every b
// value half of a's (lower is better: b is 2x better), a little spread.
void add_lab_host(ReportInput& in, const std::string& machine, const std::string& hostname, int runs,
                  int metrics) {
    for (int i = 1; i <= runs; ++i)
        for (const std::string t : {"a", "b"}) {
            RunResult r = run(t + "-" + std::to_string(i), t, 1, machine, hostname);
            r.metrics.clear();
            for (int k = 0; k < metrics; ++k)
                r.metrics.push_back({"m" + std::to_string(k), (t == "a" ? 10 : 5) + 0.01 * i, "ms", Better::lower, "b"});
            in.runs.push_back(r);
        }
}

HostsReport lab(int runs, int metrics) {
    ReportInput in;
    in.baseline = "a";
    add_lab_host(in, "1111111111111111", "lab1", runs, metrics);
    add_lab_host(in, "2222222222222222", "lab2", runs, metrics);
    return build_hosts_report(in);
}

} // namespace

TEST_CASE("a pooled verdict needs what one machine needs: a test, Holm, 6 runs for an interval") {
    // 2 runs per machine: no machine can say anything, nor can the pool
    // (p = 2/36 = 0.056 even when b is better in every run)
    HostsReport two = lab(2, 1);
    const PooledMetric& p = two.pooled.at(0);
    CHECK(p.no_interval == "fewer than 6 runs on lab1 (a has 2)");
    CHECK(p.test.p_value == Approx(2.0 / 36));
    CHECK(p.verdict == Verdict::same);
    CHECK(render_hosts_markdown(two, "report.svg")
              .find("| m0 | 2 | 2.00x (no interval: fewer than 6 runs on lab1 (a has 2)) | 0.056 | ~ | lab1 2.00x ~, "
                    "lab2 2.00x ~ |") != std::string::npos);
    // 3 runs: p = 2/400 = 0.005 per metric; Holm over 9 metrics 0.045, over 11 0.055
    for (const auto& m : lab(3, 9).pooled)
        CHECK(m.verdict == Verdict::better);
    for (const auto& m : lab(3, 11).pooled) {
        CHECK(m.p_adjusted == Approx(11 * 0.005));
        CHECK(m.verdict == Verdict::same);
    }
    // 6 runs: the interval and the test agree
    HostsReport six = lab(6, 8);
    CHECK(six.pooled.at(0).no_interval.empty());
    CHECK(six.pooled.at(0).verdict == Verdict::better);
    nlohmann::json j = hosts_to_json(lab(3, 11));
    CHECK(j["pooled"][0]["no_ci"] == "fewer than 6 runs on lab1 (a has 3)");
    CHECK(j["pooled"][0]["p_holm"] == Approx(0.055));
    CHECK(j["pooled"][0]["verdict"] == "same");
}
