#include "catch.hpp"
#include "run_builder.hpp"
#include "core/host/canaries.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/report.hpp"
#include "core/result/run_result.hpp"
#include "error_of.hpp"

#include <algorithm>

using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

Canaries kernel_warnings(std::string_view records) {
    Canaries c;
    add_kmsg_records(c.kernel_log, records);
    return c;
}

RunResult run(const std::string& id, const std::string& target, double value,
              std::optional<Canaries> canaries = std::nullopt) {
    RunResult r = bootbench::test::run_of(id, target, bootbench::test::started_in_order(id));
    r.metrics.push_back({"lat", value, "ms", Better::lower, "b"});
    r.canaries = std::move(canaries);
    return r;
}

ReportInput with_canary(const Canaries& c) {
    ReportInput in;
    in.baseline = "a";
    for (int i = 1; i <= 3; ++i) {
        in.runs.push_back(run("a-" + std::to_string(i), "a", 10 + i, Canaries{}));
        in.runs.push_back(
            run("b-" + std::to_string(i), "b", 5 + i, i == 2 ? c : Canaries{}));
    }
    return in;
}

} // namespace

TEST_CASE("kmsg: a record's level is prio & 7 and its text follows the semicolon") {
    auto line = parse_kmsg_record("6,474,15334605485,-;bootbench[31363]: segfault at 0\n");
    REQUIRE(line);
    CHECK(line->level == 6);
    CHECK(line->text == "bootbench[31363]: segfault at 0");
    auto user = parse_kmsg_record("28,1000,2000,-,caller=T1;systemd[1]: a warning"); // facility 3, level 4
    REQUIRE(user);
    CHECK(user->level == 4);
    CHECK(user->text == "systemd[1]: a warning");
    CHECK_FALSE(parse_kmsg_record(" SUBSYSTEM=pci"));
    CHECK_FALSE(parse_kmsg_record("no record here"));
    CHECK_FALSE(parse_kmsg_record("x,1,2,-;text"));
    CHECK_FALSE(parse_kmsg_record(""));
}

TEST_CASE("kmsg: only warnings and worse are kept, continuation lines skipped, caps held") {
    Canaries c = kernel_warnings("6,1,10,-;info line\n"
                                 "4,2,11,-;CPU0: Core temperature above threshold\n"
                                 " SUBSYSTEM=cpu\n"
                                 "3,3,12,-;nvme nvme0: I/O timeout\n"
                                 "7,4,13,-;debug\n");
    CHECK(c.kernel_log.total == 2);
    REQUIRE(c.kernel_log.lines.size() == 2);
    CHECK(c.kernel_log.lines[0].level == 4);
    CHECK(c.kernel_log.lines[1].text == "nvme nvme0: I/O timeout");
    std::string many;
    for (int i = 0; i < 30; ++i)
        many += "4," + std::to_string(i) + ",1,-;" + std::string(500, 'x') + "\n";
    Canaries capped = kernel_warnings(many);
    CHECK(capped.kernel_log.total == 30);
    CHECK(capped.kernel_log.lines.size() == kMaxKernelLines);
    CHECK(capped.kernel_log.lines[0].text.rfind(std::string(kMaxKernelLineBytes, 'x'), 0) == 0);
    CHECK(capped.kernel_log.lines[0].text.find("more bytes of the kernel's line cut") !=
          std::string::npos);
}

TEST_CASE("throttling: core counts add up over CPUs, a package's counts once") {
    ThrottleCounts before = {{"cpu0/core_throttle_count", 5},
                             {"cpu1/core_throttle_count", 0},
                             {"cpu0/package_throttle_count", 100},
                             {"cpu1/package_throttle_count", 100}};
    ThrottleCounts after = {{"cpu0/core_throttle_count", 12},
                            {"cpu1/core_throttle_count", 5},
                            {"cpu0/package_throttle_count", 103},
                            {"cpu1/package_throttle_count", 103},
                            {"cpu2/core_throttle_count", 50}}; // not there before: skipped
    Throttling t = throttle_change(before, after);
    CHECK(t.core == 12);
    CHECK(t.package == 3);
}

TEST_CASE("canary text: kernel warnings with the first line, then throttling; nothing when quiet") {
    Canaries c = kernel_warnings("4,1,1,-;first one\n3,2,2,-;second\n2,3,3,-;third\n");
    c.throttling.core = 12;
    CHECK(canary_text(c) ==
          "3 kernel warnings during the benches (first: <4> first one); core throttling 12 times");
    c.throttling.package = 1;
    CHECK(canary_text(c).find("; package throttling 1 time") != std::string::npos);
    Canaries quiet;
    quiet.kernel_log.problem = "cannot open /dev/kmsg: Permission denied";
    quiet.throttling.problem = "no thermal_throttle counters";
    CHECK(canary_text(quiet) == "");
    CHECK(canary_text(kernel_warnings("4,1,1,-;one\n")) ==
          "1 kernel warning during the benches (first: <4> one)");
}

