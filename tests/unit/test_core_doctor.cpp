#include "catch.hpp"

#include "core/host/doctor.hpp"
#include "core/host/exec_label.hpp"
#include "core/experiment/experiment.hpp"
#include "experiment_text.hpp"

#include <nlohmann/json.hpp>

using namespace bootbench;
using namespace bootbench::core;

namespace {

// The shared file (experiment_text.hpp) with 4 runs and a second bench,
// schbench: 4 runs x 2 targets x 2 benches of logs, and b's kargs on /boot.
const std::string kBase = bootbench::test::replace(
    bootbench::test::with_bench("kind = \"perf-sched-pipe\"\n[[bench]]\nkind = \"schbench\""),
    "runs = 2", "runs = 4");

constexpr std::uint64_t kGiB = 1ull << 30;

// A host that passes every check.
HostFacts good() {
    HostFacts f;
    f.ostree_booted = true;
    f.stateroot = "fedora";
    f.booted = "fedora 1a2b3c4d5e6f.0 (ostree-image-signed:docker://ghcr.io/x/y:stable)";
    f.sysroot_readonly = true;
    f.selinux_enforce = "1";
    f.var_free = 50 * kGiB;
    f.boot_free = kGiB;
    f.tools = {{"perf", true, false, "install perf"}};
    f.temp_sensor = "hwmon k10temp Tctl at 41.0 C";
    f.governors = {{"policy0", "performance"}};
    f.available_governors = {"performance", "powersave"};
    f.ac_online = true;
    f.sched_ext_state = "disabled";
    f.unit_files = {"uupd.timer"};
    f.resume_exec.path = "/var/usrlocal/bin/bootbench-resume";
    return f;
}

const DoctorCheck& find(const std::vector<DoctorCheck>& checks, const std::string& name) {
    for (const auto& c : checks)
        if (c.name == name)
            return c;
    FAIL("no check named " << name);
    return checks.front();
}

DoctorCheck one(const HostFacts& f, const std::string& name,
                const DoctorNeeds& n = default_needs()) {
    return find(doctor_checks(f, n), name);
}

DoctorNeeds wanting(const std::string& key, const std::string& value) {
    return needs_of(parse_experiment(
        kBase + "[conditions]\n" + key + " = \"" + value + "\"\n", "d.toml"));
}

} // namespace

TEST_CASE("doctor: a good host is ok on every line, in a fixed order", "[doctor]") {
    auto checks = doctor_checks(good(), default_needs());
    std::vector<std::string> names;
    for (const auto& c : checks) {
        names.push_back(c.name);
        CHECK(c.status == CheckStatus::ok);
        CHECK(c.fix.empty());
    }
    CHECK(names == std::vector<std::string>{"ostree", "staged", "sysroot", "selinux", "exec-label",
                                            "free-space-var", "free-space-boot", "tool-perf",
                                            "temperature", "governor", "ac-power", "sched_ext",
                                            "update-timers", "idle-suspend"});
    CHECK_FALSE(any_fail(checks));
    CHECK(checks[0].message ==
          "booted fedora 1a2b3c4d5e6f.0 (ostree-image-signed:docker://ghcr.io/x/y:stable), "
          "stateroot fedora (every target must be in it)");
}

TEST_CASE("doctor: not booted from ostree is a fail with the fix, and no ostree-only lines",
          "[doctor]") {
    HostFacts f = good();
    f.ostree_booted = false;
    auto checks = doctor_checks(f, default_needs());
    CHECK(any_fail(checks));
    CHECK(doctor_text({checks[0]}) ==
          "fail  ostree          not booted from an ostree deployment (no /run/ostree-booted)\n"
          "                      fix: run bootbench on the Fedora Atomic, Universal Blue or bootc "
          "machine it "
          "measures; 'bootbench simulate FILE' rehearses an experiment here\n");
    CHECK(checks[1].name == "selinux");
    f.ostree_booted = true;
    f.ostree_error = "opendir(ostree/repo): No such file";
    CHECK(one(f, "ostree").status == CheckStatus::fail);
    CHECK(one(f, "ostree").message ==
          "cannot read the booted deployment: opendir(ostree/repo): No such file");
}

