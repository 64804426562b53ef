#include "core/render_text.hpp"

#include <charconv>
#include <cmath>

namespace bootbench::core {

namespace {

std::string percent_change(double subject, double baseline) {
    double pct = (subject - baseline) / baseline * 100;
    std::string s = format_fixed(pct, std::fabs(pct) >= 10 ? 0 : 1);
    return (pct > 0 && s.find_first_not_of("0.") != std::string::npos ? "+" : "") + s + "%";
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

std::string format_ratio(double ratio) { return format_fixed(ratio, 2) + "x"; }

std::string format_p(double p) { return p < 0.001 ? "<0.001" : format_fixed(p, 3); }

std::string describe_ratio(const MetricReport& m, const std::string& subject,
                           const std::string& baseline) {
    double r = m.comparison->ratio;
    double s = m.find(subject)->summary.median, b = m.find(baseline)->summary.median;
    bool lower = m.better == Better::lower;
    std::string words;
    if (format_ratio(r) == "1.00x")
        words = "the same";
    else if (r > 1)
        words = format_ratio(r) + (lower ? " faster" : " more");
    else
        words = format_ratio(1 / r) + (lower ? " slower" : " fewer");
    std::string unit = m.unit.empty() ? "" : " " + ascii_safe(m.unit);
    return words + " (" + format_value(s) + " vs " + format_value(b) + unit + ", " +
           percent_change(s, b) + ")";
}

std::string verdict_mark(const MetricReport& m) {
    if (!m.comparison)
        return "n/a";
    return m.comparison->verdict == Verdict::same ? "~" : to_string(m.comparison->verdict);
}

std::string ascii_safe(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            // one '?' per UTF-8 sequence, not per byte
            while (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80)
                ++i;
            out += '?';
        } else if (c < 0x20 || c == 0x7f) {
            out += ' ';
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : ascii_safe(s)) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string md_escape(const std::string& s) {
    std::string out;
    for (char c : ascii_safe(s)) {
        if (std::string("|\\`*_[]<>").find(c) != std::string::npos)
            out += '\\';
        out += c;
    }
    return out;
}

} // namespace bootbench::core
