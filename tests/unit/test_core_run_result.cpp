// A run's result as files store it: a real result from before the records
// were typed reads field by field and writes back byte for byte the same JSON.
#include "catch.hpp"
#include "core/base/text.hpp"
#include "core/result/run_result.hpp"
#include "error_of.hpp"

#include <fstream>
#include <sstream>

using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

const std::string kOldRun = std::string(TEST_DATA_DIR) + "/../fuzz/corpus/run-json/bootbench-run.json";

std::string old_run_text() {
    std::ifstream in(kOldRun);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

nlohmann::json old_run() { return nlohmann::json::parse(old_run_text()); }

ConditionRecord condition(const nlohmann::json& j) {
    return condition_record_from_json(j, "r.json: conditions[0]");
}

} // namespace

TEST_CASE("an old result's conditions read as typed records, field by field") {
    RunResult r = run_result_from_json(old_run(), kOldRun);
    REQUIRE(r.conditions.size() == 4);
    CHECK(r.conditions[0] == ConditionRecord{ConditionCheck::settle, "0 s after boot", "booted 488.5 s ago",
                                             ConditionDecision::run, ""});
    CHECK(r.conditions[1] ==
          ConditionRecord{ConditionCheck::sched_ext, "any", "no sched_ext", ConditionDecision::run, ""});
    CHECK(r.conditions[2] ==
          ConditionRecord{ConditionCheck::governor, "any", "no cpufreq", ConditionDecision::run, ""});
    CHECK(r.conditions[3] ==
          ConditionRecord{ConditionCheck::temperature, "<= 90.0 C", "no sensor", ConditionDecision::run,
                          "no CPU temperature sensor among hwmon k10temp, zenpower, coretemp and thermal "
                          "zones x86_pkg_temp, acpitz: running without waiting to cool"});
}

TEST_CASE("an old result writes back exactly as it was read") {
    nlohmann::json j = old_run();
    CHECK(to_json(run_result_from_json(j, kOldRun)) == j);
}

TEST_CASE("every condition name reads back as the value it was written from") {
    for (const auto& [name, check] : kConditionCheckNames)
        for (const auto& [dname, decision] : kConditionDecisionNames) {
            ConditionRecord c{check, "w", "f", decision, "d"};
            CHECK(condition(to_json(c)) == c);
            CHECK(to_json(c)["check"] == name);
            CHECK(to_json(c)["decision"] == dname);
        }
}

TEST_CASE("a condition's keys this version does not know are kept") {
    nlohmann::json j = {{"check", "quiet"}, {"wanted", "stop a.timer"}, {"found", "present: a.timer"},
                        {"decision", "run-flagged"}, {"detail", ""}, {"units", {"a.timer"}}};
    ConditionRecord c = condition(j);
    CHECK(c.unknown == nlohmann::json{{"units", {"a.timer"}}});
    CHECK(to_json(c) == j);
}

TEST_CASE("a condition with a name no version wrote is refused, naming the run and the field") {
    nlohmann::json j = {{"check", "settle"}, {"decision", "maybe"}};
    CHECK(error_of([&] { condition(j); }) == "r.json: conditions[0]: field 'decision' has an unknown value 'maybe'");
    j = old_run();
    j["conditions"][2]["check"] = "humidity";
    CHECK(error_of([&] { run_result_from_json(j, "runs/a-1.json"); }) ==
          "runs/a-1.json: conditions[2]: field 'check' has an unknown value 'humidity'");
}

TEST_CASE("an image target's run names its image as the state recorded it, unknown keys kept") {
    nlohmann::json j = old_run();
    const nlohmann::json image = {{"reference", "ostree-image-signed:docker://ghcr.io/x/b:stable"},
                                  {"index_digest", nullptr},
                                  {"manifest_digest", "sha256:" + std::string(64, '2')},
                                  {"platform", "linux/amd64"},
                                  {"pinned_reference", "ostree-image-signed:docker://ghcr.io/x/b@sha256:" +
                                                           std::string(64, '2')},
                                  {"signed_by", "a later version"}};
    j["image"] = image;
    RunResult r = run_result_from_json(j, kOldRun);
    REQUIRE(r.image);
    CHECK(*r.image == ResolvedImage{"ostree-image-signed:docker://ghcr.io/x/b:stable", "",
                                    "sha256:" + std::string(64, '2'), "linux/amd64",
                                    "ostree-image-signed:docker://ghcr.io/x/b@sha256:" + std::string(64, '2'),
                                    {{"signed_by", "a later version"}}});
    CHECK(to_json(r) == j);
    CHECK_FALSE(run_result_from_json(old_run(), kOldRun).image);
}

