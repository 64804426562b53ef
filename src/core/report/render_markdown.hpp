#pragma once
// report.md: caption, warnings, the chart as an image link, the comparison
// table, every run's values, outliers, exclusions and failed runs. Pure.
#include "core/report/report.hpp"

#include <string>

namespace bootbench::core {

// `svg_link` is the chart's path relative to the Markdown file (report.svg).
std::string render_markdown(const Report& report, const std::string& svg_link);

// Above this many runs, the per-run table is left to report.json.
inline constexpr size_t kMaxRunsListed = 60;
// At most this many outliers are listed one by one; report.json has them all.
inline constexpr size_t kMaxOutliersListed = 20;

// The first lines of the report, shared with the HTML: "machine; dates; conditions".
std::string caption_line(const Report& report);
// "bluefin-dx 4 (baseline), margine-cachyos 3 (+1 excluded)".
std::string runs_per_target(const Report& report);
// How to read the verdicts, shared with the HTML.
std::string method_text();

} // namespace bootbench::core
