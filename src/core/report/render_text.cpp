#include "core/report/render_text.hpp"

#include <charconv>
#include <cmath>
#include <set>
#include <utility>

namespace bootbench::core {

namespace {

std::string percent_change(double subject, double baseline) {
    double pct = (subject - baseline) / baseline * 100;
    std::string s = format_fixed(pct, std::fabs(pct) >= 10 ? 0 : 1);
    return (pct > 0 && s.find_first_not_of("0.") != std::string::npos ? "+" : "") + s + "%";
}

} // namespace

namespace {

// The words for "the subject's value is lower / higher", by what the unit
// measures and which way is better: a time is faster or slower only where
// less time is better (a time where more is better, to a thermal limit or on
// a battery, is longer or shorter).
std::pair<const char*, const char*> comparison_words(const std::string& unit, Better better) {
    static const std::set<std::string> times = {"ns", "us", "ms", "s", "min", "h", "usec", "msec", "sec"};
    static const std::set<std::string> sizes = {"B", "kB", "KB", "KiB", "MB", "MiB", "GB", "GiB", "bytes"};
    static const std::set<std::string> energies = {"J", "kJ", "mJ", "Wh", "mWh", "kWh"};
    std::string base = unit.substr(0, unit.find('/')); // "us/op" is a time per operation
    if (times.count(base))
        return better == Better::lower ? std::pair{"faster", "slower"} : std::pair{"shorter", "longer"};
    if (sizes.count(unit))
        return {"smaller", "larger"};
    if (energies.count(unit))
        return {"less", "more"};
    return {"fewer", "more"}; // counts and rates: ops/s, events
}

// A subject/baseline quotient in words: "1.20x slower", "the same".
std::string quotient_words(const MetricReport& m, double q) {
    auto [lower_word, higher_word] = comparison_words(m.unit, m.better);
    double factor = q < 1 ? 1 / q : q;
    if (!std::isfinite(factor))
        return "too far apart for a factor";
    if (format_ratio(factor) == "1.00x")
        return "the same";
    return format_ratio(factor) + " " + (q < 1 ? lower_word : higher_word);
}

// A span of ratios (as Comparison::ratio) in the words of the medians' ratio:
// "1.20x to 3.70x slower", "1.10x faster to 1.30x slower".
std::string span_words(const MetricReport& m, const Interval& span) {
    auto quotient = [&](double ratio) { return m.better == Better::lower ? 1 / ratio : ratio; };
    double a = quotient(span.lo), b = quotient(span.hi);
    if (a > b)
        std::swap(a, b);
    std::string lo = quotient_words(m, a), hi = quotient_words(m, b);
    if (lo == hi)
        return lo; // one run each: "1.10x more"
    bool same_side = (a < 1) == (b < 1) && lo != "the same" && hi != "the same";
    if (!same_side)
        return lo + " to " + hi;
    if (a < 1) // both below: the larger factor first reads from small to large
        std::swap(lo, hi);
    return lo.substr(0, lo.find(' ')) + " to " + hi;
}

} // namespace

// The factor is always read as >= 1 and worded from the subject's side, from
// the two medians themselves, so a call with subject and baseline swapped
// reads the other way round.
std::string describe_ratio(const MetricReport& m, const std::string& subject,
                           const std::string& baseline) {
    double s = m.find(subject)->summary.median, b = m.find(baseline)->summary.median;
    std::string words = quotient_words(m, s / b);
    std::string unit = m.unit.empty() ? "" : " " + ascii_safe(m.unit);
    return words + " (" + format_value(s) + " vs " + format_value(b) + unit + ", " +
           percent_change(s, b) + ")";
}

std::string not_compared(const MetricReport& m, const std::string& subject,
                         const std::string& baseline) {
    for (const std::string* t : {&baseline, &subject})
        if (const MetricTarget* x = m.find(*t); !x || x->summary.n == 0)
            return "not compared: " + ascii_safe(*t) + " has no value";
    return "not compared: a median is 0 or negative, so no ratio";
}

std::string interval_text(const MetricReport& m) {
    const Comparison& c = *m.comparison;
    if (c.no_interval.empty())
        return "95% CI " + span_words(m, c.ci);
    std::string range = std::isnan(c.run_range.lo) ? "" : "; runs range " + span_words(m, c.run_range);
    return "no interval: " + ascii_safe(c.no_interval) + range;
}

bool too_few_runs(const Comparison& c) {
    return c.no_interval.rfind("fewer than", 0) == 0; // report.cpp's too_few_for_interval
}

std::string interval_short(const MetricReport& m) {
    const Comparison& c = *m.comparison;
    if (too_few_runs(c) && !std::isnan(c.run_range.lo))
        return "runs range " + span_words(m, c.run_range);
    return interval_text(m);
}

std::string verdict_mark(const MetricReport& m) {
    if (!m.comparison)
        return "n/a";
    return m.comparison->verdict == Verdict::same ? "~" : to_string(m.comparison->verdict);
}

std::string same_reason(const Comparison& c) {
    if (c.verdict != Verdict::same)
        return "";
    if (c.ratio == 1)
        return "~ as the medians are equal";
    std::string spans = c.no_interval.empty() && c.ci.lo <= 1 && c.ci.hi >= 1 ? "the interval spans 1.00x" : "";
    std::string p = c.p_adjusted >= kAlpha ? p_clause(c.p_adjusted) + " (Holm) not below " + format_fixed(kAlpha, 2)
                                           : "";
    return "~ as " + spans + (spans.empty() || p.empty() ? "" : ", ") + p;
}

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : ascii_safe(s)) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string xml_fitted(const std::string& text, size_t chars) {
    if (text.size() <= chars)
        return xml_escape(text);
    return xml_escape(text.substr(0, chars - 3)) + "...<title>" + xml_escape(text) + "</title>";
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

namespace bootbench::core {

const char* const kOutlierRule =
    "A run is flagged on a metric by the generalized ESD test on the logarithms of its "
    "target's values (1-1.6% of sets of runs without an outlier get a flag), when it also lies more than "
    "10% from the median of the other runs. Flagged runs are kept unless excluded.";

std::string outlier_distance(const Outlier& o) {
    std::string rest = format_value(o.rest_median);
    if (o.rest_median == 0 || !std::isfinite(o.value / o.rest_median))
        return "the other runs' median is " + rest;
    return format_ratio(o.value / o.rest_median) + " the median of the other runs, " + rest;
}

} // namespace bootbench::core
