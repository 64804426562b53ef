// Issue 31: the report's "Likely explanations" (core/report/report_explain):
// "What differs between the arms" as explain's facts, the Counters table as
// its counter moves, and the section in report.md/.html/.json.
#include "catch.hpp"
#include "core/report/render_html.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_text.hpp"
#include "core/report/report.hpp"
#include "core/report/report_explain.hpp"
#include "run_builder.hpp"

#include <nlohmann/json.hpp>

using namespace bootbench::core;
using bootbench::test::run_of;
using bootbench::test::started_in_order;

namespace {

// FactKind's names, in its order.
constexpr const char* kKindNames[] = {
    "kernel_version", "kernel_arg",    "kernel_config", "package",   "unit_enabled", "sysctl",
    "sched_ext",      "power_profile", "mitigation",    "microcode", "thp",          "other"};

const char* kind_name(FactKind k) {
    return kKindNames[static_cast<int>(k)];
}

// "kind name: control | subject", " (varies)" when it does.
std::vector<std::string> texts(const std::vector<ArmFact>& facts) {
    std::vector<std::string> out;
    for (const ArmFact& f : facts)
        out.push_back(std::string(kind_name(f.kind)) + " " + f.name + ": " + f.control + " | " +
                      f.subject + (f.varies ? " (varies)" : ""));
    return out;
}

ArmCell steady(const std::string& v) {
    return {{{v, 2}}};
}

ArmRow row(const std::string& group, const std::string& name, const std::string& a,
           const std::string& b) {
    return {group, name, {steady(a), steady(b)}};
}

ArmsSection section(std::vector<ArmRow> rows) {
    ArmsSection s;
    s.targets = {"a", "b"};
    s.rows = std::move(rows);
    return s;
}

} // namespace

TEST_CASE("report explain: every row of what differs between the arms is explain's fact",
          "[report][explain]") {
    ArmsSection s = section({
        row("kernel", "version", "6.8.9-300.fc40", "6.9.1-300.fc40"),
        row("kernel config", "CONFIG_HZ", "250", "1000"),
        row("kernel config", "CONFIG_SCHED_BORE", kArmNotInConfig, "y"),
        row("units", "busy.service", kArmNotEnabled, "etc: multi-user.target.wants"),
        row("sysctl defaults", "vm.swappiness", "60", kArmNotSet),
        row("per boot", "kernel.release", "6.8.9-300.fc40.x86_64", "6.9.1-300.fc40.x86_64"),
        row("per boot", "sysctl.kernel.sched_migration_cost_ns", "500000", "250000"),
        row("per boot", "thp.enabled", "madvise", "always"),
        row("per boot", "sched_ext.ops", kArmAbsent, "scx_lavd"),
        row("per boot", "tuned.profile", "balanced", "powersave"),
        row("per boot", "power-profiles-daemon.profile", "performance", "balanced"),
        row("per boot", "vulnerability.spectre_v2", "Mitigation: Retpolines", "Vulnerable"),
        row("per boot", "cpu.microcode", "0xf4", "0xf8"),
        row("per boot", "config.CONFIG_PREEMPT", "y", kArmAbsent),
        row("per boot", "deployment.origin", "fedora:a", "fedora:b"),
    });
    s.packages.push_back({"a",
                          "b",
                          "",
                          {{{"stress-ng", "", "0.17.08-1"}},
                           {{"nano", "7.2-1", ""}},
                           {{"kernel", "6.8.9-300.fc40", "6.9.1-300.fc40"}}},
                          ""});
    s.packages.push_back({"a", "c", "", {{{"vim", "", "9.1-1"}}, {}, {}}, ""}); // another subject's
    CHECK(texts(arm_facts(s, "b")) ==
          std::vector<std::string>{
              "kernel_version kernel: 6.8.9-300.fc40 | 6.9.1-300.fc40",
              "kernel_config CONFIG_HZ: 250 | 1000",
              "kernel_config CONFIG_SCHED_BORE:  | y",
              "unit_enabled busy.service:  | etc: multi-user.target.wants",
              "sysctl vm.swappiness: 60 | ",
              "kernel_version kernel: 6.8.9-300.fc40.x86_64 | 6.9.1-300.fc40.x86_64",
              "sysctl kernel.sched_migration_cost_ns: 500000 | 250000",
              "thp thp.enabled: madvise | always",
              "sched_ext sched_ext.ops:  | scx_lavd",
              "power_profile tuned.profile: balanced | powersave",
              "power_profile power-profiles-daemon.profile: performance | balanced",
              "mitigation spectre_v2: Mitigation: Retpolines | Vulnerable",
              "microcode cpu.microcode: 0xf4 | 0xf8",
              "kernel_config CONFIG_PREEMPT: y | ",
              "other per boot deployment.origin: fedora:a | fedora:b",
              "package stress-ng:  | 0.17.08-1",
              "package nano: 7.2-1 | ",
              "package kernel: 6.8.9-300.fc40 | 6.9.1-300.fc40",
          });
}

