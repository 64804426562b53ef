#pragma once
// report.svg: relative performance per metric, baseline = 1.00x, higher is
// better (times and latencies inverted), every run as a point. ASCII-only,
// self-contained, valid XML: made to be pasted into a web page. Pure.
#include "core/report/report.hpp"

#include <string>

namespace bootbench::core {

// Above this many runs in one strip, the strip is drawn as a box (quartiles,
// whiskers to min and max) instead of one dot per run.
inline constexpr size_t kMaxPointsPerStrip = 400;

std::string render_svg(const Report& report);

} // namespace bootbench::core
