#pragma once
// Adding a target that is not deployed yet, through the system's own tool:
// `bootc switch --retain` where bootc is installed, else `rpm-ostree rebase`.
// Both stage the new deployment: it becomes a deployment at the next boot.
#include "core/experiment/experiment.hpp"
#include "core/deployment/staging_pins.hpp"
#include "sys/ostree/host.hpp"
#include "sys/store/state_store.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace bootbench::sys {

// The command that stages `t`, or nullopt (with `why`) when neither tool can.
std::optional<std::vector<std::string>> staging_command(const core::Target& t, std::string& why);


std::string shell_words(const std::vector<std::string>& argv);

// The staging record of `experiment` (nullopt: none). Throws (exit 2) when
// the record is another experiment's: its pins are undone by its own end or
// by 'bootbench abort'.
std::optional<core::StagingPins> staging_pins_for(const StatePaths& paths, const std::string& experiment);

// Before staging one more target of `experiment`: the deployments that
// finalizing it must keep (the booted one, the default before the first
// staging, `present`: the targets deployed already) are recorded in
// staging.json, then pinned. A dry run says what it would pin.
core::StagingPins keep_through_staging(Host& host, const std::string& experiment,
                                       const std::vector<core::DeploymentRef>& present, bool dry_run,
                                       std::ostream& out);

// Runs `argv` (the terminal attached) after keep_through_staging; throws
// bootbench::Error when it fails, with the pins made for it undone.
void run_staging(Host& host, const std::string& experiment, const std::vector<core::DeploymentRef>& present,
                 const std::vector<std::string>& argv, std::ostream& out);

// `bootbench abort` before the experiment started: the default before the
// first staging made the default again (a staged target dropped), bootbench's
// pins removed, the record deleted.
void undo_staging(Host& host, const StatePaths& paths, const core::StagingPins& pins, std::ostream& out);

} // namespace bootbench::sys
