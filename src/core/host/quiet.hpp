#pragma once
// A quiet machine overnight: the update, trim and indexing timers that Fedora
// Atomic, Universal Blue and bootc images run on their own. They steal CPU
// during a run and can stage an update between runs, so each boot stops them
// with runtime masks (gone at the next boot: nothing to undo on abort).
#include "core/host/gate.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// What `[conditions] stop_units` means when the file does not say.
const std::vector<std::string>& default_stop_units();

// The units to stop: the file's list, or the default one.
std::vector<std::string> stop_units_of(const std::optional<std::vector<std::string>>& configured);

// The unit names in `systemctl list-unit-files --no-legend` output (first column).
std::vector<std::string> parse_unit_files(const std::string& listing);

// `wanted` split into the units this host has and the ones it lacks.
struct UnitPresence {
    std::vector<std::string> present, absent;
};
UnitPresence presence_of(const std::vector<std::string>& wanted, const std::vector<std::string>& listed);

// The units named by `systemctl show --property=Triggers --value -- TIMERS`
// (each timer's Triggers=, space-separated, one line per timer), once each.
std::vector<std::string> parse_triggers(const std::string& show_output);

// The units that are running in `systemctl show --property=Id,ActiveState
// -- UNITS` output (KEY=value lines, a blank line between units): active,
// or activating (a Type=oneshot service at work, as uupd.service is),
// deactivating, reloading.
std::vector<std::string> parse_running(const std::string& show_output);

// One boot's stop: the timers, what they start (systemd's Triggers=), which
// of those were already running, and why stopping failed ("" when it did not).
struct QuietStop {
    UnitPresence units;
    std::vector<std::string> started;
    std::vector<std::string> running;
    std::string error;
};

// The gate record of one boot: which units were stopped, which this host
// lacks, or why stopping failed (a failure is recorded, the run goes on).
// A service already running (an update during the boot) flags the run.
ConditionRecord quiet_record(const QuietStop& stop);
ConditionRecord quiet_record(const UnitPresence& units, const std::string& error);

// The timers that can stage a new deployment between two runs.
const std::vector<std::string>& automatic_updaters();

// What `plan` says of it: which units each boot stops, which this host
// lacks, and the automatic updaters left running. `listed`: the unit files
// this host has among `wanted` and automatic_updaters().
std::string quiet_plan_text(const std::vector<std::string>& wanted, const std::vector<std::string>& listed);

// The automatic-update timers on this host that the experiment leaves running.
std::vector<std::string> updaters_left_running(const std::vector<std::string>& stopped,
                                               const std::vector<std::string>& listed);

} // namespace bootbench::core
