// The sandbox sysroot and its emulated bootloader, with real libostree.
#include "../unit/catch.hpp"
#include "core/deployment/resolve.hpp"
#include "fake_logind.hpp"
#include "sandbox_fixture.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/unit_install.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <unistd.h>

using namespace bootbench;
using namespace bootbench::test;

TEST_CASE("a sandbox has a deployment per target and the host's own as default", "[sandbox]") {
    Sandbox sb(fast_experiment(1));
    sys::SandboxHost h = sb.host();
    sys::Sysroot& sr = h.sysroot();
    auto ds = sr.deployments();
    REQUIRE(ds.size() == 3);
    CHECK(ds[0].ref == sb.layout.host_default);
    CHECK(sb.booted_name() == "host");
    // Origins say what the selectors say, so the real resolution rules apply.
    for (const auto& t : sb.experiment.targets) {
        auto r = core::resolve_target(t, ds);
        REQUIRE(r.deployment);
        CHECK(r.deployment->ref == sb.layout.targets.at(t.name));
    }
    CHECK(ds[0].version == "sandbox-host");
    CHECK(fs::exists(sb.layout.sysroot / "boot/loader/entries"));
}

TEST_CASE("making a deployment the default changes the bootloader's choice", "[sandbox]") {
    Sandbox sb(fast_experiment(1));
    sys::SandboxHost h = sb.host();
    h.sysroot().set_default(sb.layout.targets.at("b"));
    CHECK(sb.booted_name() == "b");
    h.sysroot().set_default(sb.layout.targets.at("a"));
    CHECK(sb.booted_name() == "a");
    auto ds = h.sysroot().deployments();
    CHECK(ds.size() == 3); // nothing was dropped
}

TEST_CASE("pinning and kernel-argument deployments", "[sandbox]") {
    Sandbox sb(fast_experiment(1));
    sys::SandboxHost h = sb.host();
    sys::Sysroot& sr = h.sysroot();
    const auto a = sb.layout.targets.at("a");
    sr.set_pinned(a, true);
    bool pinned = false;
    for (const auto& d : sr.deployments())
        pinned = pinned || (d.ref == a && d.pinned);
    CHECK(pinned);
    auto k = sr.deploy_with_kargs(a, {"mitigations=off"}, "a");
    CHECK(k.checksum == a.checksum);
    CHECK(k.serial != a.serial);
    auto ds = sr.deployments();
    REQUIRE(ds.size() == 4);
    CHECK(ds.back().kargs_for == "a");
    sr.set_default(k);
    std::string entries;
    for (const auto& f : fs::directory_iterator(sb.layout.sysroot / "boot/loader/entries"))
        entries += sys::read_text_file(f.path());
    CHECK(entries.find("mitigations=off") != std::string::npos);
    sr.set_default(sb.layout.host_default);
    sr.undeploy(k);
    CHECK(sr.deployments().size() == 3);
}

TEST_CASE("the unit is installed with its wants link and removed", "[sandbox]") {
    Sandbox sb(fast_experiment(1));
    fs::path etc = sb.host().etc_dir(sb.layout.targets.at("a"));
    sys::install_unit(etc, 900);
    CHECK(sys::unit_installed(etc));
    std::string unit = sys::read_text_file(etc / "systemd/system/bootbench-resume.service");
    // Type=exec: the boot finishes before the suite; the limit is on the whole run.
    CHECK(unit.find("\nType=exec\n") != std::string::npos);
    CHECK(unit.find("\nRuntimeMaxSec=900\n") != std::string::npos);
    CHECK(unit.find("\nType=oneshot") == std::string::npos);
    CHECK(unit.find("\nTimeoutStartSec=") == std::string::npos);
    CHECK(unit.find("\nRestart=no\n") != std::string::npos);
    CHECK(unit.find("\nRemainAfterExit=") == std::string::npos);
    CHECK(unit.find("\nStandardOutput=journal+console\n") != std::string::npos);
    CHECK(fs::read_symlink(etc / "systemd/system/multi-user.target.wants/bootbench-resume.service") ==
          "../bootbench-resume.service");
    sys::remove_unit(etc);
    CHECK_FALSE(sys::unit_installed(etc));
    CHECK_FALSE(fs::exists(etc / "systemd/system/bootbench-resume.service"));
}