TEST_CASE("report explain: kernel arguments split per key, the same argument from the entry and "
          "the boots once",
          "[report][explain]") {
    ArmsSection s =
        section({row("kernel arguments", "of the boot entry", kArmNoArgs, "mitigations=off nosmt"),
                 {"per boot",
                  "cmdline",
                  {steady(kArmNoArgs),
                   {{{"mitigations=off nosmt", 1}, {"mitigations=off nosmt threadirqs", 1}}}}}});
    CHECK(texts(arm_facts(s, "b")) ==
          std::vector<std::string>{"kernel_arg mitigations:  | mitigations=off",
                                   "kernel_arg nosmt:  | nosmt",
                                   "kernel_arg threadirqs:  | threadirqs (varies)"});
    // an argument both arms have with other values
    ArmsSection both = section(
        {row("kernel arguments", "of the boot entry", "mitigations=auto", "mitigations=off")});
    CHECK(texts(arm_facts(both, "b")) ==
          std::vector<std::string>{"kernel_arg mitigations: mitigations=auto | mitigations=off"});
}

TEST_CASE("report explain: a value varying within a target is the one most runs had, marked",
          "[report][explain]") {
    ArmsSection s =
        section({{"per boot", "sysctl.vm.swappiness", {{{{"60", 2}, {"10", 1}}}, steady("10")}},
                 {"per boot",
                  "thp.enabled",
                  {{{{"never", 1}, {"always", 1}}}, {{{"never", 1}, {"always", 1}}}}}});
    CHECK(texts(arm_facts(s, "b")) ==
          std::vector<std::string>{"sysctl vm.swappiness: 60 | 10 (varies)",
                                   "thp thp.enabled: never | never (varies)"});
}

TEST_CASE("report explain: a third target's difference and a value not recorded are no difference",
          "[report][explain]") {
    ArmsSection s;
    s.targets = {"a", "b", "c"};
    s.rows = {{"units",
               "busy.service",
               {steady(kArmNotEnabled), steady(kArmNotEnabled), steady("preset")}},
              {"per boot",
               "tuned.profile",
               {steady("balanced"), steady(kArmNotRecorded), steady("powersave")}}};
    CHECK(arm_facts(s, "b").empty());
    CHECK(texts(arm_facts(s, "c")) ==
          std::vector<std::string>{"unit_enabled busy.service:  | preset",
                                   "power_profile tuned.profile: balanced | powersave"});
    CHECK(arm_facts(s, "a").empty()); // the baseline is no subject
    CHECK(arm_facts(s, "d").empty());
}

namespace {

CounterRow counter(const std::string& bench, const std::string& event, std::vector<double> a,
                   std::vector<double> b) {
    CounterRow row{bench, event, "", {}, std::nullopt};
    row.targets = {{"a", static_cast<int>(a.size()), median(a), a},
                   {"b", static_cast<int>(b.size()), median(b), b}};
    row.change = row.targets[1].median / row.targets[0].median;
    return row;
}

std::vector<std::string> texts(const std::vector<CounterMove>& moves) {
    std::vector<std::string> out;
    for (const CounterMove& m : moves)
        out.push_back(m.counter + " " + format_fixed(m.ratio, 2) + (m.clear ? " clear" : ""));
    return out;
}

} // namespace

TEST_CASE(
    "report explain: a counter moved clearly when every subject run is beyond every control run, "
    "3 runs each at least",
    "[report][explain]") {
    CountersSection c;
    c.rows = {counter("cpu", "context-switches", {10, 11, 12}, {20, 21, 22}),
              counter("cpu", "ipc", {2.0, 2.1, 2.2}, {1.0, 1.1, 1.2}),
              counter("cpu", "cpu-migrations", {10, 11, 30}, {20, 21, 22}), // overlapping
              counter("cpu", "cycles", {10, 11}, {20, 21}),                 // 2 runs: not enough
              counter("other", "context-switches", {1, 1, 1}, {9, 9, 9})};  // another bench's
    CounterRow one_sided{"cpu", "page-faults", "", {{"a", 3, 5, {5, 5, 5}}}, std::nullopt};
    c.rows.push_back(one_sided);
    CHECK(texts(counter_moves(c, "cpu", "a", "b")) ==
          std::vector<std::string>{"context-switches 1.91 clear", "ipc 0.52 clear",
                                   "cpu-migrations 1.91", "cycles 1.95"});
}

