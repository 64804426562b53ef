#include "sys/probe/conditions_gate.hpp"

#include "core/base/error.hpp"
#include "core/host/quiet.hpp"
#include "sys/clock.hpp"
#include "sys/probe/probes.hpp"
#include "sys/probe/quiet_units.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/store/user_lines.hpp"

#include <algorithm>

namespace bootbench::sys {

namespace {

// A condition that only says "run" is kept for the one summary line the
// suite writes (and the result); one that waits, sets, flags or fails is
// said at once, in full.
void note(GateOutcome& out, const core::ConditionRecord& r) {
    if (r.decision != core::ConditionDecision::run)
        say("conditions: " + core::log_line(r));
    out.records.push_back(r);
}

// Sleeps in short steps so that SIGINT/SIGTERM end a long wait.
void sleep_watched(Clock& clock, double seconds, const InterruptWatch* watch,
                   const std::string& doing) {
    while (seconds > 0) {
        if (watch)
            watch->throw_if_interrupted(doing);
        double step = std::min(seconds, kTempPollSeconds);
        clock.sleep_s(step);
        seconds -= step;
    }
}

bool fails(GateOutcome& out, const core::GateDecision& d) {
    note(out, d.record);
    if (d.action == core::GateAction::fail)
        out.failure = std::string("conditions: ") + core::to_string(d.record.check) + ": " + d.record.detail;
    return !out.failure.empty();
}

bool pass_governor(const core::Conditions& c, Sensors& sensors, GateOutcome& out) {
    auto d = core::decide_governor(c, sensors.governors());
    if (fails(out, d) || d.action != core::GateAction::set)
        return out.failure.empty();
    try {
        out.governor = std::make_unique<GovernorOverride>(sensors, c.governor);
    } catch (const Error& e) {
        core::ConditionRecord r{core::ConditionCheck::governor_set, c.governor, "unchanged",
                                core::ConditionDecision::fail, e.what()};
        note(out, r);
        out.failure = std::string("conditions: ") + core::to_string(r.check) + ": " + e.what();
        return false;
    }
    return !fails(out, core::verify_governor(c, sensors.governors()));
}

void pass_temperature(const core::Conditions& c, Sensors& sensors, Clock& clock,
                      const InterruptWatch* watch, GateOutcome& out) {
    double start = clock.monotonic_s();
    double last_logged = -1e9;
    for (;;) {
        auto reading = sensors.cpu_temperature();
        double waited = clock.monotonic_s() - start;
        auto d = core::decide_temperature(
            c, reading ? std::optional<double>(reading->celsius) : std::nullopt, waited);
        if (reading)
            d.record.found += " (" + reading->sensor + ")";
        if (d.action != core::GateAction::wait) {
            out.start_temp = reading;
            fails(out, d);
            return;
        }
        if (waited - last_logged >= 60) { // the waiting itself is logged once a minute
            say("conditions: " + core::log_line(d.record));
            last_logged = waited;
        }
        double left = c.temp_wait_timeout_s - waited;
        sleep_watched(clock, std::min(kTempPollSeconds, std::max(left, 0.001)), watch,
                      "waiting for the CPU to cool");
    }
}

// The timers present, what they start, which of those run now; then all of
// them stopped. Throws bootbench::Error when systemctl fails.
void stop_quietly(UnitControl& units, const std::vector<std::string>& wanted, core::QuietStop& stop) {
    stop.units = core::presence_of(wanted, units.listed(wanted));
    for (const auto& u : units.triggered(stop.units.present))
        if (std::find(wanted.begin(), wanted.end(), u) == wanted.end())
            stop.started.push_back(u);
    stop.running = units.running(stop.started);
    std::vector<std::string> all = stop.units.present;
    all.insert(all.end(), stop.started.begin(), stop.started.end());
    units.stop_until_reboot(all);
}

// A failure to stop them is recorded and flagged; the run goes on. What it
// cost is said: stopping units is part of bootbench's own time per run. A
// service that was already running (an update that began with the boot)
// flags the run and names it among the run's canaries.
void pass_quiet(const core::Conditions& c, UnitControl* units, Clock& clock, GateOutcome& out) {
    std::vector<std::string> wanted = core::stop_units_of(c.stop_units);
    if (!units || wanted.empty())
        return;
    core::QuietStop stop{{{}, wanted}, {}, {}, ""};
    double start = clock.monotonic_s();
    try {
        stop_quietly(*units, wanted, stop);
    } catch (const Error& e) {
        stop.error = e.what();
    }
    core::ConditionRecord r = core::quiet_record(stop);
    r.detail += ", in " + core::format_seconds(clock.monotonic_s() - start);
    out.updates_running = stop.running;
    note(out, r);
}

} // namespace

GateOutcome pass_gate(const core::Conditions& c, const std::filesystem::path& probe_root,
                      Sensors& sensors, Clock& clock, const InterruptWatch* watch, UnitControl* units) {
    GateOutcome out;
    pass_quiet(c, units, clock, out);
    auto settle = core::decide_settle(c.settle_s, clock.since_boot_s());
    note(out, settle.record);
    sleep_watched(clock, settle.wait_s, watch, "settling after boot");
    auto sched_ext =
        core::decide_sched_ext(c, read_probe(probe_root / "sys/kernel/sched_ext/state"),
                               read_probe(probe_root / "sys/kernel/sched_ext/root/ops"));
    if (fails(out, sched_ext) || !pass_governor(c, sensors, out))
        return out;
    pass_temperature(c, sensors, clock, watch, out);
    if (out.failure.empty())
        if (auto band = core::start_band_record(
                c, out.start_temp ? std::optional<double>(out.start_temp->celsius) : std::nullopt))
            note(out, *band);
    return out;
}

} // namespace bootbench::sys