TEST_CASE("the unit keeps NoNewPrivileges and ProtectHostname unless the benches run in a tools container",
          "[sandbox][tools]") {
    std::string host_tools = sys::resume_unit_text(900);
    std::string container = sys::resume_unit_text(900, true);
    CHECK(host_tools.find("\nNoNewPrivileges=yes\n") != std::string::npos);
    CHECK(host_tools.find("\nProtectHostname=yes\n") != std::string::npos);
    CHECK(container.find("NoNewPrivileges=yes") == std::string::npos);
    CHECK(container.find("ProtectHostname=yes") == std::string::npos);
    // nothing else changes
    const std::string nnp = "# NoNewPrivileges is off: [tools] image runs the benches with podman, whose\n"
                            "# SELinux label transition it would block.\n";
    const std::string host = "# ProtectHostname is off: [tools] image runs the benches with podman, whose\n"
                             "# runtime sets each container's hostname (seen: crun: sethostname: EPERM).\n";
    std::string back = container;
    REQUIRE(back.find(nnp) != std::string::npos);
    back.replace(back.find(nnp), nnp.size(), "NoNewPrivileges=yes\n");
    REQUIRE(back.find(host) != std::string::npos);
    back.replace(back.find(host), host.size(), "ProtectHostname=yes\n");
    CHECK(back == host_tools);
}

