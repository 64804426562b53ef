#include "core/base/number.hpp"

#include <charconv>
#include <cmath>

namespace bootbench::core {

std::string_view trim_blanks(std::string_view s) {
    const char* blanks = " \t\r\n";
    size_t b = s.find_first_not_of(blanks);
    if (b == std::string_view::npos)
        return {};
    size_t e = s.find_last_not_of(blanks);
    return s.substr(b, e - b + 1);
}

std::optional<double> parse_any_number(std::string_view text) {
    text = trim_blanks(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    double v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<double> parse_number(std::string_view text) {
    auto v = parse_any_number(text);
    if (!v || *v < 0)
        return std::nullopt;
    return v;
}

} // namespace bootbench::core
