#include "core/deployment/staging_pins.hpp"

#include "core/base/json_read.hpp"

namespace bootbench::core {

namespace {

bool pinned_now(const DeploymentRef& ref, const std::vector<DeploymentInfo>& now) {
    for (const auto& d : now)
        if (d.ref == ref)
            return d.pinned;
    return false;
}

} // namespace

StagingPins with_pins(StagingPins pins, const std::vector<DeploymentRef>& keep,
                      const std::vector<DeploymentInfo>& now) {
    for (const auto& ref : keep)
        if (!ref.empty() && !pinned_now(ref, now) && !contains(pins.pinned, ref))
            pins.pinned.push_back(ref);
    return pins;
}

bool pinned_by_user(const DeploymentInfo& d, const StagingPins* staging) {
    return d.pinned && !(staging && contains(staging->pinned, d.ref));
}

nlohmann::json to_json(const StagingPins& p) {
    nlohmann::json pinned = nlohmann::json::array();
    for (const auto& r : p.pinned)
        pinned.push_back(to_json(r));
    return {{"schema", "bootbench-staging/1"},
            {"experiment", p.experiment},
            {"original_default", to_json(p.original_default)},
            {"pinned", pinned}};
}

StagingPins staging_pins_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    if (r.str("schema") != "bootbench-staging/1")
        r.fail("schema '" + r.str("schema") + "' is not supported (this bootbench reads bootbench-staging/1)");
    StagingPins p{r.str("experiment"), deployment_ref_from(r.child(r.object("original_default"), "original_default")), {}};
    for (const auto& item : r.array("pinned"))
        p.pinned.push_back(deployment_ref_from(r.child(item, "pinned")));
    return p;
}

} // namespace bootbench::core
