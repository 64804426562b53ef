#pragma once
// Parsing the JSON files bootbench reads back (run files, state.json,
// published results) with their nesting and size bounded first. nlohmann's
// parser keeps its own stack, but copying, comparing and destroying what it
// built recurse once per level: a 200,000-deep array overflows the stack
// later, far from the file's name. A bootbench file is a few levels deep.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace bootbench::core {

inline constexpr int kMaxJsonDepth = 64;
inline constexpr size_t kMaxJsonBytes = size_t{64} << 20;

// Throws bootbench::Error (bad input) "WHERE: nesting deeper than 64 levels;
// not a bootbench file?" or "WHERE: N bytes, more than ...". Syntax errors
// come out of nlohmann as json::parse_error, for the caller to word.
nlohmann::json parse_bounded_json(std::string_view text, const std::string& where);

} // namespace bootbench::core
