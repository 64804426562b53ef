#pragma once
// The "Likely explanations" section, the same words in every format: each
// metric with a verdict, its ranked explanations or the plain sentence that
// nothing explains it (core/report/report_explain). Pure.
#include "core/report/report.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::core {

// Said under the section's title.
inline constexpr const char* kExplanationsNote =
    "For each metric with a verdict, up to three differences between the arms that its bench is "
    "known to be sensitive to, best first, with the counters that moved with them "
    "(docs/statistics.md, \"Likely explanations\"). They rank causes; they prove nothing and "
    "decide no verdict.";

// "" when the report has no explanations (no "What differs between the arms").
std::string explanations_markdown(const Report& r);
std::string explanations_html(const Report& r);
// report.json's "explanations" array.
nlohmann::json explanations_json(const Report& r);

} // namespace bootbench::core
