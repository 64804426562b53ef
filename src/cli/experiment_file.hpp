#pragma once
// Reading an experiment file from disk, shared by every subcommand that takes one.
#include "core/experiment/experiment.hpp"

#include <cstddef>
#include <string>

namespace bootbench::cli {

// An experiment file is text a person writes: a few KiB. The bound keeps a
// wrong path (a log, an image) from filling memory before the parser refuses it.
inline constexpr size_t kMaxExperimentFileBytes = 1 << 20;

struct ExperimentFile {
    core::Experiment experiment;
    std::string text; // as read, for start to keep for every later boot
};

// Throws bootbench::Error (exit 2) when the file is missing, not a regular
// file, larger than kMaxExperimentFileBytes, or invalid.
ExperimentFile read_experiment_file(const std::string& path);
core::Experiment load_experiment(const std::string& path);

} // namespace bootbench::cli
