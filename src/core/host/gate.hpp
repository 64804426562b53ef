#pragma once
// The conditions gate's decisions, before each run: pure functions from what
// the experiment wants and what the machine shows to what to do, each with
// the record stored in the result's `conditions` array. The waiting, the
// reading of sensors and the setting of the governor happen in sys/.
#include "core/experiment/experiment.hpp"
#include "core/host/condition_record.hpp"

#include <map>
#include <optional>
#include <string>

namespace bootbench::core {

struct SettleDecision {
    double wait_s = 0;
    ConditionRecord record;
};
// `since_boot_s` is measured from boot (CLOCK_BOOTTIME), not from when the unit started.
SettleDecision decide_settle(int settle_s, double since_boot_s);

enum class GateAction { run, wait, set, fail, run_flagged };

struct GateDecision {
    GateAction action = GateAction::run;
    ConditionRecord record;
};

// `found`: cpufreq policy name -> its scaling_governor (empty: no cpufreq).
GateDecision decide_governor(const Conditions& c, const std::map<std::string, std::string>& found);
// After setting: every policy must now show the wanted governor.
GateDecision verify_governor(const Conditions& c, const std::map<std::string, std::string>& found);

// `state`: /sys/kernel/sched_ext/state (nullopt: the kernel has no sched_ext);
// `ops`: the running scheduler's name, for the message.
GateDecision decide_sched_ext(const Conditions& c, const std::optional<std::string>& state,
                              const std::optional<std::string>& ops);

// `temp_c`: the CPU temperature now (nullopt: no sensor); `waited_s`: how
// long the gate has waited for it to cool so far.
GateDecision decide_temperature(const Conditions& c, std::optional<double> temp_c, double waited_s);

// The start band is recorded for the report, which compares runs.
std::optional<ConditionRecord> start_band_record(const Conditions& c, std::optional<double> temp_c);

// "55.0 C", "12 s", "3.5 s".
std::string format_celsius(double c);
std::string format_seconds(double s);

} // namespace bootbench::core
