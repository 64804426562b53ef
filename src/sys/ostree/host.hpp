#pragma once
// The Host seam: which deployment is booted, where state lives, each
// deployment's /etc, and reboot. Real: libostree on "/" and systemctl.
// Sandbox: a sysroot folder, the booted deployment named by the emulated
// bootloader (environment), and reboot = a request file the driver reads.
#include "core/deployment/deployment.hpp"
#include "sys/probe/quiet_units.hpp"
#include "sys/probe/sleep_inhibitor.hpp"
#include "sys/ostree/sysroot.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace bootbench::sys {

namespace fs = std::filesystem;

class Host {
public:
    virtual ~Host() = default;
    virtual Sysroot& sysroot() = 0;
    // The deployment running now; throws when it cannot be told.
    virtual core::DeploymentInfo booted() = 0;
    // /var/lib/bootbench of the running stateroot.
    virtual fs::path state_dir() = 0;
    // A deployment's own /etc (where the unit goes), ready for raw writes.
    virtual fs::path etc_dir(const core::DeploymentRef& d) = 0;
    // Gives files written into a deployment the labels its policy wants.
    virtual void label(const core::DeploymentRef&, const std::vector<std::string>&) {}
    // Labels the binary the unit runs so that systemd may execute it, and
    // checks the label; throws when it cannot be run.
    virtual void label_executable(const fs::path&) {}
    // Asks for a reboot and returns; the caller exits.
    virtual void reboot() = 0;
    virtual std::string describe() = 0;
    // The sandbox runs every target on this machine's kernel.
    virtual bool emulated() const { return false; }
    // The host's own timers and services (stopped for a quiet run).
    virtual UnitControl* units() = 0;
    // Keeps the machine from suspending while a boot's work runs: logind on
    // the system bus, the sandbox's too (a rehearsal on a laptop is spared
    // a suspend the same way; without logind it is only said).
    virtual SleepInhibitor& sleep_inhibitor() { return logind_; }
    // A sysroot no running system booted from (--sysroot PATH of another
    // disk or image): nothing is booted, so booted() throws.
    virtual bool offline() const { return false; }

private:
    LogindInhibitor logind_;
};

class RealHost final : public Host {
public:
    // The sysroot is opened on first use: status and state need none.
    explicit RealHost(fs::path sysroot) : path_(std::move(sysroot)) {}
    Sysroot& sysroot() override;
    core::DeploymentInfo booted() override;
    fs::path state_dir() override;
    fs::path etc_dir(const core::DeploymentRef& d) override;
    void label(const core::DeploymentRef& d, const std::vector<std::string>& files) override;
    void label_executable(const fs::path& file) override;
    void reboot() override;
    std::string describe() override;
    UnitControl* units() override { return &units_; }
    bool offline() const override;

private:
    fs::path path_;
    std::unique_ptr<Sysroot> sysroot_;
    SystemctlUnits units_;
};

class SandboxHost final : public Host {
public:
    // `booted_dir`: the deployment folder the emulated bootloader picked.
    SandboxHost(const fs::path& sysroot, const fs::path& booted_dir);
    Sysroot& sysroot() override { return sysroot_; }
    core::DeploymentInfo booted() override;
    fs::path state_dir() override;
    fs::path etc_dir(const core::DeploymentRef& d) override;
    void reboot() override;
    std::string describe() override;
    bool emulated() const override { return true; }
    UnitControl* units() override { return &units_; }
    // The file whose presence tells the driver that a reboot was asked for.

private:
    Sysroot sysroot_;
    fs::path booted_dir_;
    SandboxUnits units_;
};

// The sandbox host when the environment names one (an emulated boot), else
// the real host on `sysroot` (default "/").
std::unique_ptr<Host> open_host(const std::string& sysroot_option);

// A sandbox that `simulate --sandbox DIR` kept, booted as its emulated
// bootloader would boot it now. Throws when DIR holds no sandbox.
std::unique_ptr<Host> open_sandbox_host(const fs::path& dir);

} // namespace bootbench::sys
