#pragma once
// What `bootbench status` says, from the state and the last result (pure).
#include "core/result/run_result.hpp"
#include "core/state/state.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// How `clock_after` renders a time: for people, or ISO 8601 for scripts.
enum class ClockFormat { local, iso8601 };

// An adaptive experiment's bounds in runs (rounds x targets): the state
// holds only the rounds added so far.
struct RunBounds {
    size_t min = 0, max = 0;
};

struct StatusInput {
    State state;
    std::optional<RunResult> last_result;
    std::string results_dir;
    double elapsed_s = -1; // since the experiment started; < 0 when unknown
    // Renders `now + seconds` as a local clock time ("2026-12-01 03:40") or
    // in ISO 8601 ("2026-12-01T03:40:12+01:00"); the caller's, since core/
    // reads no clock.
    std::string (*clock_after)(double seconds, ClockFormat format) = nullptr;
    // The stored results of runs that ended partial (a metric missing).
    std::vector<RunResult> partial{};
    // The deployment the machine runs now; nullopt when not known (an
    // offline sysroot).
    std::optional<DeploymentRef> booted{};
    // Set for an adaptive experiment (core/sizing/adaptive).
    std::optional<RunBounds> rounds{};
};

// The experiment is over and bootbench reboots into the original default
// next: its last run ended in a target. Results fetched now are cut off by
// that reboot.
bool reboot_pending(const StatusInput& in);

// The time left from the pace so far: elapsed / runs ended x runs left; for
// an adaptive experiment, to its min (or the round under way past it).
std::optional<double> remaining_s(const StatusInput& in);
// The same to an adaptive experiment's max; remaining_s for a fixed one.
std::optional<double> remaining_max_s(const StatusInput& in);

// "run 3/4 (a), about 2 min 10 s left": said as each run begins; the time is
// the experiment's estimate per run (boot, settle, suite) x runs not ended.
std::string progress_line(const State& s, double run_estimate_s);
// "run 3/12 (a): ok, perf-sched-pipe 2.68 us/op, sysbench-threads 2533
// events; about 25 s left": said as the current run of `s` ends with `r`;
// each bench's first metric, and the time of the runs after this one.
std::string run_done_line(const State& s, const RunResult& r, double run_estimate_s);

// Why runs ended partial, each cause with the runs it hit when they differ:
// "schbench skipped (schbench is not installed)", "sysbench timed out in 1,
// no value for perf_x in 2". Empty when none did.
std::string partial_causes(const std::vector<RunResult>& partial);

// Why an experiment that ended did not run every run: "aborted by the user
// after 2 of 4 runs"; "" when no run was left (an adaptive stop is an end).
std::string incomplete_text(const State& s);

nlohmann::json status_json(const StatusInput& in);
std::string status_text(const StatusInput& in);

} // namespace bootbench::core
