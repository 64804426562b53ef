// core/bisect/bisect_report: what a person reads in bisect.md, bisect.html
// and bisect.svg, and what bisect.json holds, for bisections driven through
// start_bisect and record_run (tests/unit/bisect_report_inputs.hpp).
#include "bisect_report_inputs.hpp"
#include "catch.hpp"
#include "core/base/text.hpp"
#include "error_of.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace bootbench;
using namespace bootbench::core;
using namespace bootbench::test;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

bool ascii(const std::string& text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

size_t count(const std::string& text, const std::string& part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
        ++n;
    return n;
}

std::set<std::string> keys(const nlohmann::json& j) {
    std::set<std::string> out;
    for (const auto& item : j.items())
        out.insert(item.key());
    return out;
}

// The cy of the dot of the build `line` names (build_line): its tooltip
// goes on with "; N runs", a tick's ends there.
double dot_y(const std::string& svg, const std::string& line) {
    size_t title = svg.find("><title>" + line + "; ");
    size_t cy = svg.rfind("cy=\"", title);
    REQUIRE(title != std::string::npos);
    return std::stod(svg.substr(cy + 4));
}

} // namespace

TEST_CASE("bisect.md: the culprit pair first, then each step's ratios, then what changed",
          "[bisect-report]") {
    BisectState s = culprit_bisect();
    REQUIRE(s.outcome == BisectOutcome::culprit);
    std::string md = render_bisect_markdown(report_input(s));
    CHECK(md.rfind("# Bisect: which-build\n\n**Culprit: 43.20261106.0 is the first bad build; "
                   "43.20261105.0 is the last good one**\n\n"
                   "- First bad: 43.20261106.0 (commit ffffffffffff): Add busyloop.service\n"
                   "- Last good: 43.20261105.0 (commit eeeeeeeeeeee): Update build 5\n\n"
                   "Verdict: b5 is the first bad build: against b4 -9.1% (95% interval ",
                   0) == 0);
    CHECK(
        has(md, "Metric: boot\\_s (lower is better), threshold 5%; 8 builds, 5 tested, 52 boots."));
    CHECK(md.find("**Culprit") < md.find("## Steps"));
    CHECK(md.find("## Steps") <
          md.find("## What changed between the last good and the first bad build"));
    CHECK(has(md, "| phase | build | round | call | runs | vs good | vs bad | why |\n"));
    CHECK(has(md,
              "| endpoints | 43.20261108.0 against 43.20261101.0 | 1 | regression | 10 | -8.9% ("));
    CHECK(has(md, "| search | 43.20261104.0 | 1 | like-good | 8 | +0.2% ("));
    CHECK(
        has(md, "| confirm | 43.20261106.0 against 43.20261105.0 | 1 | regression | 12 | -9.0% ("));
    CHECK(has(md, "![boot\\_s along the history](bisect.svg)\n"));
}

TEST_CASE("bisect.md: what changed between the last good and the first bad build",
          "[bisect-report]") {
    BisectState s = culprit_bisect();
    std::string md = render_bisect_markdown(report_input(s));
    CHECK(has(md, "The builds after 43.20261105.0 up to 43.20261106.0:\n\n"
                  "| build | version | commit | date | subject |\n| --- | --- | --- | --- | --- |\n"
                  "| 43.20261106.0 | 43.20261106.0 | ffffffffffff | 2026-11-06T04:00:00Z | Add "
                  "busyloop.service |\n"));
    CHECK(has(md, "Kernel: 6.11.4-301.fc43.x86\\_64 -\\> 6.12.1-200.fc43.x86\\_64\n\n"
                  "- config CONFIG\\_HZ: 1000 -\\> 300\n"));
    CHECK(has(md, "- options added: mitigations=off\n- options removed: none\n"));
    CHECK(has(md, "Packages: 1 added, 1 removed, 1 changed (3 -\\> 3 packages); changed: kernel "
                  "6.11.4-301.fc43 -\\> 6.12.1-200.fc43; added: busyloop 1.0-1; removed: oldtool "
                  "1.0-1\n\n<details><summary>All 3 package changes</summary>\n\n"
                  "- kernel: 6.11.4-301.fc43 -\\> 6.12.1-200.fc43\n- busyloop added (1.0-1)\n"
                  "- oldtool removed (1.0-1)\n\n</details>\n"));
    CHECK(has(md, "Units enabled: 1 added, 0 removed, 0 changed\n\n"
                  "- busyloop.service added (usr: multi-user.target.wants)\n"));
    CHECK(
        has(md, "sysctl defaults: 0 added, 0 removed, 1 changed\n\n- vm.swappiness: 60 -\\> 10\n"));
}

