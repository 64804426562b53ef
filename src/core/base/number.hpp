#pragma once
// Numbers read from text outside: a bench's output, /proc, /sys, the
// kernel log. Locale-free (std::from_chars).
#include <optional>
#include <string_view>

namespace bootbench::core {

// `s` without blanks (space, tab, CR, LF) at either end.
std::string_view trim_blanks(std::string_view s);

// A finite decimal number, an optional '+', blanks around; nullopt for
// "nan", "inf", empty text or trailing junk.
std::optional<double> parse_any_number(std::string_view text);

// A decimal number with nothing else around it but blanks; nullopt for
// "nan", "inf", negatives, empty text or trailing junk.
std::optional<double> parse_number(std::string_view text);

} // namespace bootbench::core
