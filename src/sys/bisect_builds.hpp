#pragma once
// The machine's side of a bisection (core/bisect/bisect_run): the builds the
// search queues deployed from the ref's history (pulled first where the repo
// lacks them), each with the post-boot unit and pinned for the night, and
// the search's report written while its builds are still deployed.
#include "core/bisect/bisect_run.hpp"
#include "sys/ostree/host.hpp"

#include <filesystem>

namespace bootbench::sys {

namespace fs = std::filesystem;

// The unit each new deployment gets (sys/ostree/unit_install).
struct UnitSpec {
    int timeout_s = 0;
    bool container_tools = false;
};

// The search's queued builds: each one that has no target deployment yet is
// deployed (a deployment a crash left before the state was saved is found
// by its marker and used), then their runs are added to the state.
core::State queue_bisect_builds(Host& host, core::State s, const core::BisectRun& run, const UnitSpec& unit);

} // namespace bootbench::sys
