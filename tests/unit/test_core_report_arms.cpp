// "What differs between the arms" (core/report/report_arms) on fake tree
// facts and fake live values; arms.json read back (core/deployment/arm_facts).
#include "catch.hpp"
#include "core/deployment/arm_facts.hpp"
#include "core/report/render_html.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/report.hpp"
#include "error_of.hpp"
#include "run_builder.hpp"

using namespace bootbench::core;
using bootbench::test::error_of;
using bootbench::test::run_of;
using bootbench::test::started_in_order;

namespace {

TreeFacts tree(const std::string& kernel, const std::string& hz) {
    TreeFacts t;
    t.kernels = {{kernel, {{"CONFIG_HZ", hz}, {"CONFIG_PREEMPT_DYNAMIC", "y"}}, ""}};
    t.packages = {"rpm", "", {{"bash", "5.2.26-1.fc40"}, {"kernel", kernel}, {"tuned", "2.21.0-1.fc40"}}};
    t.units = {{"sshd.service", "preset"}};
    t.sysctl = {{"vm.swappiness", "60"}};
    return t;
}

ArmFacts arm(const std::string& target, const std::string& options, TreeFacts t) {
    return {target, "fedora/" + target + ".0", options, std::move(t), {}};
}

// a: the stock arm; b: another kernel, a karg, a busy service, another swappiness, one package more.
std::vector<ArmFacts> two_arms() {
    TreeFacts b = tree("6.9.1-300.fc40", "1000");
    b.packages.versions["kernel"] = "6.9.1-300.fc40";
    b.packages.versions["stress-ng"] = "0.17.08-1.fc40";
    b.units["busy.service"] = "etc: multi-user.target.wants";
    b.sysctl["vm.swappiness"] = "10";
    return {arm("a", "rhgb quiet ostree=/ostree/boot.1/fedora/aa/0", tree("6.8.9-300.fc40", "250")),
            arm("b", "rhgb quiet ostree=/ostree/boot.1/fedora/bb/0 mitigations=off", b)};
}

RunResult live_run(const std::string& id, const std::string& target, std::map<std::string, std::string> live) {
    RunResult r = run_of(id, target, started_in_order(id));
    r.environment.live = live;
    return r;
}

const ArmRow* row(const ArmsSection& s, const std::string& group, const std::string& name) {
    for (const ArmRow& r : s.rows)
        if (r.group == group && r.name == name)
            return &r;
    return nullptr;
}

std::vector<std::string> cell_texts(const ArmRow& r) {
    std::vector<std::string> out;
    for (const ArmCell& c : r.cells)
        out.push_back(cell_text(c));
    return out;
}

// A report of two runs per target with one metric, the arms and live values given.
Report report_with(std::vector<ArmFacts> arms, std::vector<std::map<std::string, std::string>> live) {
    ReportInput in;
    in.baseline = "a";
    in.arms = std::move(arms);
    const char* ids[] = {"a-1", "b-2", "a-3", "b-4"};
    for (size_t i = 0; i < 4; ++i) {
        RunResult r = i < live.size() ? live_run(ids[i], i % 2 ? "b" : "a", live[i])
                                      : run_of(ids[i], i % 2 ? "b" : "a", started_in_order(ids[i]));
        r.metrics.push_back({"x", static_cast<double>(10 + i), "s", Better::lower, "work"});
        in.runs.push_back(r);
    }
    return build_report(in);
}

} // namespace

TEST_CASE("arms: only what differs between the trees, each target's value") {
    ArmsSection s = arms_section(two_arms(), {"a", "b"}, {});
    REQUIRE(row(s, "kernel", "version"));
    CHECK(cell_texts(*row(s, "kernel", "version")) == std::vector<std::string>{"6.8.9-300.fc40", "6.9.1-300.fc40"});
    CHECK(cell_texts(*row(s, "kernel arguments", "of the boot entry")) ==
          std::vector<std::string>{"(none beyond the common ones)", "mitigations=off"});
    CHECK(cell_texts(*row(s, "kernel config", "CONFIG_HZ")) == std::vector<std::string>{"250", "1000"});
    CHECK_FALSE(row(s, "kernel config", "CONFIG_PREEMPT_DYNAMIC")); // the same in both
    CHECK(cell_texts(*row(s, "units", "busy.service")) ==
          std::vector<std::string>{"not enabled", "etc: multi-user.target.wants"});
    CHECK_FALSE(row(s, "units", "sshd.service"));
    CHECK(cell_texts(*row(s, "sysctl defaults", "vm.swappiness")) == std::vector<std::string>{"60", "10"});
    CHECK(s.rows.size() == 5);
    REQUIRE(s.packages.size() == 1);
    CHECK(packages_line(s.packages[0]) == "packages, a -> b: 1 added, 0 removed, 1 changed (3 -> 4 packages); "
                                          "changed: kernel 6.8.9-300.fc40 -> 6.9.1-300.fc40; added: stress-ng 0.17.08-1.fc40");
    CHECK(s.notes.empty());
}

