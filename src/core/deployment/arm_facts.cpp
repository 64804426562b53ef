#include "core/deployment/arm_facts.hpp"

#include "core/base/json_read.hpp"

namespace bootbench::core {

namespace {

nlohmann::json arm_json(const ArmFacts& a) {
    nlohmann::json j = {{"target", a.target}, {"deployment", a.deployment}, {"problems", a.problems}};
    j["kernel_options"] = a.kernel_options ? nlohmann::json(*a.kernel_options) : nlohmann::json(nullptr);
    j["tree"] = a.tree ? to_json(*a.tree) : nlohmann::json(nullptr);
    return j;
}

ArmFacts arm_from(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    ArmFacts a{r.str("target"), r.str("deployment"), std::nullopt, std::nullopt, r.strings("problems")};
    if (r.has("kernel_options"))
        a.kernel_options = r.str("kernel_options");
    if (r.has("tree"))
        a.tree = tree_facts_from_json(r.object("tree"), where + ": tree");
    return a;
}

} // namespace

nlohmann::json arms_to_json(const std::vector<ArmFacts>& arms) {
    nlohmann::json list = nlohmann::json::array();
    for (const ArmFacts& a : arms)
        list.push_back(arm_json(a));
    return {{"schema", kArmsSchema}, {"arms", list}};
}

std::vector<ArmFacts> arms_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    if (r.str("schema") != kArmsSchema)
        r.fail("schema '" + r.str("schema") + "' is not " + kArmsSchema +
               "; a newer bootbench wrote it: report with that version");
    std::vector<ArmFacts> out;
    size_t i = 0;
    for (const nlohmann::json& a : r.array("arms"))
        out.push_back(arm_from(a, where + ": arms[" + std::to_string(i++) + "]"));
    return out;
}

} // namespace bootbench::core
