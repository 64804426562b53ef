#pragma once
// What `plan` and `start` say about the host's own timers (core/quiet).
#include "core/experiment.hpp"

#include <string>

namespace bootbench::cli {

// quiet_plan_text for this host, or why its units could not be listed.
std::string quiet_plan(const core::Experiment& e);

} // namespace bootbench::cli
