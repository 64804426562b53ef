#pragma once
// The run order: which target each boot measures. Pure and deterministic.
#include "core/experiment/experiment.hpp"
#include "core/base/random.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

struct PlannedRun {
    std::string run_id; // "<target>-<k>", k counting from 1 per target in run order
    std::string target;
    int index = 0;      // the k above
};

// An adaptive experiment's (core/sizing/adaptive) longest plan: every round to max.
std::vector<PlannedRun> plan_runs(const Experiment& e);
// Run `round` (from 1): one run per target, ordered by e.order
// (counterbalanced: every other round reversed; random: shuffled from the
// seed and the round). Run ids are "<target>-<round>".
std::vector<PlannedRun> plan_round(const Experiment& e, int round);
// What start puts in the state: the first round of an adaptive experiment,
// every run of a fixed one.
std::vector<PlannedRun> initial_plan(const Experiment& e);

} // namespace bootbench::core
