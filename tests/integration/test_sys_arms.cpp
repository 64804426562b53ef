// "What differs between the arms" end to end on a sandbox: start reads each
// target's deployment into results/<name>/arms.json, and the report at the
// end compares them. Target b differs from a by a kernel argument, a unit
// enabled in its /etc and a sysctl default.
#include "../unit/catch.hpp"
#include "helpers.hpp"
#include "sandbox_fixture.hpp"
#include "sys/ostree/arms_record.hpp"
#include "sys/store/files.hpp"
#include "sys/store/user_lines.hpp"

#include <nlohmann/json.hpp>

using namespace bootbench;
using namespace bootbench::test;

namespace {

// b's own /etc: a unit that keeps a CPU busy, enabled by its wants link, and a swappiness.
void make_b_differ(Sandbox& sb) {
    sys::SandboxHost h = sb.host();
    fs::path etc = h.sysroot().deployment_dir(sb.layout.targets.at("b")) / "etc";
    fs::create_directories(etc / "systemd/system/multi-user.target.wants");
    fs::create_symlink("/usr/lib/systemd/system/busy-loop.service",
                       etc / "systemd/system/multi-user.target.wants/busy-loop.service");
    fs::create_directories(etc / "sysctl.d");
    sys::write_file_atomic(etc / "sysctl.d/90-bench.conf", "vm.swappiness = 10\n");
}

// The section's row `group name` in report.json: target -> value.
nlohmann::json arms_row(const nlohmann::json& report, const std::string& group, const std::string& name) {
    for (const auto& row : report["arms"]["rows"])
        if (row["group"] == group && row["name"] == name)
            return row["values"];
    return nullptr;
}

} // namespace

TEST_CASE("a sandbox experiment's report says what differs between the arms", "[arms]") {
    Sandbox sb(fast_experiment(1, "", "kargs = [\"mitigations=off\"]\n"));
    make_b_differ(sb);
    sb.start();
    nlohmann::json arms = nlohmann::json::parse(sys::read_text_file(sb.results() / "arms.json"));
    CHECK(arms["schema"] == "bootbench-arms/1");
    REQUIRE(arms["arms"].size() == 2);
    CHECK(arms["arms"][1]["target"] == "b");
    CHECK(arms["arms"][1]["tree"]["sysctl"]["vm.swappiness"] == "10"); // the kargs deployment kept b's /etc
    sb.boot_until_done();
    nlohmann::json report = nlohmann::json::parse(sys::read_text_file(sb.results() / "report.json"));
    CHECK(report["arms"]["targets"] == nlohmann::json{"a", "b"});
    CHECK(arms_row(report, "kernel arguments", "of the boot entry") ==
          nlohmann::json{{"a", {{"value", "(none beyond the common ones)"}}}, {"b", {{"value", "mitigations=off"}}}});
    CHECK(arms_row(report, "units", "busy-loop.service") ==
          nlohmann::json{{"a", {{"value", "not enabled"}}}, {"b", {{"value", "etc: multi-user.target.wants"}}}});
    CHECK(arms_row(report, "sysctl defaults", "vm.swappiness") ==
          nlohmann::json{{"a", {{"value", "not set"}}}, {"b", {{"value", "10"}}}});
    CHECK(arms_row(report, "kernel", "version").is_null()); // the same kernel in both
    CHECK(report["arms"]["notes"].empty());
    std::string md = sys::read_text_file(sb.results() / "report.md");
    CHECK(md.find("## What differs between the arms") != std::string::npos);
    CHECK(md.find("| units busy-loop.service | not enabled | etc: multi-user.target.wants |") != std::string::npos);
    // every run recorded its boot's live values
    for (const auto& [run, text] : sb.result_files())
        CHECK(nlohmann::json::parse(text)["environment"]["live"].contains("kernel.release"));
}

TEST_CASE("a deployment that cannot be read is recorded with why; a file that cannot be written is a warning",
          "[arms]") {
    Sandbox sb(fast_experiment(1));
    sys::SandboxHost h = sb.host();
    core::TargetState ghost{"ghost", {"sandbox", "0123456789abcdef", 0}};
    std::vector<core::ArmFacts> arms = sys::read_arms(h.sysroot(), {ghost});
    REQUIRE(arms.size() == 1);
    CHECK_FALSE(arms[0].tree);
    CHECK_FALSE(arms[0].kernel_options);
    REQUIRE(arms[0].problems.size() == 2);
    std::string gone = "deployment sandbox/0123456789abcdef.0 is not in the sysroot " + sb.layout.sysroot.string() +
                       " any more (removed by an update or cleanup?); deployments now:\\n  0: sandbox/";
    CHECK(arms[0].problems[0].rfind("kernel arguments not read: " + gone, 0) == 0);
    CHECK(arms[0].problems[1].rfind("deployment tree not read: " + gone, 0) == 0);
    sys::write_file_atomic(sb.dir / "a-file", "x\n");
    sys::LineCapture lines;
    sys::record_arms(h.sysroot(), {ghost}, sb.dir / "a-file");
    CHECK(lines.text().find("bootbench: warning: what differs between the arms was not recorded (") == 0);
    CHECK(lines.text().find("); the experiment goes on, and its report has no such section\n") != std::string::npos);
}

namespace {

// report.json's explanations of `metric`.
nlohmann::json explained(const nlohmann::json& report, const std::string& metric) {
    for (const auto& x : report.value("explanations", nlohmann::json::array()))
        if (x["metric"] == metric)
            return x;
    return nullptr;
}

// A command bench slower where busy-loop.service is enabled: it reads which
// deployment it runs in from the sandbox's boot ($BOOTBENCH_SANDBOX_BOOTED):
// its wants link (-L: the unit file it names is not in the sandbox's tree).
const char* kBusyBench = "if [ -L \\\"$BOOTBENCH_SANDBOX_BOOTED/etc/systemd/system/multi-user.target.wants/"
                         "busy-loop.service\\\" ]; then echo 'value 30'; else echo 'value 42.5'; fi";

} // namespace

// Issue 31: the report's "Likely explanations" from what differs between the
// arms. b enables a busy unit and has mitigations=off; its bench is worse:
// the unit explains it, the karg (which would make b faster) does not.
TEST_CASE("the report's likely explanations name b's extra unit first for the bench that is worse in b",
          "[arms][explain]") {
    Sandbox sb(fast_experiment(6, "", "kargs = [\"mitigations=off\"]\n", kBusyBench));
    make_b_differ(sb);
    sb.start();
    sb.boot_until_done();
    nlohmann::json report = nlohmann::json::parse(sys::read_text_file(sb.results() / "report.json"));
    nlohmann::json echo = explained(report, "echo_value");
    INFO(report["explanations"].dump(2));
    REQUIRE(echo.is_object());
    CHECK(echo["subject"] == "b");
    CHECK(echo["bench"] == "echo");
    REQUIRE(echo["explanations"].size() == 1);
    CHECK(echo["explanations"][0]["what"] == "busy-loop.service enabled in b only");
    CHECK(echo["explanations"][0]["why"] ==
          "a unit enabled only in b can take CPU time, memory or I/O from the bench");
    std::string md = sys::read_text_file(sb.results() / "report.md");
    CHECK(md.find("\n## Likely explanations\n") != std::string::npos);
    CHECK(md.find("- echo\\_value (echo), 1.42x worse in b:\n  1. busy-loop.service enabled in b only: a unit "
                  "enabled only in b can take CPU time, memory or I/O from the bench (score 0.40)\n") !=
          std::string::npos);
}
