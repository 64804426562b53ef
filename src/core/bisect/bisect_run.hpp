#pragma once
// A bisection run by the experiment's machinery: every build of the history
// is a target of the experiment (named by its commit), the state's pending
// runs are the search's pending runs, and every finished run is given to the
// search once: its metric, or a failure that queues the build's run again.
// Pure: sys/ reads the runs' results and deploys the builds the search asks
// for; all of it is saved in the state's `bisect` field with the runs.
#include "core/bisect/bisect_config.hpp"
#include "core/bisect/bisect_state.hpp"
#include "core/deployment/deployment.hpp"
#include "core/result/run_result.hpp"
#include "core/state/plan.hpp"
#include "core/state/state.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// A build's runs that may fail before the bisection ends undecided.
inline constexpr int kBuildFailuresAllowed = 3;

struct BisectRun {
    std::string refspec;              // the ref's, or the image's repository (images)
    std::vector<std::string> commits; // per build, oldest first: good ... bad (images: digests' hex)
    // Per build, the reference an image build is deployed from, pinned by
    // digest (core/bisect/image_history); empty for a ref's commits.
    std::vector<std::string> images;
    std::vector<std::string> labels;  // the builds' target names
    // Per build, its subject, version and time as the history said at the
    // start (the report's; the repository may prune them before the end).
    std::vector<CommitInfo> history;
    BisectState search;
    size_t fed = 0; // the state's runs given to the search so far
};

// Each commit's first 12 hex digits, or more where two share them.
std::vector<std::string> build_labels(const std::vector<std::string>& commits);

// The metric's direction: its bench's, else the catalogue's (lower when unknown).
Better metric_direction(const Experiment& e, const std::string& metric);

// The search before any run, over `history` (good first, bad last), with
// the file's rules (its runs a decision); `images` one per build, or none.
BisectRun begin_bisect_run(const BisectFile& f, const std::string& refspec, std::vector<CommitInfo> history,
                           std::uint64_t seed, std::vector<std::string> images = {});

// The experiment of the file with one target per build (selector: its
// commit, or its pinned image), good's the baseline.
Experiment bisect_experiment(Experiment e, const BisectRun& run);

// Runs for `builds` (indices), ids "<label>-<k>" counting on from the
// state's runs of that build.
std::vector<PlannedRun> runs_for_builds(const State& s, const BisectRun& run,
                                        const std::vector<int>& builds);

// The search's pending runs that no pending run of the state covers yet, in
// the search's order: a new round's, and a failed run's build again.
std::vector<int> builds_to_queue(const State& s, const BisectRun& run);

// What the orchestrator learns of one finished run: its metric, or why not.
struct RunValue {
    std::optional<double> value;
    std::string why; // when there is no value
};

// Gives the state's finished runs after `fed` to the search. A build whose
// runs failed kBuildFailuresAllowed times ends the search undecided; the
// state is then ended too (its queued runs dropped, the reason kept).
struct Fed {
    BisectRun run;
    State state;
};
Fed feed_finished_runs(BisectRun run, State s, const std::function<RunValue(const RunSlot&)>& value_of);

// The metric of a result, nullopt when the run has none.
RunValue metric_value(const RunResult& r, const std::string& metric);

// How many runs a bisection of `builds` (good and bad included) takes: the
// steps of a binary search over the builds between, and the runs when every
// decision takes its first round, or every one its last (the rules' bound).
struct BisectEstimate {
    int steps = 0;
    int runs_first_rounds = 0;
    int runs_at_most = 0;
};
BisectEstimate estimate_bisect(int builds, const BisectRules& rules);

// `status`'s lines: where the search stands, or its verdict.
std::string bisect_status_text(const BisectRun& run);
nlohmann::json bisect_status_json(const BisectRun& run);

nlohmann::json to_json(const BisectRun& run);
// Throws bootbench::Error naming `where` and the field on a malformed record.
BisectRun bisect_run_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
