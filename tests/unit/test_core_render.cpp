#include "catch.hpp"
#include "run_builder.hpp"
#include "core/report/render_html.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_svg.hpp"
#include "core/report/render_text.hpp"
#include "core/report/report_formats.hpp"

#include <limits>

using namespace bootbench::core;

namespace {

RunResult run(const std::string& id, const std::string& target, double lat, double ops) {
    RunResult r = bootbench::test::run_of(id, target);
    r.metrics = {{"sched_pipe_usecs_op", lat, "us/op", Better::lower, "pipe"},
                 {"sched_pipe_ops_sec", ops, "ops/s", Better::higher, "pipe"}};
    return r;
}

// baseline "stock" at 7.97 us/op, subject "fast" at 4.45 us/op, 4 runs each.
Report sample_report(const std::string& title = "") {
    ReportInput in;
    in.baseline = "stock";
    in.title = title;
    const double stock[] = {7.94, 7.95, 7.99, 8.00}, fast[] = {4.29, 4.45, 4.45, 4.46};
    for (int i = 0; i < 4; ++i) {
        in.runs.push_back(run("stock-" + std::to_string(i + 1), "stock", stock[i], 1e6 / stock[i]));
        in.runs.push_back(run("fast-" + std::to_string(i + 1), "fast", fast[i], 1e6 / fast[i]));
    }
    in.runs.push_back(run("fast-5", "fast", 9.5, 1e6 / 9.5)); // an outlier
    return build_report(in);
}

bool ascii_only(const std::string& s) {
    for (char c : s)
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
    return true;
}

} // namespace

TEST_CASE("numbers: a few digits, no locale, no negative zero", "[render]") {
    CHECK(format_value(4.45432) == "4.45");
    CHECK(format_value(7.972202) == "7.97");
    CHECK(format_value(21.305) == "21.3");
    CHECK(format_value(2980) == "2980");
    CHECK(format_value(88163) == "88.2k");
    CHECK(format_value(1250000) == "1.25M");
    CHECK(format_value(0.012345) == "0.0123");
    CHECK(format_value(0) == "0");
    CHECK(format_fixed(-0.0001, 2) == "0.00");
    CHECK(format_exact(7.990634) == "7.990634");
    CHECK(format_exact(57207) == "57207");
    CHECK(format_p(2.0 / 35) == "0.057");
    CHECK(format_p(1e-9) == "<0.001");
}

TEST_CASE("the ratio reads the right way round, with the values and a correct percentage",
          "[render]") {
    Report r = sample_report();
    // lower is better: 7.97 / 4.45 = 1.79 times faster; the time is 44% lower
    CHECK(describe_ratio(r.metrics[0], "fast", "stock") ==
          "1.79x faster (4.45 vs 7.97 us/op, -44%)");
    // higher is better: 1e6/4.45 against 1e6/7.97
    CHECK(describe_ratio(r.metrics[1], "fast", "stock") ==
          "1.79x more (224.7k vs 125.5k ops/s, +79%)");
    // the other way round: 1.79x slower, and the time is 79% higher, not "179%"
    CHECK(describe_ratio(r.metrics[0], "stock", "fast") == "1.79x slower (7.97 vs 4.45 us/op, +79%)");
    CHECK(describe_ratio(r.metrics[1], "stock", "fast") == "1.79x fewer (125.5k vs 224.7k ops/s, -44%)");
}

TEST_CASE("the words follow what the unit measures", "[render]") {
    auto words = [](const std::string& unit, double subject, double baseline, Better better) {
        MetricReport m;
        m.key = "k";
        m.unit = unit;
        m.better = better;
        m.targets = {{"base", {}, summarize({baseline})}, {"new", {}, summarize({subject})}};
        m.comparison =
            Comparison{better_ratio(subject, baseline, better), {1, 1}, {}, Verdict::same, "", {1, 1}, 1};
        return describe_ratio(m, "new", "base");
    };
    CHECK(words("MB", 120, 100, Better::lower) == "1.20x larger (120 vs 100 MB, +20%)");
    CHECK(words("MiB", 100, 120, Better::lower) == "1.20x smaller (100 vs 120 MiB, -17%)");
    CHECK(words("J", 120, 100, Better::lower) == "1.20x more (120 vs 100 J, +20%)");
    CHECK(words("Wh", 100, 120, Better::lower) == "1.20x less (100 vs 120 Wh, -17%)");
    CHECK(words("ms", 120, 100, Better::lower) == "1.20x slower (120 vs 100 ms, +20%)");
    CHECK(words("s", 100, 120, Better::lower) == "1.20x faster (100 vs 120 s, -17%)");
    CHECK(words("events", 100, 120, Better::higher) == "1.20x fewer (100 vs 120 events, -17%)");
    CHECK(words("ops/s", 120, 100, Better::higher) == "1.20x more (120 vs 100 ops/s, +20%)");
    CHECK(words("ms", 100, 100.1, Better::lower) == "the same (100 vs 100 ms, -0.1%)");
}