TEST_CASE("arms: per-boot values that differ, and one that varies within a target, with its values") {
    std::vector<RunResult> runs = {
        live_run("a-1", "a", {{"cmdline", "BOOT_IMAGE=/a ostree=/ostree/boot.0/x quiet"}, {"thp.enabled", "madvise"},
                              {"sysctl.vm.swappiness", "60"}, {"tuned.profile", "balanced"}}),
        live_run("b-2", "b", {{"cmdline", "BOOT_IMAGE=/b ostree=/ostree/boot.1/y quiet mitigations=off"},
                              {"thp.enabled", "madvise"}, {"sysctl.vm.swappiness", "60"}}),
        live_run("a-3", "a", {{"cmdline", "BOOT_IMAGE=/a ostree=/ostree/boot.1/x quiet"}, {"thp.enabled", "madvise"},
                              {"sysctl.vm.swappiness", "10"}, {"tuned.profile", "balanced"}}),
        live_run("a-5", "a", {{"cmdline", "BOOT_IMAGE=/a ostree=/ostree/boot.1/x quiet"}, {"thp.enabled", "madvise"},
                              {"sysctl.vm.swappiness", "60"}, {"tuned.profile", "balanced"}})};
    std::vector<const RunResult*> included;
    for (const auto& r : runs)
        included.push_back(&r);
    ArmsSection s = arms_section({}, {"a", "b"}, included);
    CHECK(cell_texts(*row(s, "per boot", "cmdline")) ==
          std::vector<std::string>{"(none beyond the common ones)", "mitigations=off"});
    CHECK(cell_texts(*row(s, "per boot", "sysctl.vm.swappiness")) ==
          std::vector<std::string>{"varies: 60 (2 runs), 10 (1 run)", "60"});
    CHECK(cell_texts(*row(s, "per boot", "tuned.profile")) == std::vector<std::string>{"balanced", "absent"});
    CHECK_FALSE(row(s, "per boot", "thp.enabled"));
    CHECK(s.rows.size() == 3);
    CHECK(arms_json(s)["rows"][1]["values"]["a"] ==
          nlohmann::json{{"varies", {{{"value", "60"}, {"runs", 2}}, {{"value", "10"}, {"runs", 1}}}}});
    CHECK(arms_json(s)["rows"][1]["values"]["b"] == nlohmann::json{{"value", "60"}});
}

TEST_CASE("arms: a tree not read is a note naming the target and why; its facts are not compared") {
    std::vector<ArmFacts> arms = two_arms();
    arms[1].tree.reset();
    arms[1].problems = {"deployment tree not read: /sysroot/ostree/deploy/fedora/deploy/bb.0: Permission denied"};
    arms[0].kernel_options.reset();
    arms[0].problems = {"kernel arguments not read: deployment fedora/aa.0 is not in the sysroot /"};
    ArmsSection s = arms_section(arms, {"a", "b"}, {});
    CHECK(s.rows.empty());
    CHECK(s.packages.empty());
    CHECK(s.notes == std::vector<std::string>{
                         "a: kernel arguments not read: deployment fedora/aa.0 is not in the sysroot /",
                         "b: deployment tree not read: /sysroot/ostree/deploy/fedora/deploy/bb.0: Permission denied"});
    CHECK(arms_section({arms[0]}, {"a", "b"}, {}).notes.back() ==
          "b: its deployment was not read at start (arms.json does not name it)");
}

TEST_CASE("arms: identical arms and results without live values give no section and no report key") {
    std::vector<ArmFacts> same = {arm("a", "quiet", tree("6.8.9", "250")), arm("b", "quiet", tree("6.8.9", "250"))};
    CHECK(arms_section(same, {"a", "b"}, {}).empty());
    Report r = report_with({}, {});
    CHECK(r.arms.empty());
    CHECK_FALSE(report_to_json(r).contains("arms"));
    CHECK(render_markdown(r, "report.svg").find("What differs") == std::string::npos);
    CHECK(render_html(r).find("What differs") == std::string::npos);
}

