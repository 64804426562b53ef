#pragma once
// What bootbench knows of one ostree deployment: plain values read by sys/
// from libostree, so that resolution and checks are pure functions.
#include "core/host/layering.hpp"
#include "core/state/state.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

struct DeploymentInfo {
    DeploymentRef ref;
    int index = 0;          // position in the boot order: 0 is the default
    std::string refspec;    // [origin] refspec, may be empty
    std::string image;      // [origin] container-image-reference, may be empty
    std::string version;    // the commit's "version", may be empty
    std::string bootcsum;
    int bootserial = 0;
    bool pinned = false;
    bool staged = false;
    bool booted = false;
    std::string kargs_for;  // [bootbench] kargs-for: a deployment bootbench made for a target
    // The image's ostree.manifest-digest (of the commit, or of its parent when
    // rpm-ostree layered packages on it), may be empty.
    std::string image_digest;
    Layering layering;      // what rpm-ostree layered on the image, if anything
};

// One commit of a ref's history, as bisect lists its builds.
struct CommitInfo {
    std::string checksum;
    std::string subject;
    std::string version;   // the commit's "version" metadata, "" if none
    std::string timestamp; // ISO 8601 UTC (core/base/time's format)
};

// "0: fedora/1a2b3c4d5e6f.0 image ghcr.io/x/y:stable (booted, pinned)"
std::string describe(const DeploymentInfo& d);
std::string describe_all(const std::vector<DeploymentInfo>& ds);

} // namespace bootbench::core
