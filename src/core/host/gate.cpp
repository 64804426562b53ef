#include "core/host/gate.hpp"

#include <cmath>
#include <cstdio>

namespace bootbench::core {

namespace {

// "performance" when every policy agrees, else "policy0=performance, policy1=powersave".
std::string summarize(const std::map<std::string, std::string>& found) {
    if (found.empty())
        return "no cpufreq";
    bool same = true;
    for (const auto& [policy, gov] : found)
        same = same && gov == found.begin()->second;
    if (same)
        return found.begin()->second;
    std::string s;
    for (const auto& [policy, gov] : found)
        s += (s.empty() ? "" : ", ") + policy + "=" + gov;
    return s;
}

std::string mismatched(const std::map<std::string, std::string>& found, const std::string& wanted) {
    std::string s;
    for (const auto& [policy, gov] : found)
        if (gov != wanted)
            s += (s.empty() ? "" : ", ") + policy;
    return s;
}

GateDecision decision(GateAction action, ConditionRecord record) {
    return {action, std::move(record)};
}

} // namespace

std::string format_celsius(double c) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f C", c);
    return buf;
}

std::string format_seconds(double s) {
    char buf[32];
    if (std::fabs(s - std::round(s)) < 1e-9)
        std::snprintf(buf, sizeof buf, "%.0f s", s);
    else
        std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

SettleDecision decide_settle(int settle_s, double since_boot_s) {
    double wait = std::max(0.0, settle_s - since_boot_s);
    ConditionRecord r{ConditionCheck::settle, format_seconds(settle_s) + " after boot",
                      "booted " + format_seconds(since_boot_s) + " ago", wait > 0 ? ConditionDecision::wait : ConditionDecision::run,
                      ""};
    if (wait > 0)
        r.detail = "waiting " + format_seconds(wait) + " more";
    return {wait, r};
}

GateDecision decide_governor(const Conditions& c, const std::map<std::string, std::string>& found) {
    ConditionRecord r{ConditionCheck::governor, c.governor.empty() ? "any" : c.governor, summarize(found), ConditionDecision::run,
                      ""};
    if (c.governor.empty())
        return decision(GateAction::run, r);
    if (found.empty()) {
        r.detail =
            "no cpufreq policy in /sys/devices/system/cpu/cpufreq: the governor cannot be checked";
        return decision(GateAction::run, r);
    }
    std::string wrong = mismatched(found, c.governor);
    if (wrong.empty())
        return decision(GateAction::run, r);
    if (c.set_governor) {
        r.decision = ConditionDecision::set;
        r.detail = "setting " + c.governor + " on " + wrong +
                   "; the old value is restored after the suite";
        return decision(GateAction::set, r);
    }
    r.decision = ConditionDecision::fail;
    r.detail = "the governor of " + wrong + " is not " + c.governor +
               ": set it before the run (cpupower "
               "frequency-set -g " +
               c.governor + ") or set [conditions] set_governor = true";
    return decision(GateAction::fail, r);
}

GateDecision verify_governor(const Conditions& c, const std::map<std::string, std::string>& found) {
    ConditionRecord r{ConditionCheck::governor_set, c.governor, summarize(found), ConditionDecision::run, ""};
    std::string wrong = mismatched(found, c.governor);
    if (wrong.empty())
        return decision(GateAction::run, r);
    r.decision = ConditionDecision::fail;
    r.detail = "the governor of " + wrong + " did not change to " + c.governor +
               ": check scaling_available_governors";
    return decision(GateAction::fail, r);
}

GateDecision decide_sched_ext(const Conditions& c, const std::optional<std::string>& state,
                              const std::optional<std::string>& ops) {
    std::string found = state ? *state : "no sched_ext";
    if (state && ops && !ops->empty())
        found += " (" + *ops + ")";
    ConditionRecord r{ConditionCheck::sched_ext, c.sched_ext.empty() ? "any" : c.sched_ext, found, ConditionDecision::run, ""};
    if (c.sched_ext.empty() || (state && *state == c.sched_ext))
        return decision(GateAction::run, r);
    if (!state && c.sched_ext == "disabled") {
        r.detail = "this kernel has no sched_ext, so none can be running";
        return decision(GateAction::run, r);
    }
    r.decision = ConditionDecision::fail;
    if (!state)
        r.detail = "this kernel has no sched_ext (/sys/kernel/sched_ext/state is absent): boot a "
                   "kernel with "
                   "CONFIG_SCHED_CLASS_EXT or remove [conditions] sched_ext";
    else if (c.sched_ext == "disabled")
        r.detail =
            "a sched_ext scheduler is running: stop it (e.g. systemctl stop scx_loader) or set "
            "[conditions] sched_ext = \"enabled\"";
    else
        r.detail = "no sched_ext scheduler is running: start one before the run";
    return decision(GateAction::fail, r);
}

GateDecision decide_temperature(const Conditions& c, std::optional<double> temp_c,
                                double waited_s) {
    ConditionRecord r{ConditionCheck::temperature, "<= " + format_celsius(c.max_start_temp_c),
                      temp_c ? format_celsius(*temp_c) : "no sensor", ConditionDecision::run, ""};
    if (!temp_c) {
        r.detail = "no CPU temperature sensor among hwmon k10temp, zenpower, coretemp and thermal "
                   "zones x86_pkg_temp, acpitz: running without waiting to cool";
        return decision(GateAction::run, r);
    }
    if (*temp_c <= c.max_start_temp_c) {
        if (waited_s > 0)
            r.detail = "after waiting " + format_seconds(waited_s) + " to cool";
        return decision(GateAction::run, r);
    }
    if (waited_s < c.temp_wait_timeout_s) {
        r.decision = ConditionDecision::wait;
        r.detail =
            "waited " + format_seconds(waited_s) + " of " + format_seconds(c.temp_wait_timeout_s);
        return decision(GateAction::wait, r);
    }
    std::string why = "the CPU is still above " + format_celsius(c.max_start_temp_c) + " after " +
                      format_seconds(waited_s) + " (temp_wait_timeout_s)";
    if (c.on_temp_timeout == OnTempTimeout::fail) {
        r.decision = ConditionDecision::fail;
        r.detail = why + "; on_temp_timeout = \"fail\": cool the machine or raise max_start_temp_c";
        return decision(GateAction::fail, r);
    }
    r.decision = ConditionDecision::run_flagged;
    r.detail = why + "; on_temp_timeout = \"run\": running anyway, this run is flagged";
    return decision(GateAction::run_flagged, r);
}

std::optional<ConditionRecord> start_band_record(const Conditions& c,
                                                 std::optional<double> temp_c) {
    if (!c.start_temp_band_c)
        return std::nullopt;
    return ConditionRecord{ConditionCheck::start_temp_band,
                           "within " + format_celsius(*c.start_temp_band_c) + " across runs",
                           temp_c ? format_celsius(*temp_c) : "no sensor", ConditionDecision::record,
                           "the report compares the start temperatures of the runs"};
}

} // namespace bootbench::core
