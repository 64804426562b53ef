#pragma once
// Package energy of each bench from RAPL counters (powercap intel-rapl:N
// zones, also on AMD): the energy counters read before and after a bench,
// as <bench>_energy_j and <bench>_power_w (energy / the bench's wall time).
#include "core/bench/parsers.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace bootbench::core {

struct RaplReading {
    std::string zone; // "intel-rapl:0"
    uint64_t energy_uj = 0;
    uint64_t max_range_uj = 0; // where energy_uj wraps to 0
};

// The package zones read at one moment; `problem` says why they could not
// be read ("" when they were).
struct RaplSnapshot {
    std::vector<RaplReading> zones;
    std::string problem;
};

// Microjoules between two readings of one counter that wraps at max_range_uj
// (at most one wrap: a bench would need hours at 100 W for two).
uint64_t rapl_delta_uj(uint64_t before, uint64_t after, uint64_t max_range_uj);

// The bench's energy summed over every package, and its average power; both
// missing, with why, when a snapshot failed or the zones do not match.
BenchMetrics energy_metrics(const std::string& bench, const RaplSnapshot& before,
                            const RaplSnapshot& after, double wall_s);

} // namespace bootbench::core
