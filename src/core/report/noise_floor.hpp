#pragma once
// The noise floor an A/A comparison shows: when every target ran the same
// system (a sandbox simulation runs every target on this machine's kernel),
// how far from 1.00x the 95% intervals of the bench metrics reach is the
// size of a difference this machine's noise alone makes. Pure.
#include "core/report/report.hpp"

#include <optional>
#include <string>

namespace bootbench::core {

struct NoiseFloor {
    double widest_percent = 0, narrowest_percent = 0;
    std::string widest, narrowest; // the metrics' keys
};

// nullopt when the runs are not an A/A comparison by construction (not a
// sandbox simulation) or no bench metric has an interval.
std::optional<NoiseFloor> noise_floor(const Report& r);
// "On this machine, differences below 14% are noise for these benches: ...".
std::string noise_floor_sentence(const NoiseFloor& f);

} // namespace bootbench::core
