// The sandbox sysroot and its emulated bootloader, with real libostree.
#include "../unit/catch.hpp"
#include "core/resolve.hpp"
#include "sandbox_fixture.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/unit_install.hpp"

#include <algorithm>

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
