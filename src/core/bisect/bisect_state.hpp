#pragma once
// A bisection as a pure state machine: the state holds every run's value of
// the metric per build and where the search stands; next_action says what
// to boot next (or the verdict) from the state alone, and record_run adds
// one run's value and, at the end of a round, decides. The state is written
// after every run (to_json), so a power loss costs at most the run it hit.
#include "core/bisect/classify.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bootbench::core {

inline constexpr int kBisectSchema = 1;

// endpoints: good against bad; search: one candidate between the last good
// and the first bad; confirm: the final pair against each other.
enum class BisectPhase { endpoints, search, confirm, done };
inline constexpr Named<BisectPhase> kBisectPhaseNames[] = {{"endpoints", BisectPhase::endpoints},
                                                           {"search", BisectPhase::search},
                                                           {"confirm", BisectPhase::confirm},
                                                           {"done", BisectPhase::done}};

enum class BisectOutcome { running, culprit, no_regression, undecided, not_confirmed };
inline constexpr Named<BisectOutcome> kBisectOutcomeNames[] = {
    {"running", BisectOutcome::running},
    {"culprit", BisectOutcome::culprit},
    {"no-regression", BisectOutcome::no_regression},
    {"undecided", BisectOutcome::undecided},
    {"not-confirmed", BisectOutcome::not_confirmed}};

// One decision at the end of a round, for the report: what was judged
// (a candidate, or the two builds of a pair), after how many rounds, and
// what the tests said.
struct BisectStep {
    BisectPhase phase = BisectPhase::endpoints;
    int build = -1;  // the candidate (search), or the pair's later build
    int before = -1; // the pair's earlier build; -1 in search
    int round = 1;
    std::string call; // a Likeness or PairCall name
    std::string why;
};

struct BisectState {
    int schema = kBisectSchema;
    std::string metric;
    Better better = Better::lower;
    double threshold = 0.05;
    std::uint64_t seed = 1; // the bootstrap intervals'
    BisectRules rules;
    std::vector<std::string> builds;         // oldest first: [0] good, back() bad
    std::vector<std::vector<double>> values; // per build, the metric of each run in run order
    BisectPhase phase = BisectPhase::endpoints;
    int last_good = 0, first_bad = 0; // the range still searched
    int candidate = -1;               // in search: the build being judged
    int round = 1;                    // of the current decision
    std::vector<int> pending;         // builds still to run this round, in run order
    std::vector<BisectStep> steps;
    BisectOutcome outcome = BisectOutcome::running;
    std::string verdict; // one line a person reads, once done
};

// The state before any run: good's and bad's first round, interleaved.
// Requires at least two candidates between good and bad.
BisectState start_bisect(std::vector<std::string> builds, const std::string& metric, Better better,
                         double threshold, std::uint64_t seed, const BisectRules& rules = {});

struct BuildCount {
    int build = 0;
    int count = 0;
};
struct BisectAction {
    std::vector<int> order; // the builds to boot, in this order; empty once done
    std::vector<BuildCount> counts;
    bool done = false;
    BisectOutcome outcome = BisectOutcome::running;
    std::string verdict;
    int last_good = -1, first_bad = -1; // the culprit pair when done with a culprit
};
BisectAction next_action(const BisectState& s);

// One run of `build` measured `value`. Throws bootbench::Error when no run
// of that build is pending or the value is not a finite number.
BisectState record_run(BisectState s, int build, double value);

// Ends the search undecided for a reason outside the statistics (a build
// whose runs keep failing): `verdict` says which and why.
BisectState end_undecided(BisectState s, const std::string& verdict);

nlohmann::json to_json(const BisectState& s);
// Throws bootbench::Error naming `where` and the field on a malformed state.
BisectState bisect_state_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