TEST_CASE("doctor: a staged update fails, unless start drops it", "[doctor]") {
    HostFacts f = good();
    f.staged = true;
    CHECK(one(f, "staged").status == CheckStatus::fail);
    CHECK(one(f, "staged").fix == "reboot into it first, or start with --drop-staged");
    DoctorNeeds n = default_needs();
    n.drop_staged = true;
    CHECK(one(f, "staged", n).status == CheckStatus::warn);
}

TEST_CASE("doctor: /sysroot read-write or unmounted and SELinux permissive warn", "[doctor]") {
    HostFacts f = good();
    f.sysroot_readonly = false;
    CHECK(one(f, "sysroot").status == CheckStatus::warn);
    f.sysroot_readonly.reset();
    CHECK(one(f, "sysroot").message == "/sysroot is not a mount point");
    f.selinux_enforce = "0";
    CHECK(one(f, "selinux").status == CheckStatus::warn);
    CHECK(one(f, "selinux").fix == "sudo setenforce 1 (and enforcing in /etc/selinux/config)");
    f.selinux_enforce.reset();
    CHECK(one(f, "selinux").status == CheckStatus::ok);
    CHECK(one(f, "selinux").message == "disabled (no /sys/fs/selinux)");
}

TEST_CASE("doctor: /etc/selinux/config read as libostree reads it", "[doctor][selinux]") {
    SelinuxConfig c = parse_selinux_config("# comment\nSELINUX=permissive\nSELINUXTYPE= default \n");
    CHECK(c.on);
    CHECK(c.mode == "permissive");
    CHECK(c.type == "default");
    CHECK(parse_selinux_config("SELINUX=Enforcing\n").on);
    CHECK_FALSE(parse_selinux_config("SELINUX=disabled\nSELINUXTYPE=default\n").on);
    CHECK_FALSE(parse_selinux_config("# SELINUX=permissive\n").on);
}

TEST_CASE("doctor: a config that turns on a policy that is not installed fails, with the fix", "[doctor][selinux]") {
    HostFacts f = good();
    f.selinux_enforce.reset(); // Debian: the kernel runs no SELinux, policycoreutils wrote the config
    f.selinux_config = parse_selinux_config("SELINUX=permissive\nSELINUXTYPE=default\n");
    DoctorCheck c = one(f, "selinux");
    CHECK(c.status == CheckStatus::fail);
    CHECK(c.message == "/etc/selinux/config says SELINUX=permissive and SELINUXTYPE=default, but "
                       "/etc/selinux/default is not there: libostree labels what it writes with that policy, so "
                       "every pin and deployment fails (selabel_open: No such file or directory)");
    CHECK(c.fix == "install that policy (Debian: sudo apt-get install selinux-policy-default), or set "
                   "SELINUX=disabled in /etc/selinux/config");
    f.selinux_config = parse_selinux_config("SELINUX=enforcing\n");
    CHECK(one(f, "selinux").message.find("but it names no policy (no SELINUXTYPE=)") != std::string::npos);
    f.selinux_config->policy_present = true; // the policy is installed: the usual verdict
    f.selinux_enforce = "1";
    CHECK(one(f, "selinux").status == CheckStatus::ok);
    f.selinux_config = parse_selinux_config("SELINUX=disabled\nSELINUXTYPE=default\n");
    CHECK(one(f, "selinux").status == CheckStatus::ok);
}