TEST_CASE("an old result's environment reads as a typed record, field by field") {
    EnvironmentRecord e = run_result_from_json(old_run(), kOldRun).environment;
    CHECK(e.kernel_release.value == "6.18.44-fc-v1147");
    CHECK(e.nproc.value == 2);
    CHECK(e.smt.value == "notsupported");
    REQUIRE(e.mitigations.value);
    CHECK(e.mitigations.value->size() == 19);
    CHECK(e.mitigations.value->at("retbleed") == "Vulnerable");
    // null (probed, the machine has none) and absent (from before the key) stay apart
    CHECK(e.governor.present);
    CHECK_FALSE(e.governor.value);
    CHECK_FALSE(e.energy.present);
    CHECK_FALSE(e.sandbox.present);
    CHECK(e.unknown.empty());
}

TEST_CASE("an old result's file is written back byte for byte") {
    std::string text = old_run_text();
    RunResult r = run_result_from_json(nlohmann::json::parse(text), kOldRun);
    CHECK(json_text(to_json(r), 2) + "\n" == text);
    nlohmann::json env = nlohmann::json::parse(text)["environment"];
    CHECK(json_text(to_json(environment_record_from_json(env, kOldRun))) == json_text(env));
}

TEST_CASE("an environment's keys this version does not know are kept, and every field reads back") {
    nlohmann::json j = old_run()["environment"];
    j.update({{"energy", "no RAPL: no powercap"}, {"boot_finish_monotonic_us", 19750000},
              {"cpu_freq_mhz", {{"pipe", 2800.5}}}, {"sandbox", true}, {"first_boot_after_switch", false},
              {"governor", {{"policy0", "performance"}, {"policy1", "powersave"}}}, {"sched_bore", "on"},
              {"temp_start_c", 48.375}, {"psi", {{"cpu", 0.1}}}});
    EnvironmentRecord e = environment_record_from_json(j, "r.json: environment");
    CHECK(e.unknown == nlohmann::json{{"psi", {{"cpu", 0.1}}}});
    CHECK(e.cpu_freq_mhz.value == std::map<std::string, double>{{"pipe", 2800.5}});
    CHECK(e.first_boot_after_switch.value == false);
    CHECK(to_json(e) == j);
    CHECK(environment_record_from_json(to_json(e), "again") == e);
}

TEST_CASE("an environment field of another type is refused, naming the run and the field") {
    nlohmann::json j = old_run();
    j["environment"]["nproc"] = "two";
    CHECK(error_of([&] { run_result_from_json(j, "runs/a-1.json"); }) ==
          "runs/a-1.json: environment: field 'nproc' must be an integer");
    j = old_run();
    j["environment"]["mitigations"]["retbleed"] = 1;
    CHECK(error_of([&] { run_result_from_json(j, "runs/a-1.json"); }) ==
          "runs/a-1.json: environment: field 'mitigations' must be an object of strings");
    j = old_run();
    j["environment"]["sandbox"] = "yes";
    CHECK(error_of([&] { run_result_from_json(j, "runs/a-1.json"); }) ==
          "runs/a-1.json: environment: field 'sandbox' must be a boolean");
}

TEST_CASE("environment.live reads back as written; an old result has none; a value of another type is refused") {
    nlohmann::json j = old_run();
    CHECK_FALSE(run_result_from_json(j, kOldRun).environment.live.present);
    CHECK_FALSE(to_json(run_result_from_json(j, kOldRun))["environment"].contains("live"));
    j["environment"]["live"] = {{"cmdline", "quiet mitigations=off"}, {"sysctl.vm.swappiness", "60"},
                                {"config.CONFIG_HZ", "1000"}};
    EnvironmentRecord e = run_result_from_json(j, kOldRun).environment;
    REQUIRE(e.live.value);
    CHECK(e.live.value->at("sysctl.vm.swappiness") == "60");
    CHECK(e.unknown.empty());
    CHECK(to_json(e) == j["environment"]);
    CHECK(value_of(e, EnvField::live) == j["environment"]["live"]);
    j["environment"]["live"]["sysctl.vm.swappiness"] = 60;
    CHECK(error_of([&] { run_result_from_json(j, "runs/a-1.json"); }) ==
          "runs/a-1.json: environment: field 'live' must be an object of strings");
}
