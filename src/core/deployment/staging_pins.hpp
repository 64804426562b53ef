#pragma once
// What `start` changed while it staged missing targets, one per reboot, before
// the experiment's State exists (<state_dir>/staging.json): the default the
// machine had before the first staging, and the deployments bootbench pinned.
// Finalizing a staged deployment (ostree-finalize-staged, through
// ostree_sysroot_simple_write_deployment without RETAIN flags; bootc's
// --retain keeps the old ref, not the deployment) keeps only the new, booted,
// merge and pinned deployments: the user's default and the targets staged
// before must be pinned to survive the next one. Pure.
#include "core/deployment/deployment.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bootbench::core {

struct StagingPins {
    std::string experiment;
    DeploymentRef original_default;
    std::vector<DeploymentRef> pinned; // by bootbench; none was pinned by the user before
};

// `pins` with every deployment of `keep` that is not pinned in `now` added.
// A deployment pinned in `now` and not by bootbench is the user's: left out,
// so the end leaves it pinned.
StagingPins with_pins(StagingPins pins, const std::vector<DeploymentRef>& keep,
                      const std::vector<DeploymentInfo>& now);

// Whether `d` was pinned before bootbench touched it (staging's pins are not).
bool pinned_by_user(const DeploymentInfo& d, const StagingPins* staging);

nlohmann::json to_json(const StagingPins& p);
// Throws bootbench::Error naming `where` and the field when malformed.
StagingPins staging_pins_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