TEST_CASE("doctor: free space against the stated default and the experiment's needs", "[doctor]") {
    HostFacts f = good();
    f.var_free = (1ull << 30) - 1;
    CHECK(one(f, "free-space-var").status == CheckStatus::fail);
    CHECK(one(f, "free-space-var").message ==
          "/var: 1023 MiB free, needs 1.0 GiB by default; give EXPERIMENT.toml for its own");
    f.var_free = 1ull << 30;
    CHECK(one(f, "free-space-var").status == CheckStatus::ok);
    // 4 runs x 2 targets x 2 benches x 16 MiB + 512 MiB; /boot: 64 MiB + 256 MiB for b's kargs
    DoctorNeeds n = needs_of(parse_experiment(kBase, "d.toml"));
    CHECK(n.var_bytes == (512 + 256) * (1ull << 20));
    CHECK(n.boot_bytes == 320 * (1ull << 20));
    // every iteration keeps its logs: perf-sched-pipe 5 times, schbench once
    std::string repeated = kBase;
    repeated.replace(repeated.find("kind = \"perf-sched-pipe\"\n"), 24, "kind = \"perf-sched-pipe\"\nrepeat = 5\n");
    DoctorNeeds r = needs_of(parse_experiment(repeated, "d.toml"));
    CHECK(r.var_bytes == (512 + 4 * 2 * (5 + 1) * 16) * (1ull << 20)); // 1.25 GiB
    f.var_free = (1ull << 30) + 1;
    CHECK(one(f, "free-space-var", r).status == CheckStatus::fail);
    CHECK(one(f, "free-space-var", r).message == "/var: 1.0 GiB free, needs 1.2 GiB for this experiment");
    f.boot_free = 319 * (1ull << 20);
    CHECK(one(f, "free-space-boot", n).status == CheckStatus::fail);
    CHECK(one(f, "free-space-boot", n).message ==
          "/boot: 319 MiB free, needs 320 MiB for this experiment");
    f.boot_free.reset();
    CHECK(one(f, "free-space-boot", n).status == CheckStatus::warn);
}

TEST_CASE("doctor: a missing host tool fails when a bench needs it, warns otherwise", "[doctor]") {
    HostFacts f = good();
    f.tools = {{"perf", false, false, "install perf"}, {"schbench", false, true, "build schbench"}};
    DoctorNeeds n = needs_of(parse_experiment(kBase, "d.toml"));
    CHECK(one(f, "tool-perf", n).status == CheckStatus::fail);
    CHECK(one(f, "tool-perf", n).message == "perf not found (a bench needs it)");
    CHECK(one(f, "tool-perf", n).fix == "install perf; on Fedora Atomic set [tools] image instead "
                                        "(layering makes a new deployment)");
    CHECK(one(f, "tool-schbench", n).status == CheckStatus::warn);
    CHECK(one(f, "tool-perf").status == CheckStatus::warn); // no experiment: it may not be needed
}

TEST_CASE("doctor: a tools image needs podman; an image not pulled yet is pulled by start",
          "[doctor]") {
    HostFacts f = good();
    DoctorNeeds n = needs_of(
        parse_experiment(kBase + "[tools]\nimage = \"localhost/t:1\"\n", "d.toml"));
    CHECK(one(f, "tools-image", n).status == CheckStatus::fail);
    CHECK(one(f, "tools-image", n).message ==
          "podman not found; [tools] image localhost/t:1 needs it");
    f.podman = true;
    f.tools_store = {true, "", "/var/lib/containers/storage"};
    CHECK(one(f, "tools-image", n).status == CheckStatus::ok);
    CHECK(one(f, "tools-image", n).message ==
          "localhost/t:1 is in root's store (/var/lib/containers/storage), the store start uses");
    f.tools_image_error = "the tools image localhost/t:1 is not in root's store";
    CHECK(one(f, "tools-image", n).status == CheckStatus::warn);
    CHECK(one(f, "tools-image", n).message == "the tools image localhost/t:1 is not in root's store");
    CHECK(one(f, "tools-image", n).fix ==
          "sudo podman pull localhost/t:1 (or sudo podman build -t localhost/t:1 containers/bench-tools)");
    for (const auto& c : doctor_checks(f, n))
        CHECK(c.name.rfind("tool-", 0) != 0); // no host tool lines with an image
}

