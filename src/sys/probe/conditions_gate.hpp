#pragma once
// The conditions gate before each run: settle after boot, sched_ext,
// governor (checked or set), then wait for the CPU to cool. The decisions
// are core/host/gate's; this file waits, reads and writes.
#include "core/experiment/experiment.hpp"
#include "core/host/gate.hpp"
#include "sys/probe/sensors.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::sys {

class UnitControl;

class Clock;
class InterruptWatch;

struct GateOutcome {
    std::vector<core::ConditionRecord> records; // in order; each was logged
    std::string failure;                        // why the run cannot go on; "" = go
    std::optional<TempReading> start_temp;
    std::unique_ptr<GovernorOverride> governor; // restores the governor when the run is done
    std::vector<std::string> updates_running;   // started by a stopped timer, running when stopped
};

// How often the temperature is read while waiting for the CPU to cool.
inline constexpr double kTempPollSeconds = 5;

// `watch` (may be null) is checked between sleeps, so that an interruption
// during a long wait is not ignored. `units` (may be null: nothing is
// stopped) stops the host's update and indexing timers first, so that the
// settle time is quiet too.
GateOutcome pass_gate(const core::Conditions& c, const std::filesystem::path& probe_root,
                      Sensors& sensors, Clock& clock, const InterruptWatch* watch,
                      UnitControl* units = nullptr);

} // namespace bootbench::sys
