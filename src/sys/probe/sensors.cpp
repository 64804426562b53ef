#include "sys/probe/sensors.hpp"

#include "core/base/error.hpp"
#include "core/bench/parsers.hpp"
#include "sys/probe/probes.hpp"
#include "sys/store/user_lines.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace bootbench::sys {

namespace {

// Sensor drivers in order of preference, and the labels of their CPU input.
constexpr std::array<const char*, 3> kHwmonNames = {"k10temp", "zenpower", "coretemp"};
constexpr std::array<const char*, 2> kThermalTypes = {"x86_pkg_temp", "acpitz"};
constexpr std::array<const char*, 3> kCpuLabels = {"Tctl", "Tdie", "Package id 0"};

std::optional<double> millidegrees(const fs::path& file) {
    auto text = read_probe(file);
    if (!text)
        return std::nullopt;
    auto v = core::parse_number(*text);
    return v ? std::optional<double>(*v / 1000.0) : std::nullopt;
}

// The input labelled as the CPU's (Tctl, Tdie, Package id 0), else temp1.
std::optional<TempReading> hwmon_reading(const fs::path& dir, const std::string& name) {
    for (const char* label : kCpuLabels)
        for (int i = 1; i <= 16; ++i) {
            std::string stem = "temp" + std::to_string(i);
            if (read_probe(dir / (stem + "_label")) != std::optional<std::string>(label))
                continue;
            if (auto c = millidegrees(dir / (stem + "_input")))
                return TempReading{*c, "hwmon " + name + " " + label};
        }
    if (auto c = millidegrees(dir / "temp1_input"))
        return TempReading{*c, "hwmon " + name + " temp1"};
    return std::nullopt;
}

} // namespace

std::optional<TempReading> SysfsSensors::cpu_temperature() {
    auto hwmons = probe_dirs(root_ / "sys/class/hwmon", "hwmon");
    for (const char* wanted : kHwmonNames)
        for (const auto& dir : hwmons)
            if (read_probe(dir / "name") == std::optional<std::string>(wanted))
                if (auto r = hwmon_reading(dir, wanted))
                    return r;
    auto zones = probe_dirs(root_ / "sys/class/thermal", "thermal_zone");
    for (const char* wanted : kThermalTypes)
        for (const auto& dir : zones)
            if (read_probe(dir / "type") == std::optional<std::string>(wanted))
                if (auto c = millidegrees(dir / "temp"))
                    return TempReading{*c, dir.filename().string() + " " + wanted};
    return std::nullopt;
}

std::map<std::string, std::string> SysfsSensors::governors() {
    std::map<std::string, std::string> out;
    for (const auto& dir : probe_dirs(root_ / "sys/devices/system/cpu/cpufreq", "policy"))
        if (auto g = read_probe(dir / "scaling_governor"))
            out[dir.filename().string()] = *g;
    return out;
}

void SysfsSensors::set_governor(const std::string& policy, const std::string& governor) {
    fs::path file = root_ / "sys/devices/system/cpu/cpufreq" / policy / "scaling_governor";
    std::ofstream out(file);
    out << governor << "\n";
    out.flush();
    if (!out)
        throw Error("cannot set the governor: writing '" + governor + "' to " + file.string() +
                    " failed: " + std::strerror(errno) + " (bootbench must run as root to set it)");
}

GovernorOverride::GovernorOverride(Sensors& sensors, const std::string& governor)
    : sensors_(sensors) {
    try {
        for (const auto& [policy, old] : sensors_.governors()) {
            if (old == governor)
                continue;
            sensors_.set_governor(policy, governor);
            changed_[policy] = old;
        }
    } catch (...) {
        restore(); // no destructor runs for a constructor that throws
        throw;
    }
}

GovernorOverride::~GovernorOverride() {
    restore();
}

void GovernorOverride::restore() noexcept {
    for (const auto& [policy, old] : changed_) {
        try {
            sensors_.set_governor(policy, old);
        } catch (const std::exception& e) {
            warn(std::string("cannot restore the governor: ") + e.what());
        }
    }
    changed_.clear();
}

} // namespace bootbench::sys
