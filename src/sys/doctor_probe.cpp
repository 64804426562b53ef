#include "sys/doctor_probe.hpp"

#include "core/base/error.hpp"
#include "core/host/quiet.hpp"
#include "sys/run/bench_command.hpp"
#include "sys/probe/booted_deployment.hpp"
#include "sys/probe/idle_suspend.hpp"
#include "sys/probe/probes.hpp"
#include "sys/probe/sensors.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/ostree/unit_install.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/binary_loads.hpp"
#include "sys/run/tools_image.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/statvfs.h>

namespace bootbench::sys {

namespace {

namespace fs = std::filesystem;

std::optional<std::uint64_t> free_bytes(const fs::path& dir) {
    struct statvfs st {};
    if (statvfs(dir.c_str(), &st) != 0)
        return std::nullopt;
    return static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
}

bool has_option(const std::string& options, const std::string& wanted) {
    std::istringstream in(options);
    std::string o;
    while (std::getline(in, o, ','))
        if (o == wanted)
            return true;
    return false;
}

void probe_ostree(const fs::path& root, core::HostFacts& f) {
    std::error_code ec;
    f.ostree_booted = fs::exists(root / "run/ostree-booted", ec);
    if (!f.ostree_booted)
        return;
    try {
        core::DeploymentRecord d = booted_deployment(root);
        f.stateroot = d.stateroot;
        f.booted = d.stateroot + " " + d.checksum.substr(0, 12) + "." + std::to_string(d.serial) +
                   (d.origin.empty() ? "" : " (" + d.origin + ")");
        if (d.checksum.empty())
            f.ostree_error = "libostree finds no booted deployment in " + root.string();
        else
            f.staged = Sysroot(root).has_staged();
    } catch (const Error& e) {
        f.ostree_error = e.what();
    }
}

void probe_binary_loads(const fs::path& root, const core::Experiment* e, core::HostFacts& f) {
    std::error_code ec;
    if (!e || !f.ostree_booted || !f.ostree_error.empty() || !fs::exists(root / "ostree/deploy", ec))
        return;
    try {
        Sysroot sysroot(root);
        f.binary_refusals = binary_load_refusals(sysroot, *e, running_binary());
    } catch (const Error& err) {
        f.binary_refusals = std::vector<std::string>{std::string("cannot check: ") + err.what()};
    }
}

void probe_sensors(const fs::path& root, core::HostFacts& f) {
    SysfsSensors sensors(root);
    if (auto t = sensors.cpu_temperature()) {
        char c[32];
        std::snprintf(c, sizeof c, "%.1f", t->celsius);
        f.temp_sensor = t->sensor + " at " + c + " C";
    }
    f.governors = sensors.governors();
    if (f.governors.empty())
        return;
    fs::path first = root / "sys/devices/system/cpu/cpufreq" / f.governors.begin()->first;
    std::istringstream names(read_probe(first / "scaling_available_governors").value_or(""));
    for (std::string g; names >> g;)
        f.available_governors.push_back(g);
}

void probe_tools(const core::Experiment* e, const core::DoctorNeeds& n, core::HostFacts& f) {
    if (n.tools_image.empty()) {
        f.tools = host_tools(e);
        return;
    }
    f.podman = find_program("podman").has_value();
    if (!f.podman)
        return;
    try {
        f.tools_store = resolve_tools_image(n.tools_image).store;
    } catch (const Error& err) {
        f.tools_image_error = err.what();
    }
}

void probe_units(UnitControl& units, const core::DoctorNeeds& n, core::HostFacts& f) {
    std::vector<std::string> ask = core::stop_units_of(n.conditions.stop_units);
    for (const auto& u : core::automatic_updaters()) // once each, even when also a stop unit
        if (std::find(ask.begin(), ask.end(), u) == ask.end())
            ask.push_back(u);
    try {
        f.unit_files = units.listed(ask);
    } catch (const Error& e) {
        f.units_error = e.what();
    }
}

// What the next boot's unit runs: the installed unit's ExecStart, else the
// one start installs (this version's).
void probe_resume_exec(const fs::path& root, core::HostFacts& f) {
    std::error_code ec;
    fs::path unit = unit_file(root / "etc");
    core::ExecFact& x = f.resume_exec;
    x.unit_installed = fs::exists(unit, ec);
    std::string text = resume_unit_text(0);
    try {
        if (x.unit_installed)
            text = read_text_file(unit);
    } catch (const Error&) {
    }
    auto argv = exec_start_argv(text);
    x.path = argv.empty() ? "(no ExecStart= in " + unit.string() + ")" : argv[0];
    fs::path file = root / fs::path(x.path).relative_path();
    x.exists = !argv.empty() && fs::exists(file, ec);
    x.label = selinux_label(file);
}

// greenboot's counter, as grub2-editenv keeps it: "key=value" lines.
void probe_greenboot(const fs::path& root, core::HostFacts& f) {
    std::error_code ec;
    f.greenboot = fs::exists(root / "usr/lib/systemd/system/greenboot-grub2-set-counter.service", ec);
    std::ifstream in(root / "boot/grub2/grubenv");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("boot_counter=", 0) == 0)
            f.boot_counter = line.substr(13);
}

void add_tool(std::vector<core::ToolFact>& out, const ToolInfo& t) {
    for (const auto& have : out)
        if (have.program == t.program)
            return;
    out.push_back(
        {t.program, find_program(t.program).has_value(), t.optional, not_installed_message(t)});
}

} // namespace