// Issue 32 item 9: a time where more is better (time to a thermal limit, a
// battery's hours) is longer or shorter, never "better 1.20x slower".
TEST_CASE("the words follow the metric's direction, not only its unit", "[render]") {
    ReportInput in;
    in.baseline = "a";
    for (int i = 1; i <= 6; ++i)
        for (const auto& [target, s] : {std::pair<std::string, double>{"a", 100}, {"b", 120}}) {
            RunResult r;
            r.run_id = target + "-" + std::to_string(i);
            r.target = target;
            r.metrics = {{"time_to_throttle_s", s + 0.1 * i, "s", Better::higher, "soak"}};
            in.runs.push_back(r);
        }
    Report r = build_report(in);
    const MetricReport& m = r.metrics[0];
    CHECK(verdict_mark(m) == "better");
    CHECK(describe_ratio(m, "b", "a") == "1.20x longer (120 vs 100 s, +20%)");
    CHECK(describe_ratio(m, "a", "b") == "1.20x shorter (100 vs 120 s, -17%)");
    CHECK(interval_text(m) == "95% CI 1.20x longer");
    std::string md = render_markdown(r, "report.svg");
    CHECK(md.find(" 1.20x longer (120 vs 100 s, +20%) | 95% CI 1.20x longer | 0.002 | better |") !=
          std::string::npos);
    CHECK(md.find("slower") == std::string::npos);
    CHECK(render_html(r).find("slower") == std::string::npos);
    CHECK(render_svg(r).find("slower") == std::string::npos);
    // lower-is-better times keep their words
    CHECK(describe_ratio(sample_report().metrics[0], "fast", "stock") == "1.79x faster (4.45 vs 7.97 us/op, -44%)");
}

TEST_CASE("a value 35% lower is never called 55% lower", "[render]") {
    MetricReport m;
    m.key = "sysbench_lat_avg_ms";
    m.unit = "ms";
    m.better = Better::lower;
    m.targets = {{"bluefin-dx", {}, summarize({6.305})},
                 {"margine-cachyos", {}, summarize({4.08})}};
    m.comparison = Comparison{6.305 / 4.08, {1.4, 1.6}, {}, Verdict::same, "", {1.4, 1.6}, 1};
    CHECK(describe_ratio(m, "margine-cachyos", "bluefin-dx") ==
          "1.55x faster (4.08 vs 6.30 ms, -35%)");
    CHECK(verdict_mark(m) == "~");
}

TEST_CASE("values near the largest double: finite medians, no infx, a verdict that agrees", "[render]") {
    const double top = std::numeric_limits<double>::max();
    ReportInput in;
    in.baseline = "a";
    const double a[] = {top, top * 0.9, top * 0.8, top, top * 0.9, top * 0.8}; // median 0.9 x top
    for (int i = 0; i < 6; ++i)
        for (const auto& [target, v] : {std::pair<std::string, double>{"a", a[i]}, {"b", 1.0}}) {
            RunResult r;
            r.run_id = target + "-" + std::to_string(i + 1);
            r.target = target;
            r.metrics = {{"rate", v, "ops", Better::higher, "x"}};
            in.runs.push_back(r);
        }
    Report r = build_report(in);
    CHECK(r.metrics[0].targets[0].summary.median / top == Approx(0.9)); // (a + b) / 2 was inf
    CHECK(r.metrics[0].comparison->verdict == Verdict::worse);
    CHECK(describe_ratio(r.metrics[0], "b", "a") == "1.62e+308x fewer (1.00 vs 1.62e+308 ops, -100%)");
    CHECK(format_ratio(std::numeric_limits<double>::infinity()) == "n/a");
    CHECK(format_ratio(2e6) == "2.00e+06x");
    CHECK(format_value(-3.5e15) == "-3.50e+15");
}

