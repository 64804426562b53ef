#include "catch.hpp"
#include "fake_tree.hpp"
#include "sys/doctor_probe.hpp"

using namespace bootbench;
using namespace bootbench::sys;
using testing::TempDir;

TEST_CASE("doctor's facts of a laptop, read from a fake tree", "[doctor]") {
    TempDir dir;
    testing::build_laptop_tree(dir.path());
    testing::write(dir.path() / "proc/self/mounts",
                   "/dev/nvme0n1p3 /sysroot btrfs rw,relatime 0 0\n/dev/nvme0n1p3 /sysroot btrfs "
                   "ro,relatime 0 0\n");
    testing::write(dir.path() / "sys/fs/selinux/enforce", "1\n");
    testing::write(dir.path() / "sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors",
                   "performance powersave\n");
    testing::write(dir.path() / "run/units-installed", "uupd.timer\nfstrim.timer\n");
    std::filesystem::create_directories(dir.path() / "var");
    SandboxUnits units(dir.path());
    core::HostFacts f = probe_host(dir.path(), core::default_needs(), nullptr, units);
    CHECK_FALSE(f.ostree_booted);
    CHECK(f.sysroot_readonly == true); // the last mount of /sysroot counts
    CHECK(f.selinux_enforce == "1");
    CHECK(f.var_free.has_value());
    CHECK_FALSE(f.boot_free.has_value()); // no boot folder in the tree
    CHECK(f.temp_sensor == "hwmon k10temp Tctl at 48.4 C");
    CHECK(f.governors.size() == 12);
    CHECK(f.available_governors == std::vector<std::string>{"performance", "powersave"});
    CHECK(f.ac_online == true);
    CHECK(f.sched_ext_state == "disabled");
    CHECK(f.unit_files == std::vector<std::string>{"uupd.timer", "fstrim.timer"});
    std::vector<std::string> tools;
    for (const auto& t : f.tools)
        tools.push_back(t.program);
    CHECK(tools == std::vector<std::string>{"perf", "sysbench", "schbench", "stress-ng"});
}

TEST_CASE("doctor: /sysroot mounted read-write, or not mounted", "[doctor]") {
    TempDir dir;
    testing::write(dir.path() / "proc/self/mounts", "sysroot /sysroot ext4 rw,ro_not_an_option 0 0\n");
    CHECK(sysroot_readonly(dir.path()) == false);
    testing::write(dir.path() / "proc/self/mounts", "/dev/vda / ext4 ro 0 0\n");
    CHECK_FALSE(sysroot_readonly(dir.path()).has_value());
}

TEST_CASE("doctor: the host tools are the experiment's benches' and load's", "[doctor]") {
    core::Experiment e;
    e.benches.push_back({});
    e.benches.back().kind = core::BenchKind::sysbench_threads;
    e.benches.push_back({});
    e.benches.back().kind = core::BenchKind::command;
    auto tools = host_tools(&e);
    REQUIRE(tools.size() == 1);
    CHECK(tools[0].program == "sysbench");
    e.load.kind = core::Load::Kind::half;
    CHECK(host_tools(&e).back().program == "stress-ng");
}
