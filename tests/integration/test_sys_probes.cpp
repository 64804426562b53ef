#include "catch.hpp"
#include "core/base/error.hpp"
#include "fake_tree.hpp"
#include "sys/probe/booted_deployment.hpp"
#include "sys/probe/probes.hpp"
#include "sys/probe/sensors.hpp"

using namespace bootbench;
using namespace bootbench::sys;
using nlohmann::json;
using testing::TempDir;

TEST_CASE("the environment of a laptop, read from a fake tree") {
    TempDir dir;
    testing::build_laptop_tree(dir.path());
    json env = core::to_json(probe_environment(dir.path()));
    CHECK(env["kernel_release"] == "7.0.12-cachyos1.fc44.x86_64");
    CHECK(env["kernel_version"] == "#1 SMP PREEMPT_DYNAMIC Tue Jun 16 2026");
    CHECK(env["cmdline"] == "BOOT_IMAGE=(hd0,gpt2)/ostree/fedora-abc/vmlinuz quiet");
    CHECK(env["cpu_model"] == "AMD Ryzen 5 7640U w/ Radeon 760M Graphics");
    CHECK(env["nproc"] == 12);
    CHECK(env["smt"] == "on");
    CHECK(env["governor"] == "powersave");
    CHECK(env["epp"]["policy10"] == "performance");
    CHECK(env["epp"]["policy2"] == "balance_performance");
    CHECK(env["epp"].size() == 12);
    CHECK(env["mitigations"] == json{{"meltdown", "Not affected"},
                                     {"spectre_v2", "Mitigation: Enhanced / Automatic IBRS"}});
    CHECK(env["sched_ext_state"] == "disabled");
    CHECK(env["sched_ext_ops"] == "");
    CHECK(env["sched_bore"] == 1);
    CHECK(env["ac_power"] == true);
    CHECK(env["dmi_product"] == "Laptop 13 (AMD Ryzen 7040Series)");
    CHECK(env["hostname"] == "margine");
    CHECK(env["boot_id"] == "0f1e2d3c-aaaa-bbbb-cccc-123456789abc");
}

TEST_CASE("an empty tree gives every documented key as null, never an error") {
    TempDir dir;
    json env = core::to_json(probe_environment(dir.path()));
    for (const char* key :
         {"kernel_release", "kernel_version", "cmdline", "cpu_model", "nproc", "smt", "governor",
          "epp", "mitigations", "sched_ext_state", "sched_ext_ops", "sched_bore", "ac_power",
          "dmi_product", "hostname", "boot_id", "temp_start_c", "temp_end_c", "temp_sensor"}) {
        INFO(key);
        REQUIRE(env.contains(key));
        CHECK(env[key].is_null());
    }
    CHECK(env.size() == 19);
}

TEST_CASE("ac_power is false on battery") {
    TempDir dir;
    testing::build_laptop_tree(dir.path());
    testing::write(dir.path() / "sys/class/power_supply/ACAD/online", "0\n");
    CHECK(core::to_json(probe_environment(dir.path()))["ac_power"] == false);
}

TEST_CASE("cpu lists and folder order") {
    CHECK(count_cpu_list("0-11") == 12);
    CHECK(count_cpu_list("0,2-3,8") == 4);
    CHECK_FALSE(count_cpu_list("3-1"));
    CHECK_FALSE(count_cpu_list("x"));
    TempDir dir;
    for (const char* n : {"policy10", "policy2", "policy1", "other"})
        testing::write(dir.path() / n / "f", "");
    auto dirs = probe_dirs(dir.path(), "policy");
    REQUIRE(dirs.size() == 3);
    CHECK(dirs[0].filename() == "policy1");
    CHECK(dirs[1].filename() == "policy2");
    CHECK(dirs[2].filename() == "policy10");
}

TEST_CASE("temperature: k10temp before the thermal zones, then the zones, else none") {
    TempDir dir;
    testing::build_laptop_tree(dir.path());
    SysfsSensors sensors(dir.path());
    auto t = sensors.cpu_temperature();
    REQUIRE(t);
    CHECK(t->celsius == 48.375);
    CHECK(t->sensor == "hwmon k10temp Tctl");
    fs::remove_all(dir.path() / "sys/class/hwmon/hwmon3");
    t = sensors.cpu_temperature();
    REQUIRE(t);
    CHECK(t->celsius == 41);
    CHECK(t->sensor == "thermal_zone0 acpitz");
    testing::write(dir.path() / "sys/class/thermal/thermal_zone1/type", "x86_pkg_temp\n");
    testing::write(dir.path() / "sys/class/thermal/thermal_zone1/temp", "52000\n");
    CHECK(sensors.cpu_temperature()->sensor == "thermal_zone1 x86_pkg_temp");
    fs::remove_all(dir.path() / "sys/class/thermal");
    CHECK_FALSE(sensors.cpu_temperature()); // the nvme sensor is not the CPU's
}

