#include "sys/probe/rapl.hpp"

#include "core/bench/parsers.hpp"
#include "sys/probe/probes.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace bootbench::sys {

namespace {

// intel-rapl:0, not intel-rapl:0:0 (a core or uncore subzone).
bool is_package_zone(const fs::path& dir) {
    std::string name = dir.filename().string();
    return name.find(':') == name.rfind(':');
}

// The counter file's number, or why not ("<file>: Permission denied").
std::string read_counter(const fs::path& file, uint64_t& value) {
    errno = 0;
    std::ifstream in(file);
    if (!in)
        return "cannot read " + file.string() + ": " +
               (errno ? std::strerror(errno) : "unreadable");
    std::string text;
    in >> text;
    auto n = core::parse_number(text);
    if (!n)
        return file.string() + " holds '" + text.substr(0, 40) + "', not a number of microjoules";
    value = static_cast<uint64_t>(*n);
    return "";
}

std::string read_zone(const fs::path& zone, core::RaplReading& out) {
    out.zone = zone.filename().string();
    std::string problem = read_counter(zone / "energy_uj", out.energy_uj);
    return problem.empty() ? read_counter(zone / "max_energy_range_uj", out.max_range_uj) : problem;
}

} // namespace

RaplMeter::RaplMeter(const fs::path& root) {
    fs::path dir = root / "sys/class/powercap";
    for (const auto& zone : probe_dirs(dir, "intel-rapl:"))
        if (is_package_zone(zone))
            zones_.push_back(zone);
    if (zones_.empty())
        problem_ = dir.string() + " has no intel-rapl package zone";
    else
        problem_ = read().problem;
}

std::string RaplMeter::describe() const {
    if (!available())
        return "no RAPL: " + problem_;
    std::string s = "RAPL:";
    for (const auto& z : zones_)
        s += " " + z.filename().string() + " (" + read_probe(z / "name").value_or("?") + ")";
    return s;
}

core::RaplSnapshot RaplMeter::read() const {
    core::RaplSnapshot snap;
    for (const auto& z : zones_) {
        core::RaplReading r;
        snap.problem = read_zone(z, r);
        if (!snap.problem.empty())
            return snap;
        snap.zones.push_back(r);
    }
    return snap;
}

} // namespace bootbench::sys