TEST_CASE("canaries in a run's JSON: written, read back, absent when never recorded") {
    RunResult r = run("a-1", "a", 1, kernel_warnings("4,1,1,-;hot\n"));
    r.canaries->kernel_log.problem = "reading /dev/kmsg: Invalid argument";
    r.canaries->throttling = {7, 2, ""};
    nlohmann::json j = to_json(r);
    CHECK(j["canaries"]["kernel_log"]["lines"][0]["text"] == "hot");
    CHECK(j["canaries"]["kernel_log"]["problem"] == "reading /dev/kmsg: Invalid argument");
    RunResult back = run_result_from_json(j, "runs/a-1.json");
    REQUIRE(back.canaries);
    CHECK(back.canaries->kernel_log.total == 1);
    CHECK(back.canaries->kernel_log.problem == "reading /dev/kmsg: Invalid argument");
    CHECK(back.canaries->throttling.core == 7);
    CHECK(back.canaries->throttling.package == 2);
    CHECK_FALSE(to_json(run("a-2", "a", 1)).contains("canaries"));
    CHECK_FALSE(run_result_from_json(to_json(run("a-2", "a", 1)), "x").canaries);
    j["canaries"]["throttling"]["core"] = "many";
    CHECK(error_of([&] { run_result_from_json(j, "runs/a-1.json"); }) ==
          "runs/a-1.json: canaries: throttling: field 'core' must be an integer");
}

TEST_CASE("report: a run with a canary stays in, is marked in Every run and named in the warnings") {
    Canaries c = kernel_warnings("4,1,1,-;first\n4,2,2,-;b\n3,3,3,-;c\n");
    c.throttling.core = 12;
    Report r = build_report(with_canary(c));
    REQUIRE(r.canaries.size() == 1);
    CHECK(r.find_target("b")->runs.size() == 3);
    std::string warning = "run b-2: 3 kernel warnings during the benches (first: <4> first); "
                          "core throttling 12 times";
    CHECK(std::find(r.warnings.begin(), r.warnings.end(), warning) != r.warnings.end());
    std::string md = render_markdown(r, "report.svg");
    CHECK(md.find("| b-2 (~) |") != std::string::npos);
    CHECK(md.find("| b-1 |") != std::string::npos);
    CHECK(md.find("Runs marked (~) had a noise canary") != std::string::npos);
    nlohmann::json j = nlohmann::json::parse(render_json(r));
    CHECK(j["canaries"][0]["run"] == "b-2");
}

TEST_CASE("report: quiet runs give no canary, no mark and no canaries key") {
    Report r = build_report(with_canary(Canaries{}));
    CHECK(r.canaries.empty());
    CHECK(render_markdown(r, "report.svg").find("(~)") == std::string::npos);
    CHECK_FALSE(nlohmann::json::parse(render_json(r)).contains("canaries"));
}

TEST_CASE("report: the system's figures come after every bench's metrics") {
    ReportInput in = with_canary(Canaries{});
    for (auto& r : in.runs) {
        r.metrics.insert(r.metrics.begin(), {"mem_used_mib", 4000, "MiB", Better::lower, "system"});
        r.metrics.push_back({"work_energy_j", 2, "J", Better::lower, "work"});
    }
    Report r = build_report(in);
    REQUIRE(r.metrics.size() == 3);
    CHECK(r.metrics[0].key == "lat");
    CHECK(r.metrics[1].key == "work_energy_j");
    CHECK(r.metrics[2].key == "mem_used_mib");
    CHECK(r.metrics[2].better_from == "the metric catalog");
}

TEST_CASE("canaries: a suspend during the benches and update services running at boot mark the run") {
    CHECK(suspended_between(12.0, 12.4) == 0); // clock noise
    CHECK(suspended_between(12.0, 924.0) == Approx(912.0));
    Canaries c;
    c.suspended_s = 912.3;
    c.updates_running = {"uupd.service"};
    CHECK(canary_text(c) == "the machine was suspended for 912 s during the benches; uupd.service was running "
                            "at this boot (started by a stopped timer; stopped before the settle time)");
    c.updates_running.push_back("fstrim.service");
    CHECK(canary_text(c).find("; uupd.service, fstrim.service were running at this boot") != std::string::npos);
    Report r = build_report(with_canary(c));
    REQUIRE(r.canaries.size() == 1);
    CHECK(r.canaries[0].run == "b-2");
    CHECK(render_markdown(r, "report.svg").find("| b-2 (~) |") != std::string::npos);
}

TEST_CASE("canaries in a run's JSON: the suspend and the update services, absent in older results") {
    Canaries c;
    c.suspended_s = 30;
    c.updates_running = {"uupd.service"};
    RunResult back = run_result_from_json(to_json(run("a-1", "a", 1, c)), "runs/a-1.json");
    REQUIRE(back.canaries);
    CHECK(back.canaries->suspended_s == Approx(30));
    CHECK(back.canaries->updates_running == std::vector<std::string>{"uupd.service"});
    nlohmann::json old = to_json(run("a-1", "a", 1, Canaries{}));
    old["canaries"].erase("suspended_s");
    old["canaries"].erase("updates_running");
    back = run_result_from_json(old, "runs/a-1.json");
    CHECK(back.canaries->suspended_s == 0);
    CHECK(back.canaries->updates_running.empty());
    nlohmann::json bad = to_json(run("a-1", "a", 1, c));
    bad["canaries"]["updates_running"] = {1};
    CHECK(error_of([&] { run_result_from_json(bad, "runs/a-1.json"); }) ==
          "runs/a-1.json: canaries: field 'updates_running' must be an array of strings");
}
