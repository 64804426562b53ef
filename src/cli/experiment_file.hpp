#pragma once
// Reading an experiment file from disk, shared by every subcommand that takes one.
#include "core/experiment.hpp"

#include <string>

namespace bootbench::cli {

// Throws bootbench::Error (exit 2) when the file is missing or invalid.
core::Experiment load_experiment(const std::string& path);

// Scales run times down for rehearsals: no settling, short benches.
core::Experiment quick_version(core::Experiment e);

} // namespace bootbench::cli
