#pragma once
// The built-in sandbox: a throwaway ostree sysroot in a folder, made with
// libostree like a real one (repo, stateroot, commits with a kernel and an
// initramfs, deployments, BLS entries). Its bootloader is emulated from the
// BLS entries libostree wrote; each boot is a fresh `bootbench resume`.
#include "core/experiment/experiment.hpp"
#include "core/state/state.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace bootbench::sys {

class InterruptWatch;

namespace fs = std::filesystem;

inline constexpr const char* kSandboxStateroot = "sandbox";
// Environment of an emulated boot: the sysroot and the booted deployment dir.
inline constexpr const char* kSandboxEnv = "BOOTBENCH_SANDBOX";
inline constexpr const char* kSandboxBootedEnv = "BOOTBENCH_SANDBOX_BOOTED";

struct SandboxLayout {
    fs::path sysroot;
    core::DeploymentRef host_default; // the "machine's own" deployment, not a target
    std::map<std::string, core::DeploymentRef> targets;
};

// Builds a sandbox for `e` in `dir` (which must not exist or be empty): one
// deployment per target, whatever its selector says, plus the host's own
// deployment, which is the default when the build ends.
SandboxLayout build_sandbox(const fs::path& dir, const core::Experiment& e);

// A sandbox for bisect: its ref `refspec` ("sandbox:bisect") has `builds`
// commits, each the parent of the next, subject "sandbox build N",
// version "N" and usr/share/bootbench/sandbox-build holding N (0-based).
// They live on the sandbox's remote (an archive repo served by a file://
// URL, sandbox_remote()), as an image's builds live on a real host's
// remote: the local repo has the first only, deployed as the host's own.
struct SandboxHistory {
    fs::path sysroot;
    core::DeploymentRef host_default;
    std::string refspec;
    std::vector<std::string> commits; // oldest first
};
SandboxHistory build_sandbox_history(const fs::path& dir, int builds);
inline constexpr const char* kSandboxRemote = "sandbox";
inline fs::path sandbox_remote(const fs::path& sysroot) { return sysroot / "sandbox-remote"; }

// The deployment folder the emulated bootloader boots: the default BLS entry's
// ostree= path, resolved through the boot.N links. Throws when there is none.
fs::path emulated_boot_choice(const fs::path& sysroot);

// The file SandboxHost::reboot writes and the emulated bootloader takes as
// the request to boot again.
inline fs::path reboot_request(const fs::path& sysroot) { return sysroot / "run/reboot-requested"; }

// Removes a sandbox: clears the immutable bit libostree sets on deployment roots.
void remove_sandbox(const fs::path& dir);

} // namespace bootbench::sys

namespace bootbench::sys {

// One emulated boot: the bootloader picks the default BLS entry, "systemd"
// runs the resume unit if that deployment has it enabled, with the sandbox
// named in the environment.
struct EmulatedBoot {
    fs::path booted_dir;
    bool unit_enabled = false;
    int exit_status = 0;   // of the unit's process
    int killed_by = 0;     // signal that ended it (a crash / power loss), 0 if none
    bool reboot_requested = false;
    int interrupted_by = 0; // a signal to the driver, passed on to the unit's process
};

// With a watch, an interruption of the driver is passed on to the unit's
// process (it stops its bench cleanly) and noted in the outcome.
EmulatedBoot emulate_boot(const fs::path& sysroot, const InterruptWatch* watch = nullptr);

} // namespace bootbench::sys