namespace {

// A sysbench-threads run "cpu" of `events` (higher is better) with `switches`
// context switches, and a command bench "echo" of `echo` (higher is better).
RunResult sysbench_run(const std::string& id, const std::string& target, double events,
                       double switches, double echo) {
    RunResult r = run_of(id, target, started_in_order(id));
    r.metrics.push_back({"sysbench_events", events, "events", Better::higher, "cpu"});
    r.metrics.push_back({"echo_value", echo, "x", Better::higher, "echo"});
    bootbench::test::add_bench(r, "cpu", BenchKind::sysbench_threads);
    bootbench::test::add_bench(r, "echo", BenchKind::command);
    r.counters.push_back({"cpu", {{"context-switches", switches}}});
    return r;
}

ArmFacts arm(const std::string& target, FactMap units) {
    TreeFacts t;
    t.units = std::move(units);
    return {target, "fedora/" + target + ".0", "rhgb quiet", t, {}};
}

// 6 runs a target: b does 40% fewer events with twice the switches per
// event, and a 25% higher echo; b enables busy.service, when `with_arms`.
ReportInput busy_in_b(bool with_arms) {
    ReportInput in;
    in.baseline = "a";
    for (int i = 0; i < 6; ++i) {
        std::string n = std::to_string(i);
        in.runs.push_back(sysbench_run("a-" + n, "a", 1000 + i, 2000 + 2 * i, 40 + 0.1 * i));
        in.runs.push_back(sysbench_run("b-" + n, "b", 600 + i, 2400 + 4 * i, 50 + 0.1 * i));
    }
    if (with_arms)
        in.arms = {arm("a", {}), arm("b", {{"busy.service", "etc: multi-user.target.wants"}})};
    return in;
}

} // namespace

TEST_CASE("report explain: each metric with a verdict gets its explanations, or the sentence that "
          "nothing does",
          "[report][explain]") {
    Report r = build_report(busy_in_b(true));
    REQUIRE(r.explanations.size() == 2);
    const MetricExplanation& events = r.explanations[0];
    CHECK(events.move.metric == "sysbench_events");
    CHECK(events.move.bench == "cpu");
    CHECK(events.move.kind == BenchKind::sysbench_threads);
    CHECK(events.move.control == "a");
    CHECK(events.move.subject == "b");
    REQUIRE(events.explanations.size() == 1);
    CHECK(events.explanations[0].what == "busy.service enabled in b only");
    CHECK(events.explanations[0].evidence ==
          std::vector<std::string>{"context-switches 2.00x in b"});
    CHECK(events.explanations[0].score == Approx(1.5)); // 1.0 for a CPU-taking bench, one counter
    CHECK(events.nothing.empty());
    const MetricExplanation& echo = r.explanations[1];
    CHECK(echo.explanations.empty()); // a unit in b does not make b better
    CHECK(echo.nothing == "Nothing that differs between a and b is known to move echo_value "
                          "(echo), 1.25x better in b.");

    std::string md = render_markdown(r, "report.svg");
    CHECK(md.find("\n## Likely explanations\n") != std::string::npos);
    CHECK(md.find("- sysbench\\_events (cpu), 1.66x worse in b:\n  1. busy.service enabled in b "
                  "only: a unit enabled "
                  "only in b runs beside the bench and takes CPU time from it (moved with it: "
                  "context-switches 2.00x "
                  "in b) (score 1.50)\n") != std::string::npos);
    CHECK(md.find("- Nothing that differs between a and b is known to move echo\\_value (echo), "
                  "1.25x better in b.\n") != std::string::npos);
    CHECK(md.find("## Likely explanations") > md.find("## What differs between the arms"));
    std::string html = render_html(r);
    CHECK(html.find("<h2>Likely explanations</h2>") != std::string::npos);
    CHECK(html.find("<li>busy.service enabled in b only: a unit enabled only in b runs beside") !=
          std::string::npos);
    nlohmann::json j = nlohmann::json::parse(render_json(r));
    REQUIRE(j["explanations"].size() == 2);
    CHECK(j["explanations"][0]["metric"] == "sysbench_events");
    CHECK(j["explanations"][0]["subject"] == "b");
    CHECK(j["explanations"][0]["explanations"][0]["what"] == "busy.service enabled in b only");
    CHECK(j["explanations"][0]["explanations"][0]["why"] ==
          "a unit enabled only in b runs beside the bench and takes CPU time from it");
    CHECK(j["explanations"][0]["explanations"][0]["score"] == Approx(1.5));
    CHECK(j["explanations"][0]["explanations"][0]["evidence"] ==
          nlohmann::json{"context-switches 2.00x in b"});
    CHECK_FALSE(j["explanations"][0].contains("nothing"));
    CHECK(j["explanations"][1]["explanations"].empty());
    CHECK(j["explanations"][1]["nothing"] == "Nothing that differs between a and b is known to "
                                             "move echo_value (echo), 1.25x better in b.");
}

TEST_CASE("report explain: a report without arms data has no explanations, in no format",
          "[report][explain]") {
    Report r = build_report(busy_in_b(false));
    CHECK(r.arms.empty());
    CHECK(r.explanations.empty());
    CHECK(render_markdown(r, "report.svg").find("Likely explanations") == std::string::npos);
    CHECK(render_html(r).find("Likely explanations") == std::string::npos);
    CHECK_FALSE(nlohmann::json::parse(render_json(r)).contains("explanations"));
}
