#include "core/host/quiet.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string_view>

namespace bootbench::core {

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

std::string joined(const std::vector<std::string>& v) {
    return v.empty() ? "none" : join(v, ", ");
}

} // namespace

const std::vector<std::string>& automatic_updaters() {
    static const std::vector<std::string> units = {"uupd.timer", "rpm-ostreed-automatic.timer",
                                                   "bootc-fetch-apply-updates.timer"};
    return units;
}

std::string quiet_plan_text(const std::vector<std::string>& wanted, const std::vector<std::string>& listed) {
    if (wanted.empty())
        return "quiet machine: [conditions] stop_units = [] stops nothing\n";
    UnitPresence p = presence_of(wanted, listed);
    std::string s = "quiet machine: each boot stops these until the next boot, before settling:\n"
                    "  on this host: " + joined(p.present) + "\n  not on this host: " + joined(p.absent) + "\n";
    std::vector<std::string> left = updaters_left_running(wanted, listed);
    if (!left.empty())
        s += "  warning: " + joined(left) + " can stage an update during the experiment; add " +
             (left.size() == 1 ? "it" : "them") + " to [conditions] stop_units\n";
    return s;
}

const std::vector<std::string>& default_stop_units() {
    static const std::vector<std::string> units = {
        "uupd.timer", "rpm-ostreed-automatic.timer", "bootc-fetch-apply-updates.timer",
        "flatpak-system-update.timer", "fstrim.timer", "plocate-updatedb.timer", "man-db.timer",
        // Universal Blue: Homebrew's own updates, and uupd's predecessor
        "brew-update.timer", "brew-upgrade.timer", "ublue-update.timer",
        // a Persistent timer that fires in a boot's first minutes
        "systemd-tmpfiles-clean.timer"};
    return units;
}

std::vector<std::string> stop_units_of(const std::optional<std::vector<std::string>>& configured) {
    return configured ? *configured : default_stop_units();
}

std::vector<std::string> parse_unit_files(const std::string& listing) {
    std::vector<std::string> names;
    std::istringstream in(listing);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string first;
        if (words >> first && is_stoppable_unit_name(first))
            names.push_back(first);
    }
    return names;
}

UnitPresence presence_of(const std::vector<std::string>& wanted, const std::vector<std::string>& listed) {
    UnitPresence p;
    for (const auto& u : wanted)
        (contains(listed, u) ? p.present : p.absent).push_back(u);
    return p;
}

std::vector<std::string> parse_triggers(const std::string& show_output) {
    std::vector<std::string> units;
    std::istringstream words(show_output);
    for (std::string w; words >> w;)
        if (is_stoppable_unit_name(w) && !contains(units, w))
            units.push_back(w);
    return units;
}

std::vector<std::string> parse_running(const std::string& show_output) {
    static const std::vector<std::string> running = {"active", "activating", "deactivating", "reloading"};
    std::vector<std::string> out;
    std::istringstream in(show_output + "\n\n"); // the last unit ends with a blank line too
    std::string id, state;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("Id=", 0) == 0)
            id = line.substr(3);
        else if (line.rfind("ActiveState=", 0) == 0)
            state = line.substr(12);
        else if (line.empty() && !id.empty()) {
            if (contains(running, state))
                out.push_back(id);
            id.clear();
            state.clear();
        }
    }
    return out;
}

namespace {

std::string found_text(const QuietStop& stop) {
    std::string s = "present: " + joined(stop.units.present) + "; absent: " + joined(stop.units.absent);
    if (!stop.started.empty())
        s += "; they start: " + joined(stop.started) + "; running: " + joined(stop.running);
    return s;
}

} // namespace

ConditionRecord quiet_record(const QuietStop& stop) {
    std::vector<std::string> all = stop.units.present;
    all.insert(all.end(), stop.units.absent.begin(), stop.units.absent.end());
    ConditionRecord r{ConditionCheck::quiet, "stop " + joined(all), found_text(stop), ConditionDecision::run, ""};
    if (!stop.error.empty()) {
        r.decision = ConditionDecision::run_flagged;
        r.detail = "could not stop them: " + stop.error;
    } else if (!stop.running.empty()) {
        r.decision = ConditionDecision::run_flagged;
        r.detail = "stopped, masked until the next boot; " + joined(stop.running) +
                   (stop.running.size() == 1 ? " was" : " were") + " already running at this boot";
    } else {
        r.detail = stop.units.present.empty() ? "nothing to stop" : "stopped, masked until the next boot";
    }
    return r;
}

ConditionRecord quiet_record(const UnitPresence& units, const std::string& error) {
    return quiet_record(QuietStop{units, {}, {}, error});
}

std::vector<std::string> updaters_left_running(const std::vector<std::string>& stopped,
                                               const std::vector<std::string>& listed) {
    std::vector<std::string> left;
    for (const auto& u : automatic_updaters())
        if (contains(listed, u) && !contains(stopped, u))
            left.push_back(u);
    return left;
}

} // namespace bootbench::core
