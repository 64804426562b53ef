#include "core/deployment/systemd_conf.hpp"

#include "core/base/text.hpp"
#include "core/deployment/resolve.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

namespace bootbench::core {

namespace {

std::string strip(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Each non-blank, non-comment line of `file` stripped, with its number.
template <typename Take> void for_each_setting(const ConfText& file, Take take) {
    std::istringstream in(file.text);
    std::string raw;
    for (int number = 1; std::getline(in, raw); ++number) {
        std::string line = strip(raw);
        if (!line.empty() && line[0] != '#' && line[0] != ';')
            take(line, file.path + ":" + std::to_string(number));
    }
}

void take_sysctl(const std::string& line, const std::string& where, FactMap& out,
                 std::vector<std::string>& warnings) {
    size_t eq = line.find('=');
    bool negative = line[0] == '-';
    if (eq == std::string::npos && !negative) {
        warnings.push_back(where + ": not an assignment, ignored as systemd-sysctl does: '" +
                           printable(line) + "'");
        return;
    }
    std::string key = sysctl_key(
        strip(line.substr(negative ? 1 : 0, eq == std::string::npos ? eq : eq - negative)));
    if (eq == std::string::npos)
        out.erase(key);
    else
        out[key] = strip(line.substr(eq + 1));
}

struct PresetRule {
    bool enable = false;
    std::string pattern;
    std::vector<std::string> instances;
};

std::optional<PresetRule> preset_rule(const std::string& line, const std::string& where,
                                      std::vector<std::string>& warnings) {
    std::istringstream words(line);
    std::string verb, pattern;
    words >> verb >> pattern;
    if ((verb != "enable" && verb != "disable" && verb != "ignore") || pattern.empty()) {
        warnings.push_back(
            where +
            ": not 'enable', 'disable' or 'ignore' with a unit, ignored as systemctl does: '" +
            printable(line) + "'");
        return std::nullopt;
    }
    PresetRule rule{verb == "enable", pattern, {}};
    for (std::string instance; words >> instance;)
        rule.instances.push_back(instance);
    return rule;
}

// The units `rule` (the first to match `unit`) enables.
std::vector<std::string> enabled_by(const PresetRule& rule, const std::string& unit) {
    if (!rule.enable)
        return {};
    if (!is_template_unit(unit))
        return {unit};
    std::vector<std::string> out;
    size_t at = unit.find('@');
    for (const std::string& instance : rule.instances)
        out.push_back(unit.substr(0, at + 1) + instance + unit.substr(at + 1));
    return out;
}

} // namespace

std::vector<ConfFile> conf_files_in_order(const std::vector<ConfFile>& found) {
    std::map<std::string, ConfFile> by_name;
    for (const ConfFile& f : found) {
        auto it = by_name.find(f.name);
        if (it == by_name.end() || f.rank < it->second.rank)
            by_name[f.name] = f;
    }
    std::vector<ConfFile> out;
    for (const auto& [name, f] : by_name)
        out.push_back(f);
    return out;
}

std::string sysctl_key(const std::string& key) {
    std::string k = key;
    size_t first = k.find_first_of("/.");
    if (first != std::string::npos &&
        k[first] == '/') // "a/b.c": swap to the dotted way of writing it
        for (size_t i = first; i < k.size(); ++i)
            k[i] = k[i] == '/' ? '.' : k[i] == '.' ? '/' : k[i];
    std::string out;
    for (char c : k)
        if (!(c == '.' && (out.empty() || out.back() == '.')))
            out += c;
    while (!out.empty() && out.back() == '.')
        out.pop_back();
    return out;
}

FactMap effective_sysctl(const std::vector<ConfText>& files, std::vector<std::string>& warnings) {
    FactMap out;
    for (const ConfText& f : files)
        for_each_setting(f, [&](const std::string& line, const std::string& where) {
            take_sysctl(line, where, out, warnings);
        });
    return out;
}

bool is_template_unit(const std::string& unit) {
    size_t at = unit.find('@');
    return at != std::string::npos && unit.find('.', at) == at + 1;
}

std::vector<std::string> preset_enabled(const std::vector<ConfText>& presets,
                                        const std::vector<std::string>& units,
                                        std::vector<std::string>& warnings) {
    std::vector<PresetRule> rules;
    for (const ConfText& f : presets)
        for_each_setting(f, [&](const std::string& line, const std::string& where) {
            if (std::optional<PresetRule> rule = preset_rule(line, where, warnings))
                rules.push_back(*rule);
        });
    std::vector<std::string> out;
    for (const std::string& unit : units) {
        auto rule = std::find_if(rules.begin(), rules.end(),
                                 [&](const PresetRule& r) { return glob_match(r.pattern, unit); });
        if (rule != rules.end())
            for (const std::string& u : enabled_by(*rule, unit))
                out.push_back(u);
    }
    return out;
}

} // namespace bootbench::core
