#pragma once
// The experiment's effects: start (prepare the machine, first switch),
// resume (one boot's work), finish and abort. Every decision comes from
// core/state/state.hpp; this file persists each step before taking the next one,
// so a power loss between any two lines leaves a state the next boot can
// continue from.
#include "core/experiment/experiment.hpp"
#include "core/state/state.hpp"
#include "sys/ostree/host.hpp"
#include "sys/store/state_store.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::sys {

class Clock;

struct StartOptions {
    bool reboot = true;
    StagedPolicy staged = StagedPolicy::refuse;
    fs::path binary; // the bootbench the unit runs; empty = this process's own
    nlohmann::json images = nlohmann::json::object(); // see sys/net/images.hpp
    // A bisection (core/bisect/bisect_run's JSON): its first builds are
    // deployed here and its runs come from its search; `targets` is empty.
    nlohmann::json bisect = nullptr;
};

// Pins the targets, installs the binary and the unit, writes the state, makes
// the first run's deployment the default and (unless told not to) reboots.
// `experiment_text` is the experiment file as read, kept for every later boot.
void start_experiment(Host& host, const core::Experiment& e, const std::string& experiment_text,
                      const std::map<std::string, core::DeploymentRef>& targets, Clock& clock,
                      const StartOptions& options);

enum class BootOutcome {
    rebooting, // asked for a reboot into the next run (or back to the original)
    finished,  // the experiment is over and the machine is back as it was
    idle,      // nothing to do on this boot
};

// One boot's work, as the unit runs it after every boot.
BootOutcome resume_experiment(Host& host, Clock& clock);

// Stops the experiment at any time: original default and pins back, units and
// kargs deployments removed, results kept, report written. Works from the
// initial state when the state file is damaged.
void abort_experiment(Host& host, Clock& clock);

} // namespace bootbench::sys
