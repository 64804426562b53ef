#pragma once
// `report` over several folders pools them as machines of one experiment:
// what each input ran, and what makes two inputs different experiments (the
// experiment's name, a sandbox or --quick, a bench's parameters for a target),
// worded as reproduce words them. Pure.
#include "core/result/run_result.hpp"

#include <map>
#include <string>
#include <vector>

namespace bootbench::core {

struct InputExperiment {
    std::string where;      // the folder or file, as given
    std::string name;       // the runs' experiment; "" when they do not say
    std::string provenance; // Caption::provenance_tag of its runs: "" for a measurement
    // target -> bench -> the commands its runs ran (core::note_commands)
    std::map<std::string, std::map<std::string, std::vector<std::string>>> commands;
};

InputExperiment input_experiment(const std::string& where, const std::vector<const RunResult*>& runs);

// "experiment: A lab; B lab-long", "bench b: A -l 1000; B -l 5000" (or "bench
// b of a: ..." when the targets differ differently); empty when nothing known
// differs (a side that does not say is not held against it).
std::vector<std::string> experiment_differences(const InputExperiment& a, const InputExperiment& b);

} // namespace bootbench::core
