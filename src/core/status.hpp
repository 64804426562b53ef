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
    // Renders `now + seconds` as a local clock time ("2026-12-01 03:40"); the
    // caller's, since core/ reads no clock.
    std::string (*clock_after)(double seconds) = nullptr;
};

// The time left from the pace so far: elapsed / runs ended x runs left.
std::optional<double> remaining_s(const StatusInput& in);

nlohmann::json status_json(const StatusInput& in);
std::string status_text(const StatusInput& in);

} // namespace bootbench::core
