#pragma once
// The "Counters" section, the same words in every format: each target's
// median of perf's counts, the subject over the baseline, and what perf
// could not count (core/report/report_counters). Pure.
#include "core/report/report.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::core {

// "" when no bench had counters.
std::string counters_markdown(const Report& r);
std::string counters_html(const Report& r);
// report.json's "counters" object.
nlohmann::json counters_json(const Report& r);

} // namespace bootbench::core
