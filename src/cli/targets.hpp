#pragma once
// Target resolution on a sysroot, shared by plan and start.
#include "core/experiment/experiment.hpp"
#include "core/deployment/resolve.hpp"
#include "sys/ostree/sysroot.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

namespace bootbench::cli {

// `images`: the digests resolved at start (sys/net/images.hpp), which a
// pin_digest target's deployment must run.
std::vector<core::Resolution> resolve_all(sys::Sysroot& sysroot, const core::Experiment& e,
                                          const nlohmann::json& images = nlohmann::json::object());
void print_resolutions(std::ostream& out, const std::vector<core::Resolution>& rs);
// The targets' deployments; throws (exit 2) naming every target that did
// not resolve, with the deployments present and how to add a missing one.
std::map<std::string, core::DeploymentRef> require_resolved(sys::Sysroot& sysroot, const core::Experiment& e,
                                                            const nlohmann::json& images);

// Why start cannot take these targets on this machine (the stateroots, an
// image target on a deployment with layered packages), one per line; "" when
// it can.
std::string start_problems(sys::Sysroot& sysroot, const core::Experiment& e, const std::vector<core::Resolution>& rs);

// Refuses (exit 2) when this binary does not load in a resolved target's
// deployment with that deployment's own loader and libraries, naming the
// target and what is missing; unresolved targets are left to require_resolved.
void require_binary_loads(sys::Sysroot& sysroot, const core::Experiment& e);

// [tools] image: the image in podman's local store (pulled first when `pull`),
// said on `out`. Nothing for host tools. Throws (exit 2) before anything on
// the machine changes when podman or the image is missing.
void prepare_tools_image(const core::Experiment& e, bool pull, std::ostream& out);

} // namespace bootbench::cli
