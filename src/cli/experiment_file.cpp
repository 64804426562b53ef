#include "cli/experiment_file.hpp"

#include "sys/store/files.hpp"

namespace bootbench::cli {

ExperimentFile read_experiment_file(const std::string& path) {
    std::string text = sys::read_input_file(path, "experiment file", kMaxExperimentFileBytes);
    return {core::parse_experiment(text, path), text};
}

core::Experiment load_experiment(const std::string& path) {
    return read_experiment_file(path).experiment;
}

} // namespace bootbench::cli
