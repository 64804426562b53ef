#pragma once
// Regular expressions on PCRE2 (libpcre2-8, interpreted, no JIT), for the
// patterns a user writes in an experiment file and the few fixed ones.
// std::regex recurses once per character on the C++ stack and has no time
// limit: a long line overflows the stack and a nested repeat backtracks for
// minutes. PCRE2 keeps its backtracking on the heap and stops at a match
// limit, a depth limit and a heap limit; the pattern's length and nesting
// are bounded when it is compiled. A search that hits a limit is an outcome
// the caller reports, never a crash.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bootbench::core {

// Longest pattern, deepest parenthesis nesting.
inline constexpr size_t kMaxRegexLength = 4096;
inline constexpr uint32_t kMaxRegexNesting = 64;

struct RegexMatch {
    enum class Outcome { match, no_match, gave_up };
    Outcome outcome = Outcome::no_match;
    // Group 0 (the whole match), then the capture groups; unset ones empty.
    std::vector<std::string_view> groups;
    // PCRE2's words for why it gave up ("match limit exceeded").
    std::string why;
};

class Regex {
  public:
    // Throws bootbench::Error (bad input), "PCRE2'S MESSAGE at offset N",
    // when the pattern does not compile or is too deeply nested, and "it is
    // N bytes long, more than 4096" when it is too long.
    explicit Regex(std::string_view pattern);
    ~Regex();
    Regex(Regex&&) noexcept;
    Regex& operator=(Regex&&) noexcept;
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;

    uint32_t capture_count() const;
    // The first match at or after `start`; lookbehinds see what is before it.
    RegexMatch search(std::string_view subject, size_t start = 0) const;
    // The whole subject matches; a search that gives up is no match.
    bool full_match(std::string_view subject) const;

  private:
    struct Impl;
    RegexMatch run(std::string_view subject, size_t start, uint32_t options) const;
    std::unique_ptr<Impl> impl_;
};

} // namespace bootbench::core