TEST_CASE("doctor: a tools image only in a user's rootless store is one sudo start does not see", "[doctor]") {
    HostFacts f = good();
    DoctorNeeds n = needs_of(
        parse_experiment(kBase + "[tools]\nimage = \"localhost/t:1\"\n", "d.toml"));
    f.podman = true;
    f.tools_store = {false, "alice", "/home/alice/.local/share/containers/storage"};
    DoctorCheck c = one(f, "tools-image", n);
    CHECK(c.status == CheckStatus::warn);
    CHECK(c.message == "localhost/t:1 is in the rootless store of user alice "
                       "(/home/alice/.local/share/containers/storage); sudo start looks in root's store, not in "
                       "this one");
    CHECK(c.fix == "put it in root's store: 'sudo podman build -t localhost/t:1 containers/bench-tools' or "
                   "'podman save localhost/t:1 | sudo podman load'");
}

TEST_CASE("doctor: a target deployment this binary cannot load in fails, naming it", "[doctor]") {
    HostFacts f = good();
    for (const auto& c : doctor_checks(f, default_needs()))
        CHECK(c.name != "binary-loads"); // not checked: no line
    f.binary_refusals = std::vector<std::string>{};
    CHECK(one(f, "binary-loads").status == CheckStatus::ok);
    CHECK(one(f, "binary-loads").message ==
          "bootbench loads in every target's deployment, with that deployment's own loader");
    f.binary_refusals = std::vector<std::string>{"target 'gts': X", "target 'lts': Y"};
    DoctorCheck c = one(f, "binary-loads");
    CHECK(c.status == CheckStatus::fail);
    CHECK(c.message == "target 'gts': X; target 'lts': Y");
    CHECK(c.fix == "build bootbench on the oldest target's release (./bootstrap in a toolbox of it)");
}

TEST_CASE("doctor: no temperature sensor warns", "[doctor]") {
    HostFacts f = good();
    f.temp_sensor.reset();
    CHECK(one(f, "temperature").status == CheckStatus::warn);
    CHECK(one(f, "temperature").fix ==
          "load the sensor's driver (modprobe k10temp, or coretemp on Intel)");
}

TEST_CASE("doctor: governor control", "[doctor]") {
    HostFacts f = good();
    f.governors = {{"policy0", "powersave"}};
    CHECK(one(f, "governor").status == CheckStatus::ok); // no governor asked
    DoctorNeeds n = wanting("governor", "performance");
    CHECK(one(f, "governor", n).status == CheckStatus::warn);
    CHECK(one(f, "governor", n).fix == "set it before the run (cpupower frequency-set -g "
                                       "performance) or set [conditions] set_governor = true");
    f.available_governors = {"powersave", "schedutil"};
    CHECK(one(f, "governor", n).status == CheckStatus::fail);
    CHECK(one(f, "governor", n).message ==
          "performance is not an available governor (powersave, schedutil)");
    f.governors.clear();
    CHECK(one(f, "governor", n).status == CheckStatus::warn);
}

TEST_CASE("doctor: on battery fails, no mains supply (desktop, VM) is ok", "[doctor]") {
    HostFacts f = good();
    f.ac_online = false;
    CHECK(one(f, "ac-power").status == CheckStatus::fail);
    CHECK(one(f, "ac-power").fix == "plug in the charger");
    f.ac_online.reset();
    CHECK(one(f, "ac-power").status == CheckStatus::ok);
}

TEST_CASE("doctor: sched_ext is informative unless the experiment asks", "[doctor]") {
    HostFacts f = good();
    f.sched_ext_state = "enabled";
    f.sched_ext_ops = "scx_lavd";
    CHECK(one(f, "sched_ext").status == CheckStatus::ok);
    CHECK(one(f, "sched_ext").message == "enabled (scx_lavd) (the experiment does not ask)");
    DoctorNeeds n = wanting("sched_ext", "disabled");
    CHECK(one(f, "sched_ext", n).status == CheckStatus::warn);
    CHECK(one(f, "sched_ext", n).fix == "a sched_ext scheduler is running: stop it (e.g. systemctl "
                                        "stop scx_loader) or set [conditions] "
                                        "sched_ext = \"enabled\"");
    f.sched_ext_state.reset();
    CHECK(one(f, "sched_ext", n).status == CheckStatus::ok);
}

