#pragma once
// Whether the machine is set to suspend when idle: logind's IdleAction= and
// GNOME's login screen (GDM's settings daemon, which suspends after 15 min
// idle on AC by default since Fedora 38). Read from files under a root
// (sys/probe/idle_suspend), judged here for `doctor`: bootbench holds a
// logind block inhibitor for sleep and idle while a boot's work runs, but
// not in the minutes before the unit starts, nor after a failure.
#include "core/host/doctor_check.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// One configuration file as read: its path (for the message) and its text.
struct ConfText {
    std::string path;
    std::string text;
};

struct IdleSuspendFacts {
    // logind.conf, then its drop-ins in the order systemd applies them
    // (sorted by file name, a later one overrides an earlier one).
    std::vector<ConfText> logind;
    bool gdm = false; // GDM is installed (its unit file)
    // The power plugin's schema XML (empty path: not installed), then its
    // *.gschema.override files in name order.
    ConfText power_schema;
    std::vector<ConfText> schema_overrides;
    // The keyfiles of GDM's dconf profile's system databases, lowest
    // precedence first (distro.d, site.d, local.d, gdm.d; each in name order).
    std::vector<ConfText> gdm_dconf;
};

// A setting's value and the file it came from.
struct SettingFrom {
    std::string value;
    std::string path; // "systemd's default", "the schema's default", or a file
};

// `key` of `group` in an ini-style text ("[Login]", "IdleAction=suspend"),
// the last assignment winning; nullopt when the text does not set it.
std::optional<std::string> ini_value(const std::string& text, const std::string& group, const std::string& key);

// logind's IdleAction= and IdleActionSec= as the files set them.
SettingFrom logind_setting(const std::vector<ConfText>& files, const std::string& key, const std::string& fallback);

// The <default> of `key` in a gschema XML; nullopt when absent.
std::optional<std::string> schema_default(const std::string& xml, const std::string& key);

// sleep-inactive-ac-type / -timeout as GDM's greeter sees them.
SettingFrom gdm_power_setting(const IdleSuspendFacts& f, const std::string& key);

// The doctor line: warn, naming each setting that suspends an idle machine.
DoctorCheck check_idle_suspend(const IdleSuspendFacts& f);

} // namespace bootbench::core
