#include "sys/probe/quiet_units.hpp"

#include "core/base/error.hpp"
#include "core/host/quiet.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/store/files.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace bootbench::sys {

namespace {

using Ran = Captured;

// Runs systemctl with `args`, its output captured, without a time limit.
Ran systemctl(std::vector<std::string> args) {
    args.insert(args.begin(), "systemctl");
    return capture_process(args, 0);
}

Error failed(const std::string& what, const Ran& r) {
    std::string words = r.err.empty() ? describe(r.ending) : r.err;
    while (!words.empty() && words.back() == '\n')
        words.pop_back();
    return Error("systemctl " + what + " failed: " + words);
}

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
}

} // namespace

std::vector<std::string> SystemctlUnits::listed(const std::vector<std::string>& units) {
    if (units.empty())
        return {};
    // Units that do not exist are simply not listed (exit status 1, silent, when none is).
    Ran r = systemctl(with({"list-unit-files", "--no-legend", "--no-pager", "--"}, units));
    if (r.status != 0 && !(r.status == 1 && r.err.empty()))
        throw failed("list-unit-files", r);
    return core::parse_unit_files(r.out);
}

std::vector<std::string> SystemctlUnits::triggered(const std::vector<std::string>& timers) {
    if (timers.empty())
        return {};
    Ran r = systemctl(with({"show", "--property=Triggers", "--value", "--"}, timers));
    if (r.status != 0)
        throw failed("show --property=Triggers", r);
    return core::parse_triggers(r.out);
}

std::vector<std::string> SystemctlUnits::running(const std::vector<std::string>& units) {
    if (units.empty())
        return {};
    Ran r = systemctl(with({"show", "--property=Id,ActiveState", "--"}, units));
    if (r.status != 0)
        throw failed("show --property=Id,ActiveState", r);
    return core::parse_running(r.out);
}

// The runtime mask without a daemon reload (a reload re-runs every generator
// and reparses every unit: 2 s of bootbench's time per run in the VM) guards
// against a later reload starting them; the stop ends them now.
void SystemctlUnits::stop_until_reboot(const std::vector<std::string>& units) {
    if (units.empty())
        return;
    Ran r = systemctl(with({"mask", "--runtime", "--no-reload", "--"}, units));
    if (r.status != 0)
        throw failed("mask --runtime --no-reload", r);
    r = systemctl(with({"stop", "--"}, units));
    if (r.status != 0)
        throw failed("stop", r);
}

fs::path SandboxUnits::installed_file(const fs::path& sysroot) { return sysroot / "run/units-installed"; }
fs::path SandboxUnits::stopped_file(const fs::path& sysroot) { return sysroot / "run/units-stopped"; }

std::vector<std::string> SandboxUnits::listed(const std::vector<std::string>& units) {
    std::error_code ec;
    if (!fs::exists(installed_file(sysroot_), ec))
        return {};
    return core::presence_of(units, core::parse_unit_files(read_text_file(installed_file(sysroot_)))).present;
}

namespace {

// The file's lines, none when it is absent.
std::vector<std::string> lines_of(const fs::path& file) {
    std::error_code ec;
    std::vector<std::string> out;
    if (!fs::exists(file, ec))
        return out;
    std::istringstream in(read_text_file(file));
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

} // namespace

std::vector<std::string> SandboxUnits::triggered(const std::vector<std::string>& timers) {
    std::string started;
    for (const auto& line : lines_of(sysroot_ / "run/units-triggers")) {
        std::istringstream words(line);
        std::string timer, unit;
        if (words >> timer >> unit && std::find(timers.begin(), timers.end(), timer) != timers.end())
            started += unit + "\n";
    }
    return core::parse_triggers(started);
}

std::vector<std::string> SandboxUnits::running(const std::vector<std::string>& units) {
    std::vector<std::string> out;
    for (const auto& u : lines_of(sysroot_ / "run/units-running"))
        if (std::find(units.begin(), units.end(), u) != units.end())
            out.push_back(u);
    return out;
}

void SandboxUnits::stop_until_reboot(const std::vector<std::string>& units) {
    make_dirs(stopped_file(sysroot_).parent_path());
    std::ofstream out(stopped_file(sysroot_), std::ios::app);
    for (const auto& u : units)
        out << u << (&u == &units.back() ? "\n" : " ");
}

} // namespace bootbench::sys
