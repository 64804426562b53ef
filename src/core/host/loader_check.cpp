#include "core/host/loader_check.hpp"

#include "core/base/text.hpp"

#include <sstream>

namespace bootbench::core {

namespace {

std::string trimmed(const std::string& s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string base_name(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "BIN: /dir/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by BIN)"
std::string missing_version(const std::string& line) {
    size_t v = line.find(": version `"), end = line.find("' not found");
    if (v == std::string::npos || end == std::string::npos || end < v)
        return "";
    size_t lib = line.rfind(": ", v - 1);
    std::string library = lib == std::string::npos ? line.substr(0, v) : line.substr(lib + 2, v - lib - 2);
    return base_name(library) + " has no symbol version " + line.substr(v + 11, end - v - 11);
}

// "BIN: error while loading shared libraries: libcurl.so.4: cannot open shared object file: ..."
std::string missing_library(const std::string& line) {
    const std::string marker = "error while loading shared libraries: ";
    size_t at = line.find(marker);
    if (at == std::string::npos || line.find(": cannot open shared object file") == std::string::npos)
        return "";
    std::string rest = line.substr(at + marker.size());
    return rest.substr(0, rest.find(": ")) + " is missing";
}

// "BIN: symbol lookup error: BIN: undefined symbol: foo, version X"
std::string missing_symbol(const std::string& line) {
    size_t at = line.find("undefined symbol: ");
    if (at == std::string::npos)
        return "";
    std::string symbol = line.substr(at + 18), version;
    if (size_t comma = symbol.find(", version "); comma != std::string::npos) {
        version = " (version " + symbol.substr(comma + 10) + ")";
        symbol.resize(comma);
    }
    return "symbol " + symbol + version + " is missing";
}

} // namespace

std::vector<LoadedLibrary> parse_loader_list(const std::string& out) {
    std::vector<LoadedLibrary> libs;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        size_t arrow = line.find(" => ");
        if (arrow == std::string::npos)
            continue;
        std::string path = trimmed(line.substr(arrow + 4));
        path = path.rfind("not found", 0) == 0 ? "" : path.substr(0, path.rfind(" ("));
        libs.push_back({trimmed(line.substr(0, arrow)), path});
    }
    return libs;
}

std::string library_outside(const std::vector<LoadedLibrary>& libs, const std::string& root) {
    std::string prefix = root.empty() || root.back() == '/' ? root : root + "/";
    for (const auto& l : libs) {
        if (l.path.empty())
            return l.name + " is missing";
        if (l.path.rfind(prefix, 0) != 0)
            return l.name + " is missing (the loader found only this machine's " + l.path + ")";
    }
    return "";
}

std::string loader_refusal(const std::string& err) {
    std::istringstream in(err);
    std::string first;
    for (std::string line; std::getline(in, line);) {
        for (auto read : {missing_version, missing_library, missing_symbol})
            if (std::string why = read(line); !why.empty())
                return printable(why);
        if (first.empty())
            first = trimmed(line);
    }
    return printable(cap_text(first, 300, "the loader's message"));
}

std::string binary_load_message(const std::string& target, const std::string& deployment,
                                const std::string& problem) {
    return "target '" + target + "': bootbench cannot run in its deployment " + deployment +
           ": with that deployment's own loader and libraries, " + problem +
           ". The one binary runs in every target: build it on the oldest target's release (./bootstrap "
           "in a toolbox of that release) or leave the target out";
}

} // namespace bootbench::core