TEST_CASE("doctor: update timers the experiment leaves running warn", "[doctor]") {
    HostFacts f = good();
    f.unit_files = {"uupd.timer", "rpm-ostreed-automatic.timer"};
    CHECK(one(f, "update-timers").message ==
          "uupd.timer, rpm-ostreed-automatic.timer stopped at each boot (stop_units)");
    DoctorNeeds n = wanting("governor", "");
    n.conditions.stop_units = std::vector<std::string>{"uupd.timer"};
    CHECK(one(f, "update-timers", n).status == CheckStatus::warn);
    CHECK(one(f, "update-timers", n).message ==
          "rpm-ostreed-automatic.timer can stage an update during the experiment (not in "
          "[conditions] stop_units)");
    f.units_error = "cannot run systemctl";
    CHECK(one(f, "update-timers", n).status == CheckStatus::warn);
}

TEST_CASE("doctor --json: stable keys, ok false on a fail", "[doctor]") {
    HostFacts f = good();
    f.ac_online = false;
    auto j = nlohmann::json::parse(doctor_json(doctor_checks(f, default_needs())));
    CHECK(j["ok"] == false);
    REQUIRE(j["checks"].size() == 14);
    CHECK(j["checks"][13]["check"] == "idle-suspend");
    CHECK(j["checks"][10] ==
          nlohmann::json{{"check", "ac-power"},
                         {"status", "fail"},
                         {"message", "on battery: it runs out before the night does, and "
                                     "battery power limits change the numbers"},
                         {"fix", "plug in the charger"}});
    CHECK(doctor_problems_text(doctor_checks(good(), default_needs())).empty());
}

// An experiment started by a version that ran its copy from /var/lib: the
// unit in this system's /etc runs a var_lib_t file, which init_t may not run.
HostFacts running_old_unit(std::optional<std::string> label) {
    HostFacts f = good();
    f.resume_exec = {"/var/lib/bootbench/bin/bootbench", true, true, std::move(label)};
    return f;
}

TEST_CASE("doctor: under enforcing, the binary the installed unit runs must be bin_t", "[doctor][selinux]") {
    auto checks = doctor_checks(running_old_unit("system_u:object_r:var_lib_t:s0"), default_needs());
    CHECK(any_fail(checks));
    CHECK(doctor_text({find(checks, "exec-label")}) ==
          "fail  exec-label      /var/lib/bootbench/bin/bootbench is labelled system_u:object_r:var_lib_t:s0: "
          "SELinux lets systemd (init_t) execute bin_t files only, so the unit fails with 203/EXEC (the "
          "installed bootbench-resume.service runs it)\n"
          "                      fix: sudo chcon -t bin_t /var/lib/bootbench/bin/bootbench for the experiment "
          "running now; a start by this version runs its copy from /var/usrlocal/bin, which is bin_t\n");
    CHECK(one(running_old_unit(std::nullopt), "exec-label").message ==
          "/var/lib/bootbench/bin/bootbench has no SELinux label: SELinux lets systemd (init_t) execute bin_t "
          "files only, so the unit fails with 203/EXEC (the installed bootbench-resume.service runs it)");
    DoctorCheck ok = one(running_old_unit("system_u:object_r:bin_t:s0"), "exec-label");
    CHECK(ok.status == CheckStatus::ok);
    CHECK(ok.message == "/var/lib/bootbench/bin/bootbench is system_u:object_r:bin_t:s0: systemd may run it");
}

TEST_CASE("doctor: a unit whose binary is gone fails; before start, the copy start labels is ok",
          "[doctor][selinux]") {
    HostFacts f = running_old_unit(std::nullopt);
    f.resume_exec.exists = false;
    DoctorCheck gone = one(f, "exec-label");
    CHECK(gone.status == CheckStatus::fail);
    CHECK(gone.message == "the installed bootbench-resume.service runs /var/lib/bootbench/bin/bootbench, "
                          "which does not exist: the unit fails with 203/EXEC");
    CHECK(gone.fix == "sudo bootbench abort, then start the experiment again");
    DoctorCheck before = one(good(), "exec-label");
    CHECK(before.status == CheckStatus::ok);
    CHECK(before.message == "start copies bootbench to /var/usrlocal/bin/bootbench-resume, labels it bin_t "
                            "and reads the label back");
}

