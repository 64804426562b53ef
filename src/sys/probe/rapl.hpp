#pragma once
// RAPL package energy counters under <root>/sys/class/powercap: the
// intel-rapl:N zones (not their intel-rapl:N:M subzones), which the kernel
// also exposes on AMD. Their energy_uj is root-only since Linux 5.10.
#include "core/bench/energy.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace bootbench::sys {

class RaplMeter {
public:
    // Finds the package zones and reads them once: a machine without them,
    // or with unreadable ones, has no meter (see available(), why()).
    explicit RaplMeter(const std::filesystem::path& root);

    bool available() const { return problem_.empty(); }
    // For the result's environment.energy: "RAPL: intel-rapl:0 (package-0)"
    // or "no RAPL: <why>".
    std::string describe() const;
    // Every package zone now; a snapshot with its problem set when one fails.
    core::RaplSnapshot read() const;

private:
    std::vector<std::filesystem::path> zones_;
    std::string problem_;
};

} // namespace bootbench::sys
