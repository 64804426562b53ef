#include "core/host/idle_suspend.hpp"
#include "core/host/doctor_check.hpp"

#include <sstream>

namespace bootbench::core {

namespace {

const char* kPowerSchema = "org.gnome.settings-daemon.plugins.power";
const char* kPowerPath = "org/gnome/settings-daemon/plugins/power";

std::string trimmed(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r");
    size_t e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// A GVariant text value as dconf and overrides write it: 'suspend' -> suspend.
std::string unquoted(std::string v) {
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
        return v.substr(1, v.size() - 2);
    if (v.rfind("uint32 ", 0) == 0 || v.rfind("int32 ", 0) == 0)
        return v.substr(v.find(' ') + 1);
    return v;
}

// Later files override earlier ones; `from` keeps the last that set it.
void apply(SettingFrom& s, const ConfText& file, const std::string& group, const std::string& key) {
    if (auto v = ini_value(file.text, group, key))
        s = {unquoted(*v), file.path};
}

bool suspends(const std::string& action) {
    return action == "suspend" || action == "hibernate" || action == "hybrid-sleep" ||
           action == "suspend-then-hibernate" || action == "poweroff" || action == "shutdown";
}

std::string logind_problem(const IdleSuspendFacts& f) {
    SettingFrom action = logind_setting(f.logind, "IdleAction", "ignore");
    if (!suspends(action.value))
        return "";
    SettingFrom after = logind_setting(f.logind, "IdleActionSec", "30min");
    return "logind IdleAction=" + action.value + " (" + action.path + ") after IdleActionSec=" + after.value + " (" +
           after.path + ")";
}

std::string gdm_problem(const IdleSuspendFacts& f) {
    if (!f.gdm)
        return "";
    SettingFrom type = gdm_power_setting(f, "sleep-inactive-ac-type");
    SettingFrom timeout = gdm_power_setting(f, "sleep-inactive-ac-timeout");
    if (!suspends(type.value) || timeout.value == "0" || timeout.value.empty())
        return "";
    return "the GDM login screen does '" + type.value + "' after " + timeout.value + " s idle on AC (" +
           std::string(kPowerSchema) + " sleep-inactive-ac-type from " + type.path +
           ", sleep-inactive-ac-timeout from " + timeout.path + "; the gdm user's own dconf database is not read)";
}

} // namespace

std::optional<std::string> ini_value(const std::string& text, const std::string& group, const std::string& key) {
    std::optional<std::string> value;
    std::istringstream in(text);
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        line = trimmed(line);
        if (line.empty() || line[0] == '#' || line[0] == ';')
            continue;
        if (line[0] == '[') {
            inside = line == "[" + group + "]";
            continue;
        }
        size_t eq = line.find('=');
        if (inside && eq != std::string::npos && trimmed(line.substr(0, eq)) == key)
            value = trimmed(line.substr(eq + 1));
    }
    return value;
}

SettingFrom logind_setting(const std::vector<ConfText>& files, const std::string& key, const std::string& fallback) {
    SettingFrom s{fallback, "systemd's default"};
    for (const auto& f : files)
        apply(s, f, "Login", key);
    return s;
}

std::optional<std::string> schema_default(const std::string& xml, const std::string& key) {
    size_t at = xml.find("name=\"" + key + "\"");
    if (at == std::string::npos)
        return std::nullopt;
    size_t open = xml.find("<default>", at), close = xml.find("</default>", at);
    if (open == std::string::npos || close == std::string::npos || close < open)
        return std::nullopt;
    return unquoted(trimmed(xml.substr(open + 9, close - open - 9)));
}

SettingFrom gdm_power_setting(const IdleSuspendFacts& f, const std::string& key) {
    SettingFrom s{"", "nowhere"};
    if (auto d = schema_default(f.power_schema.text, key))
        s = {*d, "the schema's default"};
    for (const auto& o : f.schema_overrides)
        apply(s, o, kPowerSchema, key);
    for (const auto& k : f.gdm_dconf)
        apply(s, k, kPowerPath, key);
    return s;
}

DoctorCheck check_idle_suspend(const IdleSuspendFacts& f) {
    std::string logind = logind_problem(f), gdm = gdm_problem(f);
    if (logind.empty() && gdm.empty())
        return {"idle-suspend", CheckStatus::ok, "no idle suspend configured (logind IdleAction, GDM)", ""};
    std::string said = logind + (logind.empty() || gdm.empty() ? "" : "; ") + gdm;
    std::string fix_logind = "a drop-in /etc/systemd/logind.conf.d/90-bootbench.conf with [Login] IdleAction=ignore";
    std::string fix_gdm = "a keyfile /etc/dconf/db/gdm.d/90-bootbench with [" + std::string(kPowerPath) +
                          "] sleep-inactive-ac-type='nothing', then 'sudo dconf update'";
    return {"idle-suspend", CheckStatus::warn,
            "the machine suspends when idle: " + said +
                ". bootbench blocks sleep and idle while a boot's work runs, not before its unit starts nor "
                "after a failure",
            "for an unattended machine: " + (logind.empty() ? "" : fix_logind) +
                (logind.empty() || gdm.empty() ? "" : "; ") + (gdm.empty() ? "" : fix_gdm)};
}

} // namespace bootbench::core