TEST_CASE("escaping: ASCII only, XML and Markdown specials", "[render]") {
    CHECK(ascii_safe("caf\xc3\xa9 \xe2\x80\x94 ok") == "caf? ? ok");
    CHECK(xml_escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;");
    CHECK(md_escape("a|b_c") == "a\\|b\\_c");
}

TEST_CASE("report.json follows bootbench-report/1", "[render]") {
    Report r = sample_report();
    nlohmann::json j = nlohmann::json::parse(render_json(r));
    CHECK(j["schema"] == "bootbench-report/1");
    CHECK(j["baseline"] == "stock");
    CHECK(j["subject"] == "fast");
    CHECK(j["targets"][0]["name"] == "stock");
    CHECK(j["targets"][1]["runs"].size() == 5);
    const auto& m = j["metrics"][0];
    CHECK(m["key"] == "sched_pipe_usecs_op");
    CHECK(m["better"] == "lower");
    CHECK(m["targets"]["fast"]["n"] == 5);
    CHECK(m["targets"]["fast"]["median"] == 4.45);
    CHECK(m["targets"]["fast"]["values"] == nlohmann::json({4.29, 4.45, 4.45, 4.46, 9.5}));
    CHECK(m["ratio"].get<double>() == Approx((7.95 + 7.99) / 2 / 4.45));
    CHECK(m["ci"].is_null()); // 4 and 5 runs: too few for an interval
    CHECK(m["no_ci"] == "fewer than 6 runs (stock has 4)");
    // fast 4.29 .. 9.5 against stock 7.94 .. 8.00, as stock / fast
    CHECK(m["run_ratio_range"][0].get<double>() == Approx(7.94 / 9.5));
    CHECK(m["run_ratio_range"][1].get<double>() == Approx(8.00 / 4.29));
    CHECK(m["interval_text"] ==
          "no interval: fewer than 6 runs (stock has 4); runs range 1.86x faster to 1.20x slower");
    CHECK(m["p_holm"].get<double>() == Approx(2 * 21.0 / 126).epsilon(1e-9)); // 2 metrics
    // fast-5 is slower than every stock run: the samples overlap, exact p = 21/126 = 0.167, so ~
    CHECK(m["p_value"].get<double>() == Approx(21.0 / 126));
    CHECK(m["verdict"] == "same");
    CHECK(j["metrics"][1]["ratio"].get<double>() > 1); // higher is better, subject better: > 1 too
    CHECK(j["outliers"][0]["run"] == "fast-5");
    CHECK(j["outliers"][0]["value"] == 9.5);
    CHECK(j["outliers"][0]["rest_median"] == 4.45);
    CHECK(j["outliers"].size() == 2); // on both metrics, and nobody else
    CHECK(j["warnings"].is_array());
}

TEST_CASE("report.svg is ASCII, self-contained, and draws every run", "[render]") {
    std::string svg = render_svg(sample_report("Caf\xc3\xa9 <kernel> & co"));
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
    CHECK(ascii_only(svg));
    CHECK(svg.find("Caf? &lt;kernel&gt; &amp; co") != std::string::npos);
    CHECK(svg.find("href") == std::string::npos); // nothing to fetch
    size_t dots = 0;
    for (size_t at = svg.find("<circle cx"); at != std::string::npos;
         at = svg.find("<circle cx", at + 1))
        ++dots;
    CHECK(dots == 2 * 9 + 2); // 9 runs on 2 metrics, plus 2 legend dots
    CHECK(svg.find("fast-5: 9.50 (outlier)") != std::string::npos);
    CHECK(svg.find("1.79x faster") != std::string::npos);
}

TEST_CASE("report.svg draws a box instead of thousands of dots", "[render]") {
    ReportInput in;
    in.baseline = "a";
    for (size_t i = 0; i < kMaxPointsPerStrip + 1; ++i) {
        in.runs.push_back(
            run("a-" + std::to_string(i), "a", 8 + 0.001 * static_cast<double>(i), 1));
        in.runs.push_back(
            run("b-" + std::to_string(i), "b", 4 + 0.001 * static_cast<double>(i), 2));
    }
    std::string svg = render_svg(build_report(in));
    CHECK(svg.find("<circle cx", svg.find("<circle cx", svg.find("<circle cx") + 1) + 1) ==
          std::string::npos);
    CHECK(svg.find("boxes show quartiles") != std::string::npos);
}

TEST_CASE("report.md: caption, warnings, chart link, table, every run", "[render]") {
    std::string md = render_markdown(sample_report(), "report.svg");
    CHECK(md.rfind("# fast vs stock\n", 0) == 0);
    CHECK(md.find("Runs per target: stock 4 (baseline), fast 5.") != std::string::npos);
    CHECK(md.find("## Warnings") != std::string::npos);
    CHECK(md.find("](report.svg)") != std::string::npos);
    CHECK(md.find("| 1.79x faster (4.45 vs 7.97 us/op, -44%) |") != std::string::npos);
    CHECK(md.find("| fast-5 | 9.5 (!) |") != std::string::npos);
    CHECK(md.find("## Outliers") != std::string::npos);
    CHECK(md.find("- fast-5 on `sched_pipe_usecs_op`: 9.50, 2.13x the median of the other runs, 4.45\n") !=
          std::string::npos);
}

TEST_CASE("the interval in the words of the ratio, everywhere", "[render]") {
    ReportInput in;
    in.baseline = "stock";
    for (int i = 0; i < 6; ++i) {
        double stock = 8 + 0.01 * i, fast = 4.4 + 0.01 * i;
        in.runs.push_back(run("stock-" + std::to_string(i + 1), "stock", stock, 1e6 / stock));
        in.runs.push_back(run("fast-" + std::to_string(i + 1), "fast", fast, 1e6 / fast));
    }
    Report r = build_report(in);
    const MetricReport& m = r.metrics[0];
    std::string text = interval_text(m);
    CHECK(text.rfind("95% CI 1.8", 0) == 0);
    CHECK(text.substr(text.size() - 8) == "x faster");
    CHECK(render_markdown(r, "report.svg").find(" | " + text + " | ") != std::string::npos);
    CHECK(render_html(r).find(">" + text + "<") != std::string::npos);
    CHECK(render_svg(r).find(text) != std::string::npos);
    CHECK(nlohmann::json::parse(render_json(r))["metrics"][0]["interval_text"] == text);
    // ops/s, higher is better: the same interval as "more"
    std::string ops = interval_text(r.metrics[1]);
    CHECK(ops.rfind("95% CI 1.8", 0) == 0);
    CHECK(ops.substr(ops.size() - 6) == "x more");
}

TEST_CASE("an outlier among values whose median is 0 says so", "[render]") {
    Outlier o{"r-4", "t", "errors", 5, 0};
    CHECK(outlier_distance(o) == "the other runs' median is 0");
    o.rest_median = 2;
    CHECK(outlier_distance(o) == "2.50x the median of the other runs, 2.00");
}

TEST_CASE("report.html: an option in a warning never breaks across lines", "[render]") {
    std::string html = render_html(sample_report()); // fast-5 is an outlier
    CHECK(html.find("<span class=\"nowrap\">(--exclude RUN_ID)</span>") != std::string::npos);
    CHECK(html.find(".nowrap { white-space: nowrap; }") != std::string::npos);
}

TEST_CASE("report.html: one file, inline SVG and CSS, nothing to load", "[render]") {
    std::string html = render_html(sample_report());
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("<style>") != std::string::npos);
    CHECK(html.find("<svg xmlns") != std::string::npos);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("https://") == std::string::npos);
    CHECK(html.find("src=") == std::string::npos);
    CHECK(ascii_only(html));
}

