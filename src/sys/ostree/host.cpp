#include "sys/ostree/host.hpp"

#include "core/base/error.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/host_writes.hpp"
#include "sys/ostree/sandbox.hpp"
#include "sys/process/subprocess.hpp"

#include <unistd.h>

namespace bootbench::sys {

Sysroot& RealHost::sysroot() {
    if (!sysroot_)
        sysroot_ = std::make_unique<Sysroot>(path_);
    return *sysroot_;
}

core::DeploymentInfo RealHost::booted() {
    if (auto d = sysroot().booted())
        return *d;
    throw Error("no booted ostree deployment found in " + path_.string() +
                " (is this an ostree system? /run/ostree-booted must exist and --sysroot must be /)");
}

fs::path RealHost::state_dir() {
    if (path_ == "/")
        return "/var/lib/bootbench";
    // An offline sysroot (--sysroot PATH): the stateroot that boots next.
    auto running = sysroot().booted();
    std::string stateroot = running ? running->ref.stateroot : sysroot().default_deployment().ref.stateroot;
    return sysroot().stateroot_var(stateroot) / "lib/bootbench";
}

fs::path RealHost::etc_dir(const core::DeploymentRef& d) {
    if (path_ == "/")
        make_sysroot_writable_privately();
    return sysroot().deployment_dir(d) / "etc";
}

void RealHost::label(const core::DeploymentRef& d, const std::vector<std::string>& files) {
    if (path_ == "/")
        label_in_deployment(sysroot().deployment_dir(d), files);
}

void RealHost::label_executable(const fs::path& file) {
    if (path_ == "/")
        sys::label_executable(file);
}

void RealHost::reboot() {
    // --no-block: the unit that runs us must be able to finish before shutdown.
    Ending ended = run_attached({"systemctl", "reboot", "--no-block"});
    if (!ended.succeeded())
        throw Error("systemctl reboot --no-block failed (" + sys::describe(ended) + ")");
}

namespace {

bool same_file(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    return fs::equivalent(a, b, ec);
}

} // namespace

// "/" and, on a booted ostree system, /sysroot (its physical root) are the
// running system's: never offline, whatever libostree says is booted.
bool RealHost::offline() const {
    return !same_file(path_, "/") && !same_file(path_, "/sysroot");
}

std::string RealHost::describe() { return "this machine (sysroot " + path_.string() + ")"; }

SandboxHost::SandboxHost(const fs::path& sysroot, const fs::path& booted_dir)
    : sysroot_(sysroot), booted_dir_(booted_dir), units_(sysroot) {}

core::DeploymentInfo SandboxHost::booted() {
    if (auto d = sysroot_.deployment_at(booted_dir_)) {
        d->booted = true;
        return *d;
    }
    throw Error("the sandbox's booted deployment " + booted_dir_.string() +
                " is not a deployment of " + sysroot_.path().string());
}

fs::path SandboxHost::state_dir() {
    return sysroot_.stateroot_var(booted().ref.stateroot) / "lib/bootbench";
}

fs::path SandboxHost::etc_dir(const core::DeploymentRef& d) { return sysroot_.deployment_dir(d) / "etc"; }

void SandboxHost::reboot() {
    make_dirs(reboot_request(sysroot_.path()).parent_path());
    write_file_atomic(reboot_request(sysroot_.path()), "reboot\n");
}

std::string SandboxHost::describe() { return "the sandbox " + sysroot_.path().string(); }

std::unique_ptr<Host> open_host(const std::string& sysroot_option) {
    const char* sandbox = std::getenv(kSandboxEnv);
    const char* booted = std::getenv(kSandboxBootedEnv);
    if (sandbox && *sandbox) {
        if (!booted || !*booted)
            throw Error(std::string(kSandboxEnv) + " is set but " + kSandboxBootedEnv + " is not");
        return std::make_unique<SandboxHost>(sandbox, booted);
    }
    return std::make_unique<RealHost>(sysroot_option.empty() ? "/" : sysroot_option);
}

std::unique_ptr<Host> open_sandbox_host(const fs::path& dir) {
    if (!fs::is_directory(dir / "ostree" / "repo"))
        throw input_error(dir.string() + " is not a bootbench sandbox (no ostree/repo in it; " +
                    "simulate --sandbox DIR keeps one)");
    fs::path sysroot = fs::canonical(dir);
    return std::make_unique<SandboxHost>(sysroot, emulated_boot_choice(sysroot));
}

} // namespace bootbench::sys
