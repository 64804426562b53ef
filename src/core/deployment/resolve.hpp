#pragma once
// Which deployment each target means on this sysroot (pure).
#include "core/deployment/deployment.hpp"
#include "core/experiment/experiment.hpp"
#include "core/image/oci.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

struct Resolution {
    std::string target;
    std::optional<DeploymentInfo> deployment; // set when resolved
    std::string how;    // why this deployment: "origin image matches", ...
    std::string error;  // why it failed, when it did
    bool not_deployed = false; // an image or refspec that no deployment has (can be staged)
};

// Strips the ostree transport prefixes (ostree-image-signed:docker://,
// ostree-unverified-registry:, ostree-remote-image:REMOTE:docker://, docker://)
// so that references written either way compare equal.
std::string normalize_image(const std::string& reference);

// Staged deployments and deployments bootbench made for kernel arguments are
// never candidates: the first is dropped by any switch, the second is ours.
// `recorded`: an image target's digests resolved at start (nullptr: none).
// A pin_digest target with a record is the deployment of that repository that
// runs the recorded digest (its commit's ostree.manifest-digest, or the digest
// its origin names: `stage` switches to repo@sha256:...), not one of the tag
// that runs another image.
Resolution resolve_target(const Target& t, const std::vector<DeploymentInfo>& deployments,
                          const ResolvedImage* recorded = nullptr);

// bootbench keeps its state and results in /var/lib/bootbench, and /var is
// one per stateroot: every target, and the deployment that boots now, must
// share one. Returns why not, or "" when they do.
std::string stateroot_problem(const std::vector<Resolution>& rs, const DeploymentInfo& current);

// An image target whose deployment has packages rpm-ostree layered on the
// image would measure them as the image: why start refuses it, or "" (and
// with allow_layered = true).
std::string layered_problem(const Target& t, const DeploymentInfo& d);

// fnmatch(3) without flags, without the C library: '*', '?' and '[...]' ('!' or
// '^' negates, a-z ranges; an unclosed '[' is itself): expect_kernel, and
// the preset files' unit patterns (core/deployment/systemd_conf).
bool glob_match(const std::string& pattern, const std::string& text);

} // namespace bootbench::core
