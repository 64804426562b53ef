#include "core/deployment/bls.hpp"

#include <algorithm>
#include <sstream>

namespace bootbench::core {

namespace {

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// True when version a sorts before b.
bool version_less(const std::string& a, const std::string& b) {
    if (all_digits(a) && all_digits(b))
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    return a < b;
}

} // namespace

BlsEntry parse_bls_entry(const std::string& text, const std::string& file) {
    BlsEntry e;
    e.file = file;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        auto start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#')
            continue;
        auto space = line.find_first_of(" \t", start);
        std::string key = line.substr(start, space - start);
        std::string value;
        if (space != std::string::npos) {
            auto vstart = line.find_first_not_of(" \t", space);
            value = vstart == std::string::npos ? "" : line.substr(vstart);
        }
        if (key == "title") e.title = value;
        else if (key == "version") e.version = value;
        else if (key == "linux") e.linux_path = value;
        else if (key == "initrd") e.initrd = value;
        else if (key == "options") e.options = value;
    }
    return e;
}

std::optional<BlsEntry> default_entry(const std::vector<BlsEntry>& entries) {
    if (entries.empty())
        return std::nullopt;
    return *std::max_element(entries.begin(), entries.end(), [](const BlsEntry& a, const BlsEntry& b) {
        return version_less(a.version, b.version);
    });
}

std::string ostree_karg(const std::string& options) {
    std::istringstream in(options);
    std::string word;
    while (in >> word)
        if (word.rfind("ostree=", 0) == 0)
            return word.substr(7);
    return "";
}

} // namespace bootbench::core
