#pragma once
// The deployment this machine booted, as recorded in every run's result.
#include "core/result/run_result.hpp"

#include <filesystem>

namespace bootbench::sys {

// Reads the booted deployment with libostree when `root`/run/ostree-booted
// exists; on a host that is not booted from ostree every field stays empty.
// Throws bootbench::Error when an ostree host's sysroot cannot be read.
core::DeploymentRecord booted_deployment(const std::filesystem::path& root = "/");

} // namespace bootbench::sys