TEST_CASE("bisect reports: no regression, undecided, still running", "[bisect-report]") {
    BisectState none = no_regression_bisect();
    std::string md = render_bisect_markdown(report_input(none));
    CHECK(md.rfind("# Bisect: which-build\n\n**No regression between good (43.20261101.0) and bad "
                   "(43.20261108.0)**\n\nVerdict: no regression between good and bad: ",
                   0) == 0);
    CHECK(has(md, "## What changed between good and bad\n"));
    CHECK_FALSE(has(md, "Culprit"));
    BisectState undecided = undecided_bisect();
    REQUIRE(undecided.outcome == BisectOutcome::undecided);
    CHECK(has(render_bisect_markdown(report_input(undecided)),
              "**Undecided: no culprit named; the regression is after 43.20261101.0 and at or "
              "before 43.20261106.0 (5 builds)**\n\nVerdict: b2 undecided after 2 rounds ("));
    BisectState running = start_bisect({"g", "c1", "c2", "bad"}, "boot_s", Better::lower, 0.05, 1);
    running = record_run(running, 0, 100);
    CHECK(
        bisect_headline(report_input(running)) ==
        "Running: the regression is after 43.20261101.0 and at or before 43.20261104.0 (3 builds)");
}

TEST_CASE("bisect reports: good and bad undecided, the final pair not confirmed",
          "[bisect-report]") {
    // two runs each cannot differ at 0.01, and one round is all there is
    BisectRules one_round;
    one_round.endpoint_runs = 2;
    one_round.max_rounds = 1;
    BisectState s = start_bisect(build_names(4), "boot_s", Better::lower, 0.05, 1, one_round);
    s = run_to_end(s, [](int b) { return b == 0 ? 100.0 : 110.0; });
    REQUIRE(s.outcome == BisectOutcome::undecided);
    CHECK(bisect_headline(report_input(s)) == "Undecided: good (43.20261101.0) against bad "
                                              "(43.20261104.0) is not decided; no culprit named");
    // the search ended at b4 and b5, whose direct A/B finds them alike
    BisectState pair = start_bisect(build_names(8), "boot_s", Better::lower, 0.05, 1);
    pair.phase = BisectPhase::confirm;
    pair.last_good = 4;
    pair.first_bad = 5;
    pair.pending = {4, 5, 4, 5, 4, 5, 4, 5};
    pair = run_to_end(pair, [](int) { return 100.0; });
    REQUIRE(pair.outcome == BisectOutcome::not_confirmed);
    std::string md = render_bisect_markdown(report_input(pair));
    CHECK(has(md, "**Not confirmed: no culprit named; the direct A/B of 43.20261105.0 and "
                  "43.20261106.0 did not confirm the regression**\n"));
    CHECK(has(md, "## What changed in the range left\n"));
    CHECK(bisect_report_json(report_input(pair))["culprit"].is_null());
}

