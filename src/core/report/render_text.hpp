#pragma once
// Text helpers shared by the renderers: locale-free number formatting
// (core/report/format_number), the ratio sentence, and escaping. Pure.
#include "core/report/format_number.hpp"
#include "core/report/report.hpp"
#include "core/base/text.hpp"

#include <string>

namespace bootbench::core {

// The comparison as a sentence nobody can misread, the larger side first:
// "1.79x faster (4.45 vs 7.97 us/op, -44%)". Needs m.comparison.
std::string describe_ratio(const MetricReport& m, const std::string& subject,
                           const std::string& baseline);
// Why a metric has no comparison: "not compared: b has no value".
std::string not_compared(const MetricReport& m, const std::string& subject,
                         const std::string& baseline);
// The interval in the words of the ratio: "95% CI 1.20x to 3.70x slower";
// where there is none, why, and the range of run-to-run ratios: "no interval:
// fewer than 6 runs (b has 3); runs range 1.70x to 1.90x slower". Needs
// m.comparison.
std::string interval_text(const MetricReport& m);
// "~" when the difference is not significant, else "better" / "worse".
std::string verdict_mark(const MetricReport& m);
// Why a verdict is ~: "~ as the interval spans 1.00x, p = 0.420 (Holm) not
// below 0.05"; "" for better and worse.
std::string same_reason(const Comparison& c);

// How far an outlier lies: "2.01x the median of the other runs, 10.0".
std::string outlier_distance(const Outlier& o);
// How runs are flagged, one sentence for every renderer.
extern const char* const kOutlierRule;

// Whether the interval is missing only because a target has too few runs.
bool too_few_runs(const Comparison& c);
// interval_text short enough for the chart: the reason for too few runs is
// left to the chart's footnote ("runs range 1.03x to 1.86x faster").
std::string interval_short(const MetricReport& m);

// ascii_safe, then &, <, >, " and ' as XML entities.
std::string xml_escape(const std::string& s);
// An SVG <text>'s content: xml_escape'd, cut to `chars` with "..." and the
// whole of it in a tooltip.
std::string xml_fitted(const std::string& text, size_t chars);
// ascii_safe, then |, backslash, `, *, _, [, ], <, > escaped for a Markdown table cell.
std::string md_escape(const std::string& s);

} // namespace bootbench::core
