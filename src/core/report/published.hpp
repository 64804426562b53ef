#pragma once
// Import of published results in the flat "margine-bench-kernel/1" format:
// one JSON object per boot, the arm in "label", metrics and identity keys at
// the top level. Pure: the caller reads the files.
#include "core/report/report.hpp"
#include "core/result/run_result.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bootbench::core {

inline constexpr const char* kPublishedSchema = "margine-bench-kernel/1";

// One published file as a run: run id = the file name without ".json",
// target = "label", metrics = the numeric keys known to the metric catalog,
// identity keys mapped onto the environment keys of bootbench-run/1.
// Throws bootbench::Error (exit 2) naming `where` when the document does not fit.
RunResult run_from_published(const nlohmann::json& j, const std::string& run_id,
                             const std::string& where);

// Exclusions stated in a published README, as sentences of the form
// "`NAME.json` was excluded from the published median: REASON". The reason
// is the rest of the sentence up to the next bullet or blank line.
std::vector<Exclusion> published_exclusions(const std::string& readme_text,
                                            const std::string& readme_name);

} // namespace bootbench::core