TEST_CASE("report.json: values follow the target's runs, null where a run lacks the metric",
          "[render]") {
    ReportInput in;
    in.baseline = "a";
    in.runs = {run("a-1", "a", 8, 100), run("a-2", "a", 8.2, 101), run("b-1", "b", 4, 200),
               run("b-2", "b", 4.1, 201)};
    in.runs[1].metrics.pop_back(); // a-2 has no sched_pipe_ops_sec
    nlohmann::json j = report_to_json(build_report(in));
    CHECK(j["targets"][0]["runs"] == nlohmann::json({"a-1", "a-2"}));
    CHECK(j["metrics"][1]["targets"]["a"]["values"] == nlohmann::json({100, nullptr}));
    CHECK(j["metrics"][1]["targets"]["a"]["n"] == 1);
    CHECK(j["metrics"][0]["targets"]["a"]["values"] == nlohmann::json({8, 8.2}));
}

TEST_CASE("p-values read as clauses", "[render]") {
    CHECK(p_clause(2.0 / 35) == "p = 0.057");
    CHECK(p_clause(1e-12) == "p < 0.001");
}

TEST_CASE("many outliers: the first 20 are listed, the rest counted", "[render]") {
    Report r = sample_report();
    Outlier x = r.outliers.front();
    r.outliers.assign(kMaxOutliersListed + 5, x);
    std::string md = render_markdown(r, "report.svg");
    CHECK(md.find("- and 5 more (report.json lists them all)") != std::string::npos);
    CHECK(render_html(r).find("<li>and 5 more (report.json lists them all)</li>") !=
          std::string::npos);
}

