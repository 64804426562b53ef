#include "core/host/layering.hpp"

#include "core/base/json_read.hpp"

namespace bootbench::core {

namespace {

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}

} // namespace

std::string describe(const Layering& l) {
    std::string s;
    for (const auto& [name, items] : {std::pair{"packages ", &l.packages}, {"removed ", &l.removed},
                                      {"replaced ", &l.replaced}})
        if (!items->empty())
            s += (s.empty() ? "" : "; ") + std::string(name) + joined(*items);
    return s.empty() ? "layered" : s;
}

nlohmann::json to_json(const Layering& l) {
    return {{"packages", l.packages}, {"removed", l.removed}, {"replaced", l.replaced}};
}

Layering layering_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    return {true, r.strings("packages"), r.strings("removed"), r.strings("replaced")};
}

} // namespace bootbench::core
