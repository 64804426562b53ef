#pragma once
// toml++ builds nested tables and arrays recursively, and so does every walk
// over them: `[a.a.a...]` sixty thousand levels deep overflows the stack
// before any message. This scan runs over the text before toml++ does and
// refuses nesting deeper than an experiment file could need.
#include <string>
#include <string_view>

namespace bootbench::core {

// Table header parts, dotted key parts, arrays and inline tables, together.
inline constexpr int kMaxTomlDepth = 64;

// Throws bootbench::Error (bad input) "FILE:LINE:COL: nesting deeper than 64
// levels ...". Syntax it does not understand is left to toml++.
void check_toml_depth(std::string_view text, const std::string& file_name);

} // namespace bootbench::core
