#pragma once
// What `plan` and `start` say about the host's own timers (core/host/quiet).
#include "core/experiment/experiment.hpp"

#include <string>

namespace bootbench::cli {

// quiet_plan_text for this host, or why its units could not be listed.
std::string quiet_plan(const core::Experiment& e);

} // namespace bootbench::cli
