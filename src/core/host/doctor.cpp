#include "core/host/doctor.hpp"
#include "core/base/text.hpp"

#include "core/host/exec_label.hpp"
#include "core/host/gate.hpp"
#include "core/host/quiet.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <nlohmann/json.hpp>

namespace bootbench::core {

namespace {

using Checks = std::vector<DoctorCheck>;

constexpr std::uint64_t kMiB = 1ull << 20;

DoctorCheck check_ostree(const HostFacts& f) {
    if (!f.ostree_booted)
        return {"ostree", CheckStatus::fail,
                "not booted from an ostree deployment (no /run/ostree-booted)",
                "run bootbench on the Fedora Atomic, Universal Blue or bootc machine it measures; "
                "'bootbench simulate FILE' rehearses an experiment here"};
    if (!f.ostree_error.empty())
        return {"ostree", CheckStatus::fail, "cannot read the booted deployment: " + f.ostree_error,
                "check the sysroot with 'ostree admin status'"};
    return {"ostree", CheckStatus::ok,
            "booted " + f.booted + ", stateroot " + f.stateroot + " (every target must be in it)",
            ""};
}

DoctorCheck check_staged(const HostFacts& f, const DoctorNeeds& n) {
    if (!f.staged)
        return {"staged", CheckStatus::ok, "no staged deployment waiting", ""};
    if (n.drop_staged)
        return {"staged", CheckStatus::warn,
                "a staged update is waiting; start --drop-staged drops it", ""};
    return {"staged", CheckStatus::fail,
            "a staged update is waiting for the next boot; starting would drop it",
            "reboot into it first, or start with --drop-staged"};
}

DoctorCheck check_sysroot(const HostFacts& f) {
    if (!f.sysroot_readonly)
        return {"sysroot", CheckStatus::warn, "/sysroot is not a mount point", ""};
    if (*f.sysroot_readonly)
        return {
            "sysroot", CheckStatus::ok,
            "/sysroot is read-only (other deployments are written from a private mount namespace)",
            ""};
    return {"sysroot", CheckStatus::warn,
            "/sysroot is read-write: any program can change the deployments during the experiment",
            "set sysroot.readonly=true in /ostree/repo/config (as Fedora does) and reboot"};
}

// A config that turns on a policy that is not installed (Debian's
// policycoreutils without a policy writes SELINUX=permissive,
// SELINUXTYPE=default): libostree fails every pin and every deployment.
std::optional<DoctorCheck> broken_selinux_config(const HostFacts& f) {
    if (!f.selinux_config || !f.selinux_config->on || f.selinux_config->policy_present)
        return std::nullopt;
    const SelinuxConfig& c = *f.selinux_config;
    std::string where = c.type.empty() ? "it names no policy (no SELINUXTYPE=)"
                                       : "/etc/selinux/" + c.type + " is not there";
    return DoctorCheck{"selinux", CheckStatus::fail,
                       "/etc/selinux/config says SELINUX=" + printable(c.mode) + " and SELINUXTYPE=" +
                           printable(c.type) + ", but " + printable(where) +
                           ": libostree labels what it writes with that policy, so every pin and "
                           "deployment fails (selabel_open: No such file or directory)",
                       "install that policy (Debian: sudo apt-get install selinux-policy-default), or set "
                       "SELINUX=disabled in /etc/selinux/config"};
}

DoctorCheck check_selinux(const HostFacts& f) {
    if (auto broken = broken_selinux_config(f))
        return *broken;
    if (!f.selinux_enforce)
        return {"selinux", CheckStatus::ok, "disabled (no /sys/fs/selinux)", ""};
    if (*f.selinux_enforce == "1")
        return {"selinux", CheckStatus::ok, "enforcing", ""};
    return {"selinux", CheckStatus::warn,
            "permissive: the runs are not measured as the images run normally",
            "sudo setenforce 1 (and enforcing in /etc/selinux/config)"};
}

// Only under enforcing: elsewhere nothing refuses the unit's binary.
DoctorCheck check_exec_label(const ExecFact& x) {
    const std::string& p = x.path;
    if (!x.unit_installed)
        return {"exec-label", CheckStatus::ok,
                "start copies bootbench to " + p + ", labels it " + kExecType + " and reads the label back", ""};
    if (!x.exists)
        return {"exec-label", CheckStatus::fail,
                "the installed bootbench-resume.service runs " + p + ", which does not exist: the unit fails "
                "with 203/EXEC",
                "sudo bootbench abort, then start the experiment again"};
    std::string problem = exec_label_problem(p, x.label);
    if (problem.empty())
        return {"exec-label", CheckStatus::ok, p + " is " + *x.label + ": systemd may run it", ""};
    return {"exec-label", CheckStatus::fail, problem + " (the installed bootbench-resume.service runs it)",
            "sudo chcon -t " + std::string(kExecType) + " " + p + " for the experiment running now; a start by "
            "this version runs its copy from /var/usrlocal/bin, which is " + kExecType};
}

std::string transient_etc_line(const TransientEtcFact& t) {
    if (!t.error.empty())
        return "target '" + t.target + "': " + t.file + " cannot be parsed (" + t.error +
               "), nor can ostree-prepare-root parse it at boot";
    return "target '" + t.target + "': " + t.file + " sets [etc] transient = true, so its /etc at boot is a "
           "fresh overlay of usr/etc: the unit bootbench writes into that deployment's /etc is never seen";
}

DoctorCheck check_space(const std::string& dir, std::optional<std::uint64_t> free_bytes,
                        std::uint64_t need, const DoctorNeeds& n, const std::string& fix) {
    std::string name = "free-space-" + dir.substr(1);
    if (!free_bytes)
        return {name, CheckStatus::warn, "cannot read the free space of " + dir, ""};
    std::string wants =
        format_bytes(need) + (n.have_experiment ? " for this experiment"
                                                : " by default; give EXPERIMENT.toml for its own");
    if (*free_bytes < need)
        return {name, CheckStatus::fail,
                dir + ": " + format_bytes(*free_bytes) + " free, needs " + wants, fix};
    return {name, CheckStatus::ok, dir + ": " + format_bytes(*free_bytes) + " free, needs " + wants,
            ""};
}

DoctorCheck check_tool(const ToolFact& t, const DoctorNeeds& n) {
    std::string name = "tool-" + t.program;
    if (t.found)
        return {name, CheckStatus::ok, t.program + " found", ""};
    CheckStatus v = t.optional || !n.have_experiment ? CheckStatus::warn : CheckStatus::fail;
    std::string why = t.optional          ? " (its benches are skipped)"
                      : n.have_experiment ? " (a bench needs it)"
                                          : "";
    return {name, v, t.program + " not found" + why,
            t.install +
                "; on Fedora Atomic set [tools] image instead (layering makes a new deployment)"};
}

DoctorCheck check_tools_image(const HostFacts& f, const DoctorNeeds& n) {
    if (!f.podman)
        return {"tools-image", CheckStatus::fail,
                "podman not found; [tools] image " + n.tools_image + " needs it",
                "install podman (Fedora Atomic images ship it), or set [tools] image = \"host\""};
    const std::string& image = n.tools_image;
    if (!f.tools_image_error.empty())
        return {"tools-image", CheckStatus::warn, f.tools_image_error,
                "sudo podman pull " + image + " (or sudo podman build -t " + image + " containers/bench-tools)"};
    if (!f.tools_store.root)
        return {"tools-image", CheckStatus::warn,
                image + " is in " + describe(f.tools_store) + "; sudo start looks in root's store, not in this one",
                "put it in root's store: " + root_store_fix(image)};
    return {"tools-image", CheckStatus::ok, image + " is in " + describe(f.tools_store) + ", the store start uses",
            ""};
}

void add_tools(Checks& out, const HostFacts& f, const DoctorNeeds& n) {
    if (!n.tools_image.empty()) {
        out.push_back(check_tools_image(f, n));
        return;
    }
    for (const auto& t : f.tools)
        out.push_back(check_tool(t, n));
}

DoctorCheck check_temperature(const HostFacts& f) {
    if (f.temp_sensor)
        return {"temperature", CheckStatus::ok, *f.temp_sensor, ""};
    return {
        "temperature", CheckStatus::warn,
        "no CPU temperature sensor (hwmon k10temp, zenpower, coretemp; thermal zones x86_pkg_temp, "
        "acpitz): runs start without waiting to cool",
        "load the sensor's driver (modprobe k10temp, or coretemp on Intel)"};
}

bool available(const HostFacts& f, const std::string& governor) {
    return std::find(f.available_governors.begin(), f.available_governors.end(), governor) !=
           f.available_governors.end();
}

DoctorCheck check_governor(const HostFacts& f, const DoctorNeeds& n) {
    const std::string& want = n.conditions.governor;
    GateDecision d = decide_governor(n.conditions, f.governors);
    std::string found = f.governors.empty() ? "no cpufreq" : d.record.found;
    if (want.empty())
        return {"governor", CheckStatus::ok, found + " (the experiment does not ask for one)", ""};
    if (f.governors.empty())
        return {"governor", CheckStatus::warn, d.record.detail, ""};
    if (!f.available_governors.empty() && !available(f, want))
        return {"governor", CheckStatus::fail,
                want + " is not an available governor (" + join(f.available_governors, ", ") + ")",
                "set [conditions] governor to one of them"};
    if (d.action == GateAction::fail)
        return {"governor", CheckStatus::warn,
                found + " on this boot, the experiment wants " + want,
                d.record.detail.substr(d.record.detail.find(": ") + 2)};
    return {"governor", CheckStatus::ok,
            found + (d.action == GateAction::set ? ", set to " + want + " for each suite" : ""),
            ""};
}

DoctorCheck check_ac(const HostFacts& f) {
    if (!f.ac_online)
        return {"ac-power", CheckStatus::ok,
                "no mains supply reported (a desktop or a virtual machine)", ""};
    if (*f.ac_online)
        return {"ac-power", CheckStatus::ok, "on mains power", ""};
    return {"ac-power", CheckStatus::fail,
            "on battery: it runs out before the night does, and battery power limits change the "
            "numbers",
            "plug in the charger"};
}

DoctorCheck check_sched_ext(const HostFacts& f, const DoctorNeeds& n) {
    GateDecision d = decide_sched_ext(n.conditions, f.sched_ext_state, f.sched_ext_ops);
    if (n.conditions.sched_ext.empty())
        return {"sched_ext", CheckStatus::ok, d.record.found + " (the experiment does not ask)",
                ""};
    if (d.action == GateAction::run)
        return {"sched_ext", CheckStatus::ok, d.record.found + ", as the experiment asks", ""};
    return {"sched_ext", CheckStatus::warn,
            d.record.found + " on this boot, the experiment wants " + n.conditions.sched_ext,
            d.record.detail};
}

DoctorCheck check_updaters(const HostFacts& f, const DoctorNeeds& n) {
    if (!f.units_error.empty())
        return {"update-timers", CheckStatus::warn,
                "cannot list this host's units: " + f.units_error, ""};
    std::vector<std::string> stopped = stop_units_of(n.conditions.stop_units);
    auto left = updaters_left_running(stopped, f.unit_files);
    if (!left.empty())
        return {"update-timers", CheckStatus::warn,
                join(left, ", ") +
                    " can stage an update during the experiment (not in [conditions] stop_units)",
                "add them to [conditions] stop_units (each boot masks them until the next), or "
                "sudo systemctl disable --now " +
                    join(left, ", ")};
    auto present = presence_of(automatic_updaters(), f.unit_files).present;
    return {"update-timers", CheckStatus::ok,
            present.empty() ? "no automatic-update timer on this host"
                            : join(present, ", ") + " stopped at each boot (stop_units)",
            ""};
}

// greenboot-grub2-set-counter runs as soon as a deployment is staged
// (RequiredBy=ostree-finalize-staged.service) and sets boot_counter; only a
// boot whose health check passes unsets it (greenboot-grub2-set-success).
// A staged deployment dropped (by bootbench, or by a reorder) leaves it set.
DoctorCheck check_greenboot(const HostFacts& f) {
    if (!f.boot_counter)
        return {"greenboot", CheckStatus::ok, "no boot counter armed in /boot/grub2/grubenv", ""};
    return {"greenboot", CheckStatus::warn,
            "greenboot's boot counter is armed (boot_counter=" + *f.boot_counter +
                " in /boot/grub2/grubenv, set when a deployment was staged): if its health check fails "
                "on the coming boots, GRUB boots the second entry instead of the run's deployment and "
                "greenboot rolls the default back under the experiment",
            "reboot once and check that greenboot clears it ('sudo grub2-editenv list' shows no "
            "boot_counter), or unset it: sudo grub2-editenv - unset boot_counter"};
}

std::string padded(std::string s, size_t width) {
    s.resize(std::max(width, s.size() + 1), ' ');
    return s;
}

std::string check_line(const DoctorCheck& c) {
    std::string s = padded(to_string(c.status), 6) + padded(c.name, 16) + c.message + "\n";
    if (!c.fix.empty())
        s += std::string(22, ' ') + "fix: " + c.fix + "\n";
    return s;
}

} // namespace

const char* to_string(CheckStatus v) { return name_of(kCheckStatusNames, v); }

DoctorNeeds default_needs() {
    return DoctorNeeds{};
}

DoctorNeeds needs_of(const Experiment& e) {
    DoctorNeeds n;
    n.have_experiment = true;
    // Every iteration of a bench keeps its own logs (16 MiB: two 8 MiB caps).
    std::uint64_t iterations = 0;
    for (const auto& b : e.benches)
        iterations += static_cast<std::uint64_t>(b.repeat);
    n.var_bytes = 512 * kMiB + static_cast<std::uint64_t>(e.runs) * e.targets.size() * iterations * 16 * kMiB;
    auto with_kargs = std::count_if(e.targets.begin(), e.targets.end(),
                                    [](const Target& t) { return !t.kargs.empty(); });
    n.boot_bytes = 64 * kMiB + static_cast<std::uint64_t>(with_kargs) * 256 * kMiB;
    n.tools_image = e.tools_image == "host" ? "" : e.tools_image;
    n.conditions = e.conditions;
    return n;
}

// Each target deployment loads this binary with its own loader and libraries.
void add_binary_loads(Checks& out, const HostFacts& f) {
    if (!f.binary_refusals)
        return;
    std::string why;
    for (const auto& r : *f.binary_refusals)
        why += (why.empty() ? "" : "; ") + r;
    if (why.empty())
        out.push_back({"binary-loads", CheckStatus::ok,
                       "bootbench loads in every target's deployment, with that deployment's own loader", ""});
    else
        out.push_back({"binary-loads", CheckStatus::fail, why,
                       "build bootbench on the oldest target's release (./bootstrap in a toolbox of it)"});
}

std::vector<DoctorCheck> doctor_checks(const HostFacts& f, const DoctorNeeds& n) {
    Checks out{check_ostree(f)};
    if (f.ostree_booted && f.ostree_error.empty())
        out.insert(out.end(), {check_staged(f, n), check_sysroot(f)});
    if (f.ostree_booted && f.ostree_error.empty() && n.have_experiment)
        out.push_back(check_transient_etc(f.transient_etc));
    add_binary_loads(out, f);
    out.push_back(check_selinux(f));
    if (f.selinux_enforce == "1")
        out.push_back(check_exec_label(f.resume_exec));
    out.push_back(
        check_space("/var", f.var_free, n.var_bytes, n,
                    "free space in /var (podman image prune; journalctl --vacuum-size=200M)"));
    out.push_back(check_space(
        "/boot", f.boot_free, n.boot_bytes, n,
        "remove old deployments (sudo rpm-ostree cleanup -r, or ostree admin undeploy)"));
    add_tools(out, f, n);
    out.insert(out.end(), {check_temperature(f), check_governor(f, n), check_ac(f),
                           check_sched_ext(f, n), check_updaters(f, n)});
    if (f.greenboot)
        out.push_back(check_greenboot(f));
    out.push_back(check_idle_suspend(f.idle));
    return out;
}

DoctorCheck check_transient_etc(const std::vector<TransientEtcFact>& facts) {
    if (facts.empty())
        return {"transient-etc", CheckStatus::ok,
                "every target keeps its /etc (no etc.transient in ostree/prepare-root.conf)", ""};
    std::vector<std::string> lines;
    for (const auto& t : facts)
        lines.push_back(transient_etc_line(t));
    return {"transient-etc", CheckStatus::fail, join(lines, "; "),
            "measure images whose /etc persists (no [etc] transient in ostree/prepare-root.conf): bootbench "
            "needs its unit in every target's /etc"};
}

bool any_fail(const std::vector<DoctorCheck>& checks) {
    return std::any_of(checks.begin(), checks.end(),
                       [](const DoctorCheck& c) { return c.status == CheckStatus::fail; });
}

std::string doctor_text(const std::vector<DoctorCheck>& checks) {
    std::string s;
    for (const auto& c : checks)
        s += check_line(c);
    return s;
}

std::string doctor_problems_text(const std::vector<DoctorCheck>& checks) {
    std::string s;
    for (const auto& c : checks)
        if (c.status != CheckStatus::ok)
            s += check_line(c);
    return s;
}

std::string doctor_json(const std::vector<DoctorCheck>& checks) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : checks)
        list.push_back({{"check", c.name},
                        {"status", to_string(c.status)},
                        {"message", c.message},
                        {"fix", c.fix}});
    nlohmann::json out = {{"ok", !any_fail(checks)}, {"checks", list}};
    return out.dump(2) + "\n";
}

std::string format_bytes(std::uint64_t bytes) {
    char buf[32];
    if (bytes >= (1ull << 30))
        std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
    else
        std::snprintf(buf, sizeof buf, "%llu MiB", static_cast<unsigned long long>(bytes / kMiB));
    return buf;
}

namespace {

bool starts_with_nocase(const std::string& s, const std::string& prefix) {
    return s.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(b)) == a;
           });
}

std::string stripped(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

} // namespace

SelinuxConfig parse_selinux_config(const std::string& text) {
    SelinuxConfig c;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("SELINUXTYPE=", 0) == 0)
            c.type = stripped(line.substr(12));
        else if (line.rfind("SELINUX=", 0) == 0) {
            std::string mode = line.substr(8);
            // any such line turns it on, as in libostree
            c.on = c.on || starts_with_nocase(mode, "enforcing") || starts_with_nocase(mode, "permissive");
            c.mode = stripped(mode);
        }
    }
    return c;
}

} // namespace bootbench::core