TEST_CASE("doctor: without enforcing nothing refuses the unit's binary: no exec-label line", "[doctor][selinux]") {
    for (std::optional<std::string> enforce : {std::optional<std::string>("0"), std::optional<std::string>()}) {
        HostFacts f = running_old_unit("system_u:object_r:var_lib_t:s0");
        f.selinux_enforce = enforce;
        for (const auto& c : doctor_checks(f, default_needs()))
            CHECK(c.name != "exec-label");
    }
}

TEST_CASE("the type of an SELinux context, and which one systemd may execute", "[doctor][selinux]") {
    CHECK(selinux_type("system_u:object_r:bin_t:s0") == "bin_t");
    CHECK(selinux_type("system_u:object_r:bin_t:s0:c0.c1023") == "bin_t");
    CHECK(selinux_type("u:r:bin_t") == "bin_t");
    CHECK(selinux_type("bin_t") == "");
    CHECK(selinux_type("") == "");
    CHECK(exec_label_problem("/x", std::string("unconfined_u:object_r:bin_t:s0")).empty());
    CHECK(exec_label_problem("/x", std::string("system_u:object_r:usr_t:s0")) ==
          "/x is labelled system_u:object_r:usr_t:s0: SELinux lets systemd (init_t) execute bin_t files only, "
          "so the unit fails with 203/EXEC");
}

TEST_CASE("doctor: a target whose /etc is transient fails, naming it and the file", "[doctor][transient-etc]") {
    DoctorNeeds n = needs_of(parse_experiment(kBase, "d.toml"));
    HostFacts f = good();
    CHECK(one(f, "transient-etc", n).message ==
          "every target keeps its /etc (no etc.transient in ostree/prepare-root.conf)");
    f.transient_etc = {{"b", "/usr/lib/ostree/prepare-root.conf", ""},
                       {"c", "/etc/ostree/prepare-root.conf", "etc.transient: Key file contains key "
                                                              "\"transient\" which has a value that cannot be "
                                                              "interpreted."}};
    auto checks = doctor_checks(f, n);
    CHECK(any_fail(checks));
    CHECK(doctor_text({find(checks, "transient-etc")}) ==
          "fail  transient-etc   target 'b': /usr/lib/ostree/prepare-root.conf sets [etc] transient = true, so "
          "its /etc at boot is a fresh overlay of usr/etc: the unit bootbench writes into that deployment's "
          "/etc is never seen; target 'c': /etc/ostree/prepare-root.conf cannot be parsed (etc.transient: Key "
          "file contains key \"transient\" which has a value that cannot be interpreted.), nor can "
          "ostree-prepare-root parse it at boot\n"
          "                      fix: measure images whose /etc persists (no [etc] transient in "
          "ostree/prepare-root.conf): bootbench needs its unit in every target's /etc\n");
    for (const auto& c : doctor_checks(f, default_needs())) // no experiment: no targets to look at
        CHECK(c.name != "transient-etc");
}

TEST_CASE("doctor: greenboot's armed boot counter warns; without greenboot no line", "[doctor][greenboot]") {
    HostFacts f = good();
    f.boot_counter = "2";
    for (const auto& c : doctor_checks(f, default_needs()))
        CHECK(c.name != "greenboot");
    f.greenboot = true;
    DoctorCheck c = one(f, "greenboot");
    CHECK(c.status == CheckStatus::warn);
    CHECK(c.message == "greenboot's boot counter is armed (boot_counter=2 in /boot/grub2/grubenv, set when a "
                       "deployment was staged): if its health check fails on the coming boots, GRUB boots the "
                       "second entry instead of the run's deployment and greenboot rolls the default back "
                       "under the experiment");
    CHECK(c.fix == "reboot once and check that greenboot clears it ('sudo grub2-editenv list' shows no "
                   "boot_counter), or unset it: sudo grub2-editenv - unset boot_counter");
    f.boot_counter.reset();
    CHECK(one(f, "greenboot").status == CheckStatus::ok);
    CHECK(one(f, "greenboot").message == "no boot counter armed in /boot/grub2/grubenv");
}
