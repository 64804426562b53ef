#pragma once
// Reading an experiment file from disk, shared by every subcommand that takes one.
#include "core/experiment.hpp"

#include <string>

namespace bootbench::cli {

// Throws bootbench::Error (exit 2) when the file is missing or invalid.
core::Experiment load_experiment(const std::string& path);

// The experiment file's text with `quick = true` set in [experiment], so that
// every later boot of a rehearsal reads the scaled-down experiment.
std::string with_quick(const std::string& text);

} // namespace bootbench::cli
