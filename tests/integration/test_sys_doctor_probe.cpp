#include "catch.hpp"
#include "fake_tree.hpp"
#include "core/host/doctor.hpp"
#include "sys/doctor_probe.hpp"
#include "sys/ostree/prepare_root.hpp"

#include <cerrno>
#include <cstring>
#include <sys/xattr.h>
#include "sys/probe/idle_suspend.hpp"

#include <filesystem>

using namespace bootbench;
using namespace bootbench::sys;
using testing::TempDir;
namespace fs = std::filesystem;

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

TEST_CASE("doctor's facts: the binary the installed unit runs and its SELinux label", "[doctor][selinux]") {
    TempDir dir;
    SandboxUnits units(dir.path());
    core::HostFacts before = probe_host(dir.path(), core::default_needs(), nullptr, units);
    CHECK(before.resume_exec.path == "/var/usrlocal/bin/bootbench-resume"); // the one start installs
    CHECK_FALSE(before.resume_exec.unit_installed);
    CHECK_FALSE(before.resume_exec.exists);
    testing::write(dir.path() / "etc/systemd/system/bootbench-resume.service",
                   "[Service]\nType=exec\nExecStart=/var/lib/bootbench/bin/bootbench resume\n");
    std::filesystem::path old = dir.path() / "var/lib/bootbench/bin/bootbench";
    testing::write(old, "binary");
    const std::string var_lib = "system_u:object_r:var_lib_t:s0";
    bool labelled = ::setxattr(old.c_str(), "security.selinux", var_lib.c_str(), var_lib.size() + 1, 0) == 0;
    core::HostFacts f = probe_host(dir.path(), core::default_needs(), nullptr, units);
    CHECK(f.resume_exec.path == "/var/lib/bootbench/bin/bootbench");
    CHECK(f.resume_exec.unit_installed);
    CHECK(f.resume_exec.exists);
    if (!labelled) {
        WARN("label part skipped: this process cannot set security.selinux (" << std::strerror(errno) << ")");
        return;
    }
    CHECK(f.resume_exec.label == var_lib);
}

TEST_CASE("doctor's facts: greenboot and its boot counter in grubenv", "[doctor][greenboot]") {
    TempDir dir;
    SandboxUnits units(dir.path());
    core::HostFacts none = probe_host(dir.path(), core::default_needs(), nullptr, units);
    CHECK_FALSE(none.greenboot);
    CHECK_FALSE(none.boot_counter.has_value());
    testing::write(dir.path() / "usr/lib/systemd/system/greenboot-grub2-set-counter.service", "[Unit]\n");
    testing::write(dir.path() / "boot/grub2/grubenv",
                   "# GRUB Environment Block\nsaved_entry=x\nboot_success=0\nboot_counter=3\n" +
                       std::string(900, '#'));
    core::HostFacts f = probe_host(dir.path(), core::default_needs(), nullptr, units);
    CHECK(f.greenboot);
    CHECK(f.boot_counter == "3");
}

TEST_CASE("prepare-root.conf as ostree reads it: usr/lib, then etc as a whole", "[doctor][transient-etc]") {
    TempDir dir;
    std::filesystem::path d = dir.path();
    CHECK_FALSE(prepare_root_etc(d).transient);
    CHECK(prepare_root_etc(d).file.empty());
    testing::write(d / "usr/lib/ostree/prepare-root.conf", "[composefs]\nenabled = yes\n[etc]\ntransient = true\n");
    PrepareRootEtc p = prepare_root_etc(d);
    CHECK(p.transient);
    CHECK(p.file == "/usr/lib/ostree/prepare-root.conf");
    CHECK(p.error.empty());
    // etc's file replaces usr/lib's: GLib empties the key file on every load.
    testing::write(d / "etc/ostree/prepare-root.conf", "[sysroot]\nreadonly = true\n");
    CHECK_FALSE(prepare_root_etc(d).transient);
    CHECK(prepare_root_etc(d).file == "/etc/ostree/prepare-root.conf");
    testing::write(d / "etc/ostree/prepare-root.conf", "[etc]\ntransient = True\n");
    p = prepare_root_etc(d);
    CHECK_FALSE(p.transient);
    CHECK(p.error.rfind("etc.transient: ", 0) == 0);
    CHECK(p.error.find("cannot be interpreted") != std::string::npos);
    testing::write(d / "etc/ostree/prepare-root.conf", "[etc]\ntransient = 1  \n");
    CHECK(prepare_root_etc(d).transient);
}

TEST_CASE("doctor: idle suspend read from a fake Fedora tree: drop-ins by name, masks, GDM's dconf", "[doctor]") {
    TempDir dir;
    fs::path r = dir.path();
    testing::write(r / "etc/systemd/logind.conf", "[Login]\n#IdleAction=ignore\n");
    testing::write(r / "usr/lib/systemd/logind.conf.d/50-vendor.conf", "[Login]\nIdleAction=suspend\n");
    testing::write(r / "usr/lib/systemd/logind.conf.d/60-masked.conf", "[Login]\nIdleAction=poweroff\n");
    fs::create_directories(r / "etc/systemd/logind.conf.d");
    fs::create_symlink("/dev/null", r / "etc/systemd/logind.conf.d/60-masked.conf"); // the admin masks it
    testing::write(r / "etc/systemd/logind.conf.d/40-early.conf", "[Login]\nIdleAction=ignore\n"); // sorts first
    testing::write(r / "usr/lib/systemd/system/gdm.service", "[Unit]\n");
    testing::write(r / "usr/share/glib-2.0/schemas/org.gnome.settings-daemon.plugins.power.gschema.xml",
                   "<key name=\"sleep-inactive-ac-type\"><default>'suspend'</default></key>"
                   "<key name=\"sleep-inactive-ac-timeout\"><default>900</default></key>");
    testing::write(r / "etc/dconf/db/gdm.d/locks/power", "/org/gnome/settings-daemon/plugins/power/x\n");
    testing::write(r / "etc/dconf/db/gdm.d/10-timeout",
                   "[org/gnome/settings-daemon/plugins/power]\nsleep-inactive-ac-timeout=1800\n");
    core::IdleSuspendFacts f = probe_idle_suspend(r);
    std::vector<std::string> logind;
    for (const auto& c : f.logind)
        logind.push_back(c.path);
    CHECK(logind == std::vector<std::string>{(r / "etc/systemd/logind.conf").string(),
                                             (r / "etc/systemd/logind.conf.d/40-early.conf").string(),
                                             (r / "usr/lib/systemd/logind.conf.d/50-vendor.conf").string()});
    CHECK(f.gdm);
    REQUIRE(f.gdm_dconf.size() == 1); // the locks folder is no keyfile
    core::DoctorCheck c = core::check_idle_suspend(f);
    CHECK(c.message == "the machine suspends when idle: logind IdleAction=suspend (" +
                           (r / "usr/lib/systemd/logind.conf.d/50-vendor.conf").string() +
                           ") after IdleActionSec=30min (systemd's default); the GDM login screen does 'suspend' "
                           "after 1800 s idle on AC (org.gnome.settings-daemon.plugins.power sleep-inactive-ac-type "
                           "from the schema's default, sleep-inactive-ac-timeout from " +
                           (r / "etc/dconf/db/gdm.d/10-timeout").string() +
                           "; the gdm user's own dconf database is not read). bootbench blocks sleep and idle while "
                           "a boot's work runs, not before its unit starts nor after a failure");
}