TEST_CASE("a metric without comparison says why", "[render]") {
    MetricReport m;
    m.targets = {{"a", {}, summarize({1.0})}, {"b", {}, {}}};
    CHECK(not_compared(m, "b", "a") == "not compared: b has no value");
    m.targets[1].summary = summarize({0.0});
    CHECK(not_compared(m, "b", "a") == "not compared: a median is 0 or negative, so no ratio");
}

namespace {

// sample_report's runs, as a sandbox would store them: marked, with the
// kernel and the deployment each booted.
Report simulated_report(bool sandbox, bool quick) {
    ReportInput in;
    in.baseline = "stock";
    for (int i = 0; i < 4; ++i)
        for (const char* t : {"stock", "fast"}) {
            RunResult r = run(std::string(t) + "-" + std::to_string(i + 1), t, t[0] == 's' ? 8.0 + i : 4.0 + i, 1);
            r.environment.kernel_release = "6.8.9-300.fc40.x86_64";
            r.deployment.origin = std::string("sandbox:bootbench/") + t;
            r.deployment.version = "40.1";
            if (sandbox)
                r.environment.sandbox = true;
            if (quick)
                r.environment.quick = true;
            in.runs.push_back(r);
        }
    return build_report(in);
}

} // namespace

TEST_CASE("a simulation says first, and on the chart, that it measured nothing of the targets", "[render]") {
    Report r = simulated_report(true, true);
    CHECK(r.caption.provenance_tag == "sandbox simulation, --quick rehearsal");
    std::string md = render_markdown(r, "report.svg");
    CHECK(md.find("# fast vs stock\n\n> **Not a measurement of the targets.** Simulated on a sandbox (bootbench "
                  "simulate): every target ran on the kernel of the machine that simulated it, so differences "
                  "are noise, not the targets'; a --quick rehearsal: benches shortened, not a measurement.\n") == 0);
    CHECK(render_svg(r).find(">Not a measurement of the targets: sandbox simulation, --quick rehearsal.</text>") !=
          std::string::npos);
    CHECK(render_html(r).find("<p class=\"provenance\"><strong>Not a measurement of the targets.</strong> "
                              "Simulated on a sandbox") != std::string::npos);
    CHECK(report_to_json(r)["caption"]["provenance"] == r.caption.provenance);
    CHECK(simulated_report(false, true).caption.provenance ==
          "A --quick rehearsal: benches shortened, not a measurement.");
}

TEST_CASE("a measurement has no such line, and says what each target booted", "[render]") {
    Report r = simulated_report(false, false);
    CHECK(r.caption.provenance.empty());
    CHECK(r.caption.provenance_tag.empty());
    std::string md = render_markdown(r, "report.svg");
    CHECK(md.find("Not a measurement") == std::string::npos);
    CHECK(render_svg(r).find("Not a measurement") == std::string::npos);
    CHECK(md.find("\n*Booted: stock: kernel 6.8.9-300.fc40.x86\\_64, sandbox:bootbench/stock (40.1); fast: "
                  "kernel 6.8.9-300.fc40.x86\\_64, sandbox:bootbench/fast (40.1).*\n") != std::string::npos);
    CHECK(report_to_json(r)["targets"][0]["kernels"] == nlohmann::json::array({"6.8.9-300.fc40.x86_64"}));
    CHECK(render_html(sample_report()).find("Booted:") == std::string::npos); // nothing known: no line
}

TEST_CASE("the table of report formats: each renders its renderer's text, the Markdown links the SVG beside it",
          "[render]") {
    Report r = sample_report();
    std::vector<std::string> suffixes;
    for (const auto& f : report_formats())
        suffixes.push_back(f.suffix);
    CHECK(suffixes == std::vector<std::string>{".md", ".json", ".svg", ".html"});
    const auto& formats = report_formats();
    CHECK(formats[0].render(r, "out/x") == render_markdown(r, "out/x.svg"));
    CHECK(formats[1].render(r, "x") == render_json(r));
    CHECK(formats[2].render(r, "x") == render_svg(r));
    CHECK(formats[3].render(r, "x") == render_html(r));
}