TEST_CASE("bisect.svg: every build on the axis, tested ones as dots with intervals",
          "[bisect-report]") {
    BisectState s = culprit_bisect();
    std::string svg = render_bisect_svg(report_input(s));
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"880.0\"", 0) == 0);
    // 8 ticks with their build in a tooltip; 5 legend dots and one per tested build
    CHECK(count(svg, "stroke=\"#57606a\" stroke-width=\"1\"><title>") == 8);
    CHECK(has(svg, "<title>43.20261103.0 (commit cccccccccccc): Update build 3</title></line>"));
    CHECK(count(svg, "<circle") == 5 + 5);
    CHECK_FALSE(has(svg, "<title>43.20261103.0 (commit cccccccccccc): Update build 3; "));
    CHECK(has(svg, "<title>43.20261106.0 (commit ffffffffffff): Add busyloop.service; 12 runs; "
                   "against good -9.0% ("));
    CHECK(has(svg, ">threshold: 5% worse</text>"));
    CHECK(has(svg, ">0.95x</text>"));
    CHECK(has(svg, ">culprit</text>"));
    CHECK(has(svg, ">last good</text>"));
    CHECK(has(svg, "fill-opacity=\"0.07\"><title>the regression: after 43.20261105.0, at or "
                   "before 43.20261106.0</title></rect>"));
    // up is better: the slower builds sit below good's
    std::string good = "43.20261101.0 (commit aaaaaaaaaaaa): Update build 1";
    CHECK(dot_y(svg, "43.20261106.0 (commit ffffffffffff): Add busyloop.service") >
          dot_y(svg, good) + 100);
    CHECK(dot_y(svg, "43.20261105.0 (commit eeeeeeeeeeee): Update build 5") ==
          Approx(dot_y(svg, good)).margin(5));
    std::string none = render_bisect_svg(report_input(no_regression_bisect()));
    CHECK_FALSE(has(none, "fill-opacity=\"0.07\""));
    CHECK_FALSE(has(none, ">culprit</text>"));
    std::string html = render_bisect_html(report_input(s));
    CHECK(has(html, "<figure>\n" + svg + "</figure>\n"));
}

TEST_CASE("bisect.json: the state, each build's ratios and interval, each step, what changed",
          "[bisect-report]") {
    BisectState s = culprit_bisect();
    nlohmann::json j = bisect_report_json(report_input(s));
    CHECK(keys(j) == std::set<std::string>{"schema", "experiment", "headline", "outcome", "verdict",
                                           "culprit", "seed", "builds", "steps", "changes",
                                           "state"});
    CHECK(j["schema"] == "bootbench-bisect-report/1");
    CHECK(j["outcome"] == "culprit");
    CHECK(j["culprit"] == nlohmann::json{{"last_good", 4}, {"first_bad", 5}});
    const nlohmann::json& b5 = j["builds"][5];
    CHECK(keys(b5) == std::set<std::string>{"index", "name", "label", "commit", "subject",
                                            "version", "timestamp", "role", "runs", "median",
                                            "to_good", "to_bad"});
    CHECK(b5["role"] == "first-bad");
    CHECK(b5["commit"] == std::string(64, 'f'));
    // lower is better: good's median over the build's, < 1 as the build is slower
    double ratio = median(s.values[0]) / median(s.values[5]);
    CHECK(b5["to_good"]["ratio"].get<double>() == Approx(ratio));
    CHECK(b5["to_good"]["lo"].get<double>() <= ratio);
    CHECK(b5["to_good"]["hi"].get<double>() >= ratio);
    CHECK(j["builds"][2]["role"] == "untested");
    CHECK(j["builds"][2]["to_good"].is_null());
    CHECK(j["builds"][3]["role"] == "like-good");
    REQUIRE(j["steps"].size() == s.steps.size());
    CHECK(keys(j["steps"][0]) == std::set<std::string>{"phase", "build", "before", "round", "call",
                                                       "why", "to_good", "to_bad"});
    CHECK(j["steps"].back()["phase"] == "confirm");
    const nlohmann::json& c = j["changes"];
    CHECK(keys(c) == std::set<std::string>{"last_good", "first_bad", "builds", "problem", "diff",
                                           "package_summary", "cmdline_before", "cmdline_after"});
    CHECK(c["builds"] == nlohmann::json{5});
    CHECK(c["diff"]["packages"]["added"][0]["name"] == "busyloop");
    CHECK(c["diff"]["units"]["added"][0]["name"] == "busyloop.service");
    CHECK(bisect_state_from_json(j["state"], "bisect.json").steps.size() == s.steps.size());
}

