#pragma once
// `bootbench doctor`: facts about this host (probed by sys/doctor_probe)
// turned into ok / warn / fail lines, each with its fix. Pure: the same facts
// give the same lines, so every verdict is tested without a machine. `start`
// runs the same checks and refuses on a fail before it changes anything.
#include "core/host/doctor_check.hpp"
#include "core/experiment/experiment.hpp"
#include "core/host/idle_suspend.hpp"
#include "core/image/tools_image.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// A tool a bench or the load runs on the host.
struct ToolFact {
    std::string program;
    bool found = false;
    bool optional = false; // a missing optional tool skips its bench
    std::string install;   // how to install it (sys/run/bench_command's words)
};

// The file the resume unit's ExecStart runs: the installed unit's in this
// system's /etc (an experiment is running), else the one start installs.
struct ExecFact {
    std::string path; // as ExecStart names it
    bool unit_installed = false;
    bool exists = false;
    std::optional<std::string> label; // its security.selinux; nullopt: none
};

// A target deployment whose ostree/prepare-root.conf (usr/lib, overridden by
// etc, as ostree's otcore_load_config reads them) makes /etc transient, or
// cannot be parsed (then `error` says why).
struct TransientEtcFact {
    std::string target;
    std::string file; // inside the deployment: "/usr/lib/ostree/prepare-root.conf"
    std::string error;
};

// <root>/etc/selinux/config as libostree reads it (ostree-sepolicy.c): a
// SELINUX= that begins with enforcing or permissive (any case) turns the
// policy on, SELINUXTYPE= names its folder beside the config. libostree
// labels what it writes with that policy whether the kernel runs SELinux
// or not.
struct SelinuxConfig {
    std::string mode, type;      // as written after SELINUX= and SELINUXTYPE=
    bool on = false;
    bool policy_present = false; // <root>/etc/selinux/<type> is a folder (the probe's)
};
SelinuxConfig parse_selinux_config(const std::string& text);

// What sys/doctor_probe found. nullopt: could not be read or not there.
struct HostFacts {
    bool ostree_booted = false;           // <root>/run/ostree-booted exists
    std::string ostree_error;             // the sysroot could not be read
    std::string stateroot;                // of the booted deployment
    std::string booted;                   // e.g. "fedora 1a2b3c4d.0 (ostree-image-signed:...)"
    bool staged = false;                  // a staged deployment waits for the next boot
    std::optional<bool> sysroot_readonly; // nullopt: /sysroot is not a mount point
    std::optional<std::string> selinux_enforce; // <root>/sys/fs/selinux/enforce; nullopt: disabled
    std::optional<SelinuxConfig> selinux_config; // nullopt: no <root>/etc/selinux/config
    std::optional<std::uint64_t> var_free, boot_free; // bytes
    std::vector<ToolFact> tools;                      // the host tools the benches need
    bool podman = false;                          // podman found (only asked with a tools image)
    std::string tools_image_error;                // "" when the image is in the local store
    PodmanStore tools_store;                      // where the image was found
    // With an experiment on an ostree host: why this binary cannot run in a
    // target's deployment (sys/ostree/binary_loads), one line per target;
    // nullopt when not checked.
    std::optional<std::vector<std::string>> binary_refusals;
    std::optional<std::string> temp_sensor;       // e.g. "hwmon k10temp Tctl at 41.0 C"
    std::map<std::string, std::string> governors; // cpufreq policy -> governor
    std::vector<std::string> available_governors; // of the first policy
    std::optional<bool> ac_online;                // nullopt: no mains supply reported
    std::optional<std::string> sched_ext_state, sched_ext_ops;
    std::vector<std::string> unit_files; // among automatic_updaters() and the stop units
    std::string units_error;             // why the units could not be listed
    ExecFact resume_exec;
    // greenboot's boot counting: its greenboot-grub2-set-counter.service is
    // installed, and boot_counter in /boot/grub2/grubenv (nullopt: unset).
    bool greenboot = false;
    std::optional<std::string> boot_counter;
    // Of the experiment's targets (cli/doctor resolves them on the sysroot).
    std::vector<TransientEtcFact> transient_etc;
    IdleSuspendFacts idle;               // logind's and the login screen's idle suspend
};

// What the experiment needs from the host; the defaults are the stated ones
// doctor checks against without an experiment file.
struct DoctorNeeds {
    bool have_experiment = false;
    std::uint64_t var_bytes = 1ull << 30;    // results, raw output, logs
    std::uint64_t boot_bytes = 256ull << 20; // one more kernel and initramfs
    std::string tools_image;                 // "" = the host's tools
    Conditions conditions;                   // governor, sched_ext, stop_units
    bool drop_staged = false;                // start --drop-staged
};

// The needs of `e`: /var for every bench's raw output (at most 16 MiB a
// bench and run) on top of 512 MiB; /boot 64 MiB plus 256 MiB for each
// target with kargs (deployed again, its own kernel and initramfs copy).
DoctorNeeds needs_of(const Experiment& e);
// The needs when no experiment file is given: the defaults above.
DoctorNeeds default_needs();

// Every check, in the order shown.
std::vector<DoctorCheck> doctor_checks(const HostFacts& facts, const DoctorNeeds& needs);
bool any_fail(const std::vector<DoctorCheck>& checks);

// "transient-etc": fail when a target's /etc would not keep the unit.
DoctorCheck check_transient_etc(const std::vector<TransientEtcFact>& facts);

// One line a check: "ok    ostree      booted ...", the fix on the next line.
std::string doctor_text(const std::vector<DoctorCheck>& checks);
// The lines of the checks that are not ok (what start prints).
std::string doctor_problems_text(const std::vector<DoctorCheck>& checks);
// {"ok": bool, "checks": [{"check", "status", "message", "fix"}]}
std::string doctor_json(const std::vector<DoctorCheck>& checks);

// "1.5 GiB", "300 MiB": for the free-space lines.
std::string format_bytes(std::uint64_t bytes);

} // namespace bootbench::core