TEST_CASE("coretemp: the package input, found by its label") {
    TempDir dir;
    testing::write(dir.path() / "sys/class/hwmon/hwmon1/name", "coretemp\n");
    testing::write(dir.path() / "sys/class/hwmon/hwmon1/temp1_label", "Core 0\n");
    testing::write(dir.path() / "sys/class/hwmon/hwmon1/temp1_input", "61000\n");
    testing::write(dir.path() / "sys/class/hwmon/hwmon1/temp2_label", "Package id 0\n");
    testing::write(dir.path() / "sys/class/hwmon/hwmon1/temp2_input", "63000\n");
    auto t = SysfsSensors(dir.path()).cpu_temperature();
    REQUIRE(t);
    CHECK(t->celsius == 63);
    CHECK(t->sensor == "hwmon coretemp Package id 0");
}

TEST_CASE("the governor is set and put back, policy by policy") {
    TempDir dir;
    testing::build_laptop_tree(dir.path());
    testing::write(dir.path() / "sys/devices/system/cpu/cpufreq/policy3/scaling_governor",
                   "performance\n");
    SysfsSensors sensors(dir.path());
    {
        GovernorOverride set(sensors, "performance");
        auto now = sensors.governors();
        CHECK(now.size() == 12);
        for (const auto& [policy, gov] : now)
            CHECK(gov == "performance");
    }
    auto after = sensors.governors();
    CHECK(after["policy0"] == "powersave");
    CHECK(after["policy3"] == "performance");
    CHECK(after["policy11"] == "powersave");
}

TEST_CASE("a governor that cannot be written is an error naming the file") {
    TempDir dir;
    SysfsSensors sensors(dir.path());
    fs::path file = dir.path() / "sys/devices/system/cpu/cpufreq/policy0/scaling_governor";
    CHECK_THROWS_WITH(
        sensors.set_governor("policy0", "performance"),
        "cannot set the governor: writing 'performance' to " + file.string() +
            " failed: No such file or directory (bootbench must run as root to set it)");
}

TEST_CASE("booted deployment: empty on a host not booted from ostree") {
    TempDir dir;
    auto d = booted_deployment(dir.path());
    CHECK(d.stateroot.empty());
    CHECK(d.checksum.empty());
    CHECK(d.serial == 0);
    CHECK(d.origin.empty());
}

TEST_CASE("booted deployment: an ostree host whose sysroot cannot be read is an error naming it") {
    TempDir dir;
    testing::write(dir.path() / "run/ostree-booted", "");
    try {
        booted_deployment(dir.path());
        FAIL("no exception");
    } catch (const Error& e) {
        std::string prefix = "Reading the booted deployment from " + dir.path().string() + ": ";
        CHECK(std::string(e.what()).rfind(prefix, 0) == 0);
        std::string what = e.what();
        CHECK(what.find("ostree/repo") !=
              std::string::npos); // libostree's words, which name the folder
        CHECK(what.find(" (run/ostree-booted exists there, so an ostree sysroot is expected)") ==
              what.size() - 67);
    }
}

TEST_CASE("sensor files with garbage are skipped, not errors") {
    TempDir dir;
    testing::write(dir.path() / "sys/class/hwmon/hwmon0/name", "k10temp\n");
    testing::write(dir.path() / "sys/class/hwmon/hwmon0/temp1_input", "not a number\n");
    testing::write(dir.path() / "sys/class/thermal/thermal_zone0/type", "acpitz\n");
    testing::write(dir.path() / "sys/class/thermal/thermal_zone0/temp", "45000\n");
    auto t = SysfsSensors(dir.path()).cpu_temperature();
    REQUIRE(t);
    CHECK(t->sensor == "thermal_zone0 acpitz");
    testing::write(dir.path() / "proc/sys/kernel/sched_bore", "on\n");
    CHECK(core::to_json(probe_environment(dir.path()))["sched_bore"] == "on");
}
