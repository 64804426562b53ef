#include "core/report/format_number.hpp"

#include <charconv>
#include <cmath>

namespace bootbench::core {

namespace {

// "1.71e+308": three digits of a value too large for fixed notation.
std::string format_scientific(double v) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 2);
    return ec == std::errc() ? std::string(buf, end) : std::string("n/a");
}

} // namespace

std::string format_fixed(double v, int decimals) {
    if (!std::isfinite(v))
        return std::isnan(v) ? "n/a" : (v > 0 ? "inf" : "-inf");
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
    std::string s = ec == std::errc() ? std::string(buf, end) : std::string("n/a");
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos)
        s.erase(0, 1);
    return s;
}

std::string format_value(double v) {
    double a = std::fabs(v);
    if (a == 0 || !std::isfinite(v))
        return format_fixed(v, 0);
    if (a >= 1e12) // fixed notation would print every digit up to 1e308
        return format_scientific(v);
    if (a >= 1e6)
        return format_fixed(v / 1e6, 2) + "M";
    if (a >= 1e4)
        return format_fixed(v / 1e3, 1) + "k";
    if (a >= 100)
        return format_fixed(v, 0);
    if (a >= 10)
        return format_fixed(v, 1);
    if (a >= 1)
        return format_fixed(v, 2);
    int decimals = 2 - static_cast<int>(std::floor(std::log10(a)));
    return format_fixed(v, std::min(decimals, 12));
}

std::string format_exact(double v) {
    if (!std::isfinite(v))
        return format_fixed(v, 0);
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string("n/a");
}

std::string format_ratio(double ratio) {
    if (!std::isfinite(ratio))
        return "n/a";
    return (std::fabs(ratio) >= 1e6 ? format_scientific(ratio) : format_fixed(ratio, 2)) + "x";
}

std::string format_p(double p) {
    return p < 0.001 ? "<0.001" : format_fixed(p, 3);
}

std::string p_clause(double p) {
    return p < 0.001 ? "p < 0.001" : "p = " + format_fixed(p, 3);
}

} // namespace bootbench::core
