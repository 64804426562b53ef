#pragma once
// report.html: one self-contained page (inline CSS and SVG, no script, no
// network) with the same content as report.md. Pure.
#include "core/report/report.hpp"

#include <string>

namespace bootbench::core {

std::string render_html(const Report& report);

} // namespace bootbench::core