namespace {

// The ostree/boot.B.S folders: every boot version libostree left on disk.
std::vector<std::string> boot_versions(const fs::path& sysroot) {
    std::vector<std::string> out;
    for (const auto& f : fs::directory_iterator(sysroot / "ostree"))
        if (f.path().filename().string().rfind("boot.", 0) == 0 && !f.is_symlink())
            out.push_back(f.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("a reorder skips the repository cleanup; cleanup() at the end removes what reorders left",
          "[sandbox]") {
    Sandbox sb(fast_experiment(1));
    sys::SandboxHost h = sb.host();
    sys::Sysroot& sr = h.sysroot();
    sr.set_default(sb.layout.targets.at("b"));
    sr.set_default(sb.layout.targets.at("a"));
    CHECK(boot_versions(sb.layout.sysroot).size() > 1); // no postclean ran
    sr.cleanup();
    CHECK(boot_versions(sb.layout.sysroot).size() == 1);
    CHECK(sb.booted_name() == "a");
}

TEST_CASE("each boot also stops what the timers trigger; one already running marks the run and the report",
          "[sandbox][quiet]") {
    Sandbox sb(fast_experiment(1));
    fs::path run = sb.layout.sysroot / "run";
    sys::make_dirs(run);
    sys::write_file_atomic(sys::SandboxUnits::installed_file(sb.layout.sysroot), "fstrim.timer\nuupd.timer\n");
    sys::write_file_atomic(run / "units-triggers", "uupd.timer uupd.service\nfstrim.timer fstrim.service\n");
    sys::write_file_atomic(run / "units-running", "uupd.service\n"); // a Persistent timer fired at boot
    sb.start();
    sb.boot_until_done();
    REQUIRE(sb.state().phase == core::Phase::finished);
    CHECK(sys::read_text_file(sys::SandboxUnits::stopped_file(sb.layout.sysroot)) ==
          "uupd.timer fstrim.timer uupd.service fstrim.service\n"
          "uupd.timer fstrim.timer uupd.service fstrim.service\n");
    for (const auto& [id, text] : sb.result_files()) {
        INFO(id);
        auto r = nlohmann::json::parse(text);
        CHECK(r["conditions"][0]["decision"] == "run-flagged");
        CHECK(r["conditions"][0]["found"].get<std::string>().find(
                  "; they start: uupd.service, fstrim.service; running: uupd.service") != std::string::npos);
        CHECK(r["canaries"]["updates_running"] == nlohmann::json::array({"uupd.service"}));
    }
    std::string report = sys::read_text_file(sb.results() / "report.md");
    CHECK(report.find("uupd.service was running at this boot (started by a stopped timer; stopped before the "
                      "settle time)") != std::string::npos);
}

TEST_CASE("after a whole experiment the sysroot holds one boot version", "[sandbox]") {
    Sandbox sb(fast_experiment(2));
    sb.start();
    sb.boot_until_done();
    CHECK(sb.state().phase == core::Phase::finished);
    CHECK(boot_versions(sb.layout.sysroot).size() == 1);
}

TEST_CASE("each boot stops the host's update and trim timers it has, and the result says so",
          "[sandbox][quiet]") {
    Sandbox sb(fast_experiment(1));
    sys::make_dirs(sb.layout.sysroot / "run");
    sys::write_file_atomic(sys::SandboxUnits::installed_file(sb.layout.sysroot), "fstrim.timer\nuupd.timer\n");
    sb.start();
    sb.boot_until_done();
    REQUIRE(sb.state().phase == core::Phase::finished);
    CHECK(sys::read_text_file(sys::SandboxUnits::stopped_file(sb.layout.sysroot)) ==
          "uupd.timer fstrim.timer\nuupd.timer fstrim.timer\n"); // once per measured boot
    for (const auto& [run, text] : sb.result_files()) {
        INFO(run);
        auto conditions = nlohmann::json::parse(text)["conditions"];
        REQUIRE(conditions.size() > 0);
        CHECK(conditions[0]["check"] == "quiet"); // first: the settle time is quiet too
        CHECK(conditions[0]["found"].get<std::string>().rfind("present: uupd.timer, fstrim.timer; absent: ", 0) == 0);
        CHECK(conditions[0]["decision"] == "run");
    }
}

namespace {

// Another process holding the sysroot lock (hold-sysroot-lock, with libostree)
// until release() or the end of the scope.
class LockHolder {
public:
    explicit LockHolder(const fs::path& sysroot) : ready_(sysroot / "run/lock-held") {
        sys::make_dirs(ready_.parent_path());
        std::string command = std::string(HOLD_LOCK_BIN) + " " + sysroot.string() + " " + ready_.string();
        pipe_ = ::popen(command.c_str(), "w");
        for (int i = 0; i < 2000 && !fs::exists(ready_); ++i)
            ::usleep(10000);
        REQUIRE(fs::exists(ready_));
    }
    ~LockHolder() { release(); }
    void release() {
        if (pipe_)
            ::pclose(pipe_); // its stdin closes: it unlocks and exits
        pipe_ = nullptr;
    }

private:
    fs::path ready_;
    FILE* pipe_ = nullptr;
};

// Time passes only in sleep_s; `on_sleep` runs at each sleep.
class LockClock final : public sys::Clock {
public:
    double now = 0;
    int sleeps = 0;
    std::function<void(int)> on_sleep = [](int) {};
    double monotonic_s() override { return now; }
    double since_boot_s() override { return now; }
    std::string now_iso8601() override { return "2026-12-05T10:00:00+00:00"; }
    void sleep_s(double s) override {
        now += s;
        on_sleep(++sleeps);
    }
};

} // namespace

TEST_CASE("sysroot lock held by an update: a bounded wait, then a clear failure that changes nothing",
          "[sandbox][lock]") {
    Sandbox sb(fast_experiment(1));
    sys::SandboxHost h = sb.host();
    LockHolder update(sb.layout.sysroot);
    LockClock clock;
    h.sysroot().set_lock_wait({&clock, 30});
    try {
        h.sysroot().set_default(sb.layout.targets.at("b"));
        FAIL("set_default did not throw");
    } catch (const sys::SysrootLocked& e) {
        CHECK(std::string(e.what()) ==
              "the ostree sysroot " + sb.layout.sysroot.string() +
                  " stayed locked by another process for 30 s (an update: bootc, rpm-ostree; see 'journalctl "
                  "-b'); nothing was changed, the next boot tries again");
    }
    CHECK(clock.sleeps == 6); // every 5 s, up to the bound
    CHECK(sb.booted_name() == "host");
}

TEST_CASE("sysroot lock released during the wait: the write goes ahead", "[sandbox][lock]") {
    Sandbox sb(fast_experiment(1));
    sys::SandboxHost h = sb.host();
    LockHolder update(sb.layout.sysroot);
    LockClock clock;
    clock.on_sleep = [&](int n) {
        if (n == 3)
            update.release();
    };
    h.sysroot().set_lock_wait({&clock, 240});
    h.sysroot().set_default(sb.layout.targets.at("b"));
    CHECK(clock.now == 15);
    CHECK(sb.booted_name() == "b");
}

TEST_CASE("every measured boot holds logind's block inhibitor for sleep and idle, released when resume ends",
          "[sandbox][inhibit]") {
    testing::FakeLogind logind; // DBUS_SYSTEM_BUS_ADDRESS: the emulated boots' bootbench talks to it
    REQUIRE(logind.ready());
    Sandbox sb(fast_experiment(1, "", "", logind.list_command() + "; echo 'value 42.5'"));
    sb.start();
    sb.boot_until_done();
    REQUIRE(sb.state().phase == core::Phase::finished);
    for (const auto& [id, text] : sb.result_files()) {
        INFO(id);
        CHECK(nlohmann::json::parse(text)["environment"]["sleep_inhibitor"] == "held (logind block sleep:idle)");
        CHECK(sys::read_text_file(sb.results() / "runs" / id / "attempt-1/echo.stdout") ==
              "sleep:idle bootbench block: an unattended benchmark experiment runs until the next reboot\n"
              "value 42.5\n");
    }
    CHECK(logind.held() == ""); // released on the way out of every boot
    CHECK(sys::read_text_file(sb.results() / "bootbench.log").find("sleep inhibitor: held (logind block "
                                                                   "sleep:idle)") != std::string::npos);
}
