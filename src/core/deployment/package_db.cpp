#include "core/deployment/package_db.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"

#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace bootbench::core {

namespace {

struct Package {
    std::string name, version, arch;
};

// rpm -qa's names; a name installed for several architectures (glibc.i686
// beside glibc.x86_64) keeps one key, each version with its arch as in a
// NEVRA, so that adding the second arch is a change, not a new name.
FactMap rpm_versions(const std::vector<Package>& rows) {
    std::map<std::string, std::set<std::string>> arches;
    for (const Package& p : rows)
        arches[p.name].insert(p.arch);
    FactMap out;
    for (const Package& p : rows)
        add_fact(out, p.name, arches[p.name].size() > 1 ? p.version + "." + p.arch : p.version);
    return out;
}

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r");
    size_t e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

[[noreturn]] void damaged(const std::string& file, int line, const std::string& what) {
    throw Error(
        file + ":" + std::to_string(line) + ": " + what +
        "; the dpkg status file is damaged (`dpkg --audit` on that tree, or its status-old)");
}

// One stanza of the status file: its fields and the line it starts on.
struct Stanza {
    int line = 0;
    std::map<std::string, std::string> fields;
};

// Whether the Status field's state ("install ok installed": the third word)
// means the package's files are on disk.
bool on_disk(const std::string& status) {
    std::istringstream words(status);
    std::string want, flag, state;
    words >> want >> flag >> state;
    return !state.empty() && state != "not-installed" && state != "config-files";
}

void take_stanza(const Stanza& s, const std::string& file, std::vector<Package>& rows) {
    if (s.fields.empty())
        return;
    auto field = [&](const char* name) {
        auto it = s.fields.find(name);
        return it == s.fields.end() ? std::string() : it->second;
    };
    if (field("Package").empty())
        damaged(file, s.line, "a stanza without a Package field");
    if (field("Status").empty())
        damaged(file, s.line, "package '" + printable(field("Package")) + "' has no Status field");
    if (!on_disk(field("Status")))
        return;
    if (field("Version").empty())
        damaged(file, s.line,
                "installed package '" + printable(field("Package")) + "' has no Version field");
    // dpkg-query's ${binary:Package}: "Multi-Arch: same" packages carry their arch.
    bool same = field("Multi-Arch") == "same";
    rows.push_back(
        {field("Package") + (same ? ":" + field("Architecture") : ""), field("Version"), ""});
}

void take_line(const std::string& line, int number, const std::string& file, Stanza& s) {
    if (line[0] == ' ' || line[0] == '\t') {
        if (s.fields.empty())
            damaged(file, number, "a continuation line outside a field: '" + printable(line) + "'");
        return; // a multi-line field's further lines: no field read here needs them
    }
    size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0)
        damaged(file, number,
                "a line that is neither 'Field: value' nor a continuation: '" + printable(line) +
                    "'");
    if (s.fields.empty())
        s.line = number;
    s.fields[line.substr(0, colon)] = trim(line.substr(colon + 1));
}

} // namespace

FactMap parse_dpkg_status(const std::string& text, const std::string& file) {
    std::vector<Package> rows;
    Stanza stanza;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (trim(line).empty()) {
            take_stanza(stanza, file, rows);
            stanza = {};
            continue;
        }
        take_line(line, number, file, stanza);
    }
    take_stanza(stanza, file, rows);
    FactMap out;
    for (const Package& p : rows)
        add_fact(out, p.name, p.version);
    return out;
}

FactMap parse_rpm_query(const std::string& out, const std::string& where) {
    std::vector<Package> rows;
    std::istringstream in(out);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        std::vector<std::string> cols;
        std::istringstream fields(line);
        for (std::string col; std::getline(fields, col, '\t');)
            cols.push_back(col);
        if (cols.size() != 3 || cols[0].empty() || cols[1].empty())
            throw Error(where + ":" + std::to_string(number) +
                        ": expected NAME<TAB>VERSION-RELEASE<TAB>ARCH, got '" + printable(line) +
                        "'; is this rpm's output for --qf '" + kRpmQueryFormat + "'?");
        rows.push_back({cols[0], cols[1], cols[2]});
    }
    return rpm_versions(rows);
}

} // namespace bootbench::core
