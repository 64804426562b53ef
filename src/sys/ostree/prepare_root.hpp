#pragma once
// A deployment's ostree/prepare-root.conf, read as ostree reads it
// (src/libotcore/otcore-prepare-root.c): with `[etc] transient = true`,
// ostree-prepare-root mounts /etc at boot as an overlay of usr/etc in /run,
// so nothing written into the deployment's own etc (the unit) is seen.
#include "core/host/doctor.hpp"
#include "core/deployment/deployment.hpp"
#include "sys/ostree/sysroot.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace bootbench::sys {

struct PrepareRootEtc {
    bool transient = false;
    std::string file;  // the file that decides, inside the deployment; "" when none
    std::string error; // it cannot be parsed (ostree-prepare-root fails on it too)
};

// usr/lib/ostree/prepare-root.conf, then etc/ostree/prepare-root.conf, of
// the deployment folder: the last one found is the whole configuration
// (otcore_load_config loads each into one GKeyFile, which every load empties).
PrepareRootEtc prepare_root_etc(const std::filesystem::path& deployment_dir);

// The targets (name -> deployment) whose /etc would not keep the unit.
std::vector<core::TransientEtcFact> transient_etc_targets(
    Sysroot& sysroot, const std::map<std::string, core::DeploymentRef>& targets);

} // namespace bootbench::sys
