#pragma once
// The experiment's persistent state and its transitions. Every function here
// is pure: it takes a State and returns the next one; sys/ persists it
// (atomically) between steps, so a crash at any point leaves either the old
// or the new state on disk, never a mix.
#include "core/experiment/experiment.hpp"
#include "core/state/plan.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

inline constexpr int kStateSchema = 1;

struct DeploymentRef {
    std::string stateroot;
    std::string checksum;
    int serial = 0;
    bool operator==(const DeploymentRef&) const = default;
    bool empty() const { return checksum.empty(); }
};
std::string describe(const DeploymentRef& d); // "stateroot/checksum.serial"

enum class SlotStatus { pending, done, failed };

struct RunSlot {
    std::string run_id;
    std::string target;
    SlotStatus status = SlotStatus::pending;
    int attempts = 0;    // boots spent on this run: wrong boots and interrupted runs count
    std::string failure; // why it failed, when it did
    double seconds = 0;  // wall time of the successful attempt, for estimates
};

struct TargetState {
    std::string target;
    DeploymentRef deployment;
    bool was_pinned = false;      // pin state before the experiment, restored at the end
    bool created_for_kargs = false; // bootbench deployed it; removed at the end
};

// starting: start was interrupted before the first reboot (abort cleans up);
// running: runs remain; finishing: cleanup in progress (idempotent steps);
// finished / aborted: nothing left to do.
enum class Phase { starting, running, finishing, finished, aborted };

struct State {
    int schema = kStateSchema;
    std::string experiment;
    std::string started_at;
    Phase phase = Phase::starting;
    int max_attempts = 3;
    OnBootFailure on_boot_failure = OnBootFailure::skip;
    std::vector<RunSlot> runs;
    size_t current = 0;          // index of the next run to do
    DeploymentRef expected;      // the deployment the next boot must be
    bool default_set = false;    // `expected` was made the default before the reboot
    DeploymentRef original_default;
    std::vector<TargetState> targets;
    // Deployments bootbench pinned besides the targets (the original default,
    // deployments kept through staging), none of them pinned by the user:
    // unpinned at the end. Written before the pins; empty in older states.
    std::vector<DeploymentRef> pinned_by_bootbench;
    std::string stop_reason;     // why the experiment ended early, if it did
    bool aborted = false;        // `bootbench abort` asked for the end
    // Why an adaptive experiment (core/sizing/adaptive) stopped adding rounds: its
    // normal end, not a failure. "" while it runs, and for fixed runs.
    std::string stopped_because;
    bool quick = false;          // a rehearsal (simulate --quick): every boot applies quick_version
    // Image targets' digests as resolved at start: target -> core::ResolvedImage JSON.
    nlohmann::json images = nlohmann::json::object();
    // The deployment the last boot (or start) ran on; empty: not known (a
    // state from before this field, or a start off the running machine).
    DeploymentRef last_booted;
    // A bisection's search and its builds (core/bisect/bisect_run), saved
    // with the runs in one write; null for an experiment.
    nlohmann::json bisect = nullptr;

    const RunSlot* current_run() const;
    const TargetState* find_target(const std::string& name) const;
    size_t count(SlotStatus s) const;
};

const char* to_string(Phase p);
const char* to_string(SlotStatus s);

// A new state for a planned experiment. `targets` maps every target to its
// deployment; the first run's deployment becomes `expected`.
State initial_state(const Experiment& e, const std::vector<PlannedRun>& plan,
                    std::vector<TargetState> targets, const DeploymentRef& original_default,
                    const std::string& now);

enum class BootAction {
    run_suite,           // the expected deployment booted: measure
    set_default_again,   // crashed before the default was switched: switch, reboot, no attempt counted
    wrong_boot,          // another deployment booted: count an attempt, switch back, reboot
    finish,              // no runs left, or cleanup was interrupted: finish (idempotent)
    nothing,             // finished, aborted, or start never completed
};

struct BootDecision {
    BootAction action;
    std::string message; // for the log and status
};

BootDecision decide_on_boot(const State& s, const DeploymentRef& booted);

// Before the suite runs: count the attempt, so a run that crashes the machine
// every time cannot loop forever. Returns the state to persist first.
State begin_attempt(State s);
// The booted deployment was not the expected one.
State record_wrong_boot(State s, const DeploymentRef& booted);
// The run ended (measured, or failed for good): advance to the next run.
State complete_run(State s, SlotStatus status, const std::string& failure, double seconds);
// The run was given up after max_attempts (interrupted or wrong boots).
State give_up_run(State s, const std::string& why);
State mark_default_set(State s);
// Appends runs after the ones planned (an adaptive round, a bisection's
// next builds): running again, the first pending run's target expected.
// Every run's target must be in s.targets.
State add_runs(State s, const std::vector<PlannedRun>& runs);
// Cleanup is done: finished, or aborted when abort asked for the end.
State finish(State s);
// Ends a search early (a bisection that cannot go on): the runs not begun
// are dropped, `why` kept as the stop reason, cleanup runs next.
State drop_pending_runs(State s, const std::string& why);
// Ends the experiment early: cleanup runs next (finishing), results are kept.
State abort_experiment(State s, const std::string& why);

// Whether `booted` is the first boot after a deployment switch: the boot
// before it ran another deployment. nullopt when that is not known.
std::optional<bool> first_boot_after_switch(const State& s, const DeploymentRef& booted);
// Every boot (and start) records what it runs on, for the next boot's question.
State note_boot(State s, const DeploymentRef& booted);

// True when the current run has used all its attempts and must be given up.
bool attempts_exhausted(const State& s);

bool contains(const std::vector<DeploymentRef>& refs, const DeploymentRef& ref);
class JsonReader;
nlohmann::json to_json(const DeploymentRef& d);
DeploymentRef deployment_ref_from(const JsonReader& r);

nlohmann::json to_json(const State& s);
// Throws bootbench::Error naming `where` and the field on any malformed state.
State state_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
