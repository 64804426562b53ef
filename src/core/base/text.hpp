#pragma once
// Text from outside (bench output, paths, server answers, sensor names)
// made safe to store and to show: valid UTF-8 for JSON, no control
// characters for a terminal, a stated size, no secret in any encoding.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace bootbench::core {

// What a run stores of a failure's text (a bench's stderr line, a reason).
inline constexpr size_t kMaxFailureText = 4096;

// `parts` with `sep` between them: join({"a", "b"}, ", ") is "a, b".
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// The blank-separated words of `line`: "a  b\tc" is {"a", "b", "c"}.
std::vector<std::string> split_words(const std::string& line);

// The last non-blank line of `text`: what a failing tool says last is usually why.
std::string last_line(const std::string& text);

// "1 metric", "2 metrics": a count with its word, singular for one.

std::string count_of(long long n, const std::string& word);

// Whether `s` begins with `prefix`.
bool starts_with(std::string_view s, std::string_view prefix);

// Printable ASCII only: anything else (UTF-8 included) becomes '?'
// (one per UTF-8 sequence), control characters a space.
std::string ascii_safe(const std::string& s);

// `text` with every ill-formed UTF-8 sequence (stray or truncated bytes,
// overlong forms, surrogates, beyond U+10FFFF) replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

// Every string in `j`, keys included, made valid_utf8.
nlohmann::json valid_utf8_strings(nlohmann::json j);

enum class LineBreaks { escape, keep };

// valid_utf8, then every control character (C0, DEL, C1) and bidi
// override written as an escape (\t, \n, \r, \x1b, \u009b, \u202e), so
// that echoed text cannot move the cursor, recolour or reorder a terminal.
// With LineBreaks::keep, \n and \t stay as they are (multi-line messages).
std::string printable(std::string_view text, LineBreaks breaks = LineBreaks::escape);

// `text` if it has at most `max` bytes; else its first bytes (cut at a
// character boundary) and " [... N more bytes of <what> cut]".
std::string cap_text(std::string_view text, size_t max, std::string_view what);

// The JSON text of `j`: a string that is not valid UTF-8 is written with
// U+FFFD in place of the bad bytes instead of throwing. Every writer uses it.
std::string json_text(const nlohmann::json& j, int indent = -1);

// `text` with every occurrence of `secret` replaced by "[redacted]", in
// each way a server could echo it: as is, percent-encoded (any case, '+'
// for a space), or JSON-escaped (\t, \/, \u0009...), in any mix.
std::string redact(std::string_view text, std::string_view secret);

} // namespace bootbench::core