std::optional<bool> sysroot_readonly(const fs::path& root) {
    std::ifstream in(root / "proc/self/mounts");
    std::optional<bool> readonly;
    std::string dev, dir, type, options;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        if (fields >> dev >> dir >> type >> options && dir == "/sysroot")
            readonly = has_option(options, "ro");
    }
    return readonly;
}

std::vector<core::ToolFact> host_tools(const core::Experiment* e) {
    std::vector<core::ToolFact> out;
    if (e) {
        for (const auto& b : e->benches)
            if (auto t = tool_for(b.kind))
                add_tool(out, *t);
    } else {
        for (const auto& [name, kind] : core::kBenchKindNames)
            if (auto t = tool_for(kind))
                add_tool(out, *t);
    }
    if (!e || e->load.kind != core::Load::Kind::none)
        add_tool(out, {"stress-ng", "stress-ng", "stress-ng", false});
    return out;
}

namespace {

// <root>/etc/selinux/config and whether the policy it names is there.
std::optional<core::SelinuxConfig> selinux_config(const fs::path& root) {
    fs::path etc = root / "etc/selinux";
    auto text = read_probe(etc / "config");
    if (!text)
        return std::nullopt;
    core::SelinuxConfig c = core::parse_selinux_config(*text);
    std::error_code ec;
    c.policy_present = !c.type.empty() && c.type.find('/') == std::string::npos && fs::is_directory(etc / c.type, ec);
    return c;
}

} // namespace

core::HostFacts probe_host(const fs::path& root, const core::DoctorNeeds& needs,
                           const core::Experiment* experiment, UnitControl& units) {
    core::HostFacts f;
    probe_ostree(root, f);
    probe_binary_loads(root, experiment, f);
    f.sysroot_readonly = sysroot_readonly(root);
    f.selinux_enforce = read_probe(root / "sys/fs/selinux/enforce");
    f.selinux_config = selinux_config(root);
    probe_resume_exec(root, f);
    f.var_free = free_bytes(root / "var");
    f.boot_free = free_bytes(root / "boot");
    probe_tools(experiment, needs, f);
    probe_sensors(root, f);
    f.ac_online = mains_online(root);
    f.sched_ext_state = read_probe(root / "sys/kernel/sched_ext/state");
    f.sched_ext_ops = read_probe(root / "sys/kernel/sched_ext/root/ops");
    probe_units(units, needs, f);
    probe_greenboot(root, f);
    f.idle = probe_idle_suspend(root);
    return f;
}

} // namespace bootbench::sys
