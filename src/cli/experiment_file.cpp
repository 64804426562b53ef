#include "cli/experiment_file.hpp"

#include "core/base/error.hpp"
#include "core/bisect/bisect_config.hpp"
#include "sys/store/files.hpp"

namespace bootbench::cli {

ExperimentFile read_experiment_file(const std::string& path) {
    std::string text = sys::read_input_file(path, "experiment file", kMaxExperimentFileBytes);
    if (core::names_bisect(text))
        throw input_error(path + " is a bisect file (it has a [bisect] table): plan it with 'bootbench bisect "
                                 "--dry-run " + path + "', rehearse it with 'bootbench simulate " + path +
                          "', run it with 'bootbench bisect " + path + "'");
    return {core::parse_experiment(text, path), text};
}

core::Experiment load_experiment(const std::string& path) {
    return read_experiment_file(path).experiment;
}

} // namespace bootbench::cli