TEST_CASE("a hostile subject is text in every format, never markup or bad UTF-8",
          "[bisect-report]") {
    BisectState s = culprit_bisect();
    BisectReportInput in = report_input(s, kHostile);
    std::string md = render_bisect_markdown(in), svg = render_bisect_svg(in);
    std::string html = render_bisect_html(in);
    for (const std::string* text : {&svg, &html})
        CHECK_FALSE(has(*text, "<script"));
    for (const std::string* text : {&md, &svg, &html})
        CHECK(ascii(*text));
    CHECK(count(md, "<script") == count(md, "\\<script")); // markdown shows a \< as <
    CHECK(count(md, "<script") > 5);
    std::string escaped =
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;it&#39; ?? end";
    CHECK(
        has(md, "**Culprit: \\<script\\>alert(\"x\")\\</script\\> & 'it' ?? end is the first bad"));
    CHECK(has(md, "- busyloop\\<script\\>alert(\"x\")\\</script\\> & 'it' ?? end added (1.0-1)\n"));
    CHECK(has(svg, ">Culprit: " + escaped + " is the first bad build"));
    CHECK(has(html, "<p><strong>Culprit: " + escaped + " is the first bad build"));
    CHECK(has(html, "<li>busyloop" + escaped + " added (1.0-1)</li>"));
    std::string json = json_text(bisect_report_json(in));
    nlohmann::json back = nlohmann::json::parse(json);
    CHECK(back["builds"][5]["subject"] ==
          "<script>alert(\"x\")</script> & 'it' \xef\xbf\xbd\xef\xbf\xbd end");
    CHECK(back["experiment"].get<std::string>().rfind("which-build<script>", 0) == 0);
}

TEST_CASE("trees not read: the report says why and still shows the command lines",
          "[bisect-report]") {
    BisectState s = culprit_bisect();
    BisectReportInput in = report_input(s);
    in.changes.diff.reset();
    in.changes.problem = "after: commit ffff is not in the repository";
    std::string md = render_bisect_markdown(in);
    CHECK(has(
        md, "Trees not compared: after: commit ffff is not in the repository\n\nCommand line:\n"));
    CHECK_FALSE(has(md, "Packages:"));
    nlohmann::json j = bisect_report_json(in);
    CHECK(j["changes"]["diff"].is_null());
    CHECK(j["changes"]["package_summary"] == "");
    in.changes = {};
    CHECK(has(render_bisect_markdown(in),
              "Trees not compared: not read\n\nCommand line: not read\n"));
    in.state = nullptr;
    CHECK(error_of([&] { render_bisect_markdown(in); }) ==
          "bisect report of 'which-build': no bisection state to report");
}

TEST_CASE("a higher-is-better metric: the ratios and the chart turn with it", "[bisect-report]") {
    // events per second drop by 10% from b5 on
    BisectState s = run_bisect(
        8, [](int b) { return b >= 5 ? 900.0 : 1000.0; }, {}, Better::higher);
    REQUIRE(s.outcome == BisectOutcome::culprit);
    nlohmann::json j = bisect_report_json(report_input(s));
    double ratio = median(s.values[5]) / median(s.values[0]);
    CHECK(ratio < 1);
    CHECK(j["builds"][5]["to_good"]["ratio"].get<double>() == Approx(ratio));
    std::string svg = render_bisect_svg(report_input(s));
    CHECK(has(svg, "events_per_s: higher is better, drawn so that up is better"));
    CHECK(dot_y(svg, "43.20261106.0 (commit ffffffffffff): Add busyloop.service") >
          dot_y(svg, "43.20261101.0 (commit aaaaaaaaaaaa): Update build 1") + 100);
}

TEST_CASE("builds the runner gave no facts for are named as the state names them",
          "[bisect-report]") {
    BisectState s = culprit_bisect();
    BisectReportInput in = report_input(s);
    in.builds.resize(2);
    in.builds[1].label = "";
    CHECK(bisect_headline(in) == "Culprit: b5 is the first bad build; b4 is the last good one");
    std::string md = render_bisect_markdown(in);
    CHECK(has(md, "- First bad: b5\n- Last good: b4\n"));
    CHECK(has(md, "| b5 |  |  |  |  |\n"));
    CHECK(bisect_report_json(in)["builds"][1]["label"] == "b1");
}