TEST_CASE("arms: the report's section in Markdown, HTML and report.json") {
    Report r = report_with(two_arms(), {{{"sysctl.vm.swappiness", "60"}}, {{"sysctl.vm.swappiness", "10"}},
                                        {{"sysctl.vm.swappiness", "30"}}, {{"sysctl.vm.swappiness", "10"}}});
    std::string md = render_markdown(r, "report.svg");
    CHECK(md.find("## What differs between the arms") != std::string::npos);
    CHECK(md.find("| what | a (baseline) | b |") != std::string::npos);
    CHECK(md.find("| kernel config CONFIG\\_HZ | 250 | 1000 |") != std::string::npos);
    CHECK(md.find("| per boot sysctl.vm.swappiness | varies: 60 (1 run), 30 (1 run) | 10 |") != std::string::npos);
    CHECK(md.find("- packages, a -\\> b: 1 added, 0 removed, 1 changed (3 -\\> 4 packages)") != std::string::npos);
    std::string html = render_html(r);
    CHECK(html.find("<h2>What differs between the arms</h2>") != std::string::npos);
    CHECK(html.find("<td class=\"varies\">varies: 60 (1 run), 30 (1 run)</td>") != std::string::npos);
    nlohmann::json j = report_to_json(r)["arms"];
    CHECK(j["targets"] == nlohmann::json{"a", "b"});
    CHECK(j["packages"][0]["added"][0]["name"] == "stress-ng");
    CHECK(j["rows"].size() == 6);
}

TEST_CASE("arms.json reads back as written; another schema or a field of another type is refused") {
    std::vector<ArmFacts> arms = two_arms();
    arms[1].tree.reset();
    arms[1].problems = {"deployment tree not read: why"};
    nlohmann::json j = arms_to_json(arms);
    CHECK(j["schema"] == "bootbench-arms/1");
    CHECK(arms_to_json(arms_from_json(j, "results/x/arms.json")) == j);
    CHECK(arms_from_json(j, "x")[1].problems == arms[1].problems);
    j["schema"] = "bootbench-arms/9";
    CHECK(error_of([&] { arms_from_json(j, "results/x/arms.json"); }) ==
          "results/x/arms.json: schema 'bootbench-arms/9' is not bootbench-arms/1; a newer bootbench wrote it: "
          "report with that version");
    j = arms_to_json(arms);
    j["arms"][0]["tree"]["sysctl"]["vm.swappiness"] = 60;
    CHECK(error_of([&] { arms_from_json(j, "results/x/arms.json"); }) ==
          "results/x/arms.json: arms[0]: tree: field 'sysctl' must map names to strings ('vm.swappiness' does not)");
}

TEST_CASE("arms: a kernel config or package database not read is said only where another target's was") {
    std::vector<ArmFacts> arms = two_arms();
    arms[1].tree->kernels[0].config.clear();
    arms[1].tree->kernels[0].problem = "/t/usr/lib/modules/6.9.1-300.fc40/config: no such file";
    arms[1].tree->packages = {"", "no package database found", {}};
    ArmsSection s = arms_section(arms, {"a", "b"}, {});
    CHECK(s.notes == std::vector<std::string>{"b: /t/usr/lib/modules/6.9.1-300.fc40/config: no such file"});
    REQUIRE(s.packages.size() == 1);
    CHECK(s.packages[0].summary == "packages unknown: after: no package database found");
    // neither read (a sandbox's trees): nothing to compare, nothing said
    arms[0].tree->kernels[0] = arms[1].tree->kernels[0];
    arms[0].tree->packages = arms[1].tree->packages;
    s = arms_section(arms, {"a", "b"}, {});
    CHECK(s.notes.empty());
    CHECK(s.packages.empty());
}

TEST_CASE("arms: a value that varies within each target the same way is shown though the targets agree") {
    std::vector<RunResult> runs = {live_run("a-1", "a", {{"thp.enabled", "madvise"}}),
                                   live_run("b-2", "b", {{"thp.enabled", "madvise"}}),
                                   live_run("a-3", "a", {{"thp.enabled", "always"}}),
                                   live_run("b-4", "b", {{"thp.enabled", "always"}})};
    std::vector<const RunResult*> included;
    for (const auto& r : runs)
        included.push_back(&r);
    ArmsSection s = arms_section({}, {"a", "b"}, included);
    REQUIRE(row(s, "per boot", "thp.enabled"));
    CHECK(cell_texts(*row(s, "per boot", "thp.enabled")) ==
          std::vector<std::string>{"varies: madvise (1 run), always (1 run)", "varies: madvise (1 run), always (1 run)"});
}
