#include "core/deployment/tree_facts.hpp"

#include "core/base/json_read.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace bootbench::core {

namespace {

std::set<std::string> split_joined(const std::string& text) {
    std::set<std::string> out;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find(", ", at);
        out.insert(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
        at = end == std::string::npos ? text.size() : end + 2;
    }
    return out;
}

std::string joined(const std::set<std::string>& values) {
    std::string out;
    for (const std::string& v : values)
        out += (out.empty() ? "" : ", ") + v;
    return out;
}

nlohmann::json map_json(const FactMap& m) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [key, value] : m)
        j[key] = value;
    return j;
}

FactMap map_from(const JsonReader& r, const char* key) {
    FactMap out;
    for (const auto& [name, value] : r.object(key).items()) {
        if (!value.is_string())
            r.fail(std::string("field '") + key + "' must map names to strings ('" + name +
                   "' does not)");
        out[name] = value.get<std::string>();
    }
    return out;
}

nlohmann::json kernel_json(const KernelFacts& k) {
    return {{"version", k.version}, {"config", map_json(k.config)}, {"problem", k.problem}};
}

KernelFacts kernel_from(const JsonReader& r) {
    return {r.str("version"), map_from(r, "config"), r.str("problem")};
}

} // namespace

void add_fact(FactMap& map, const std::string& key, const std::string& value) {
    auto it = map.find(key);
    if (it == map.end()) {
        map[key] = value;
        return;
    }
    std::set<std::string> values = split_joined(it->second);
    values.insert(value);
    it->second = joined(values);
}

bool version_less(const std::string& a, const std::string& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        bool digits = std::isdigit(static_cast<unsigned char>(a[i])) &&
                      std::isdigit(static_cast<unsigned char>(b[j]));
        if (!digits) {
            if (a[i] != b[j])
                return a[i] < b[j];
            ++i, ++j;
            continue;
        }
        size_t ie = a.find_first_not_of("0123456789", i), je = b.find_first_not_of("0123456789", j);
        std::string x = a.substr(i, ie - i), y = b.substr(j, je - j);
        x.erase(0, std::min(x.find_first_not_of('0'), x.size()));
        y.erase(0, std::min(y.find_first_not_of('0'), y.size()));
        if (x.size() != y.size() || x != y)
            return x.size() != y.size() ? x.size() < y.size() : x < y;
        i = ie == std::string::npos ? a.size() : ie;
        j = je == std::string::npos ? b.size() : je;
    }
    return a.size() - i < b.size() - j;
}

nlohmann::json to_json(const TreeFacts& f) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const KernelFacts& k : f.kernels)
        kernels.push_back(kernel_json(k));
    nlohmann::json packages = {{"source", f.packages.source},
                               {"unknown", f.packages.unknown},
                               {"versions", map_json(f.packages.versions)}};
    return {{"kernels", kernels},
            {"packages", packages},
            {"units", map_json(f.units)},
            {"sysctl", map_json(f.sysctl)},
            {"warnings", f.warnings}};
}

TreeFacts tree_facts_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    TreeFacts f;
    for (const nlohmann::json& k : r.array("kernels"))
        f.kernels.push_back(kernel_from(r.child(k, "kernels")));
    JsonReader p = r.child(r.object("packages"), "packages");
    f.packages = {p.str("source"), p.str("unknown"), map_from(p, "versions")};
    f.units = map_from(r, "units");
    f.sysctl = map_from(r, "sysctl");
    f.warnings = r.strings("warnings");
    return f;
}

} // namespace bootbench::core
