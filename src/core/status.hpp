#pragma once
// What `bootbench status` says, from the state and the last result (pure).
#include "core/run_result.hpp"
#include "core/state.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace bootbench::core {

struct StatusInput {
    State state;
    std::optional<RunResult> last_result;
    std::string results_dir;
    double elapsed_s = -1; // since the experiment started; < 0 when unknown
};

nlohmann::json status_json(const StatusInput& in);
std::string status_text(const StatusInput& in);

} // namespace bootbench::core
