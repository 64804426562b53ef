#include "core/report/render_svg.hpp"

#include "core/report/render_markdown.hpp"
#include "core/report/render_text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bootbench::core {

namespace {

constexpr double kWidth = 880, kLabelW = 290, kPlotW = 300, kRightGap = 22;
// The most characters of a metric's label (bold) and key that fit in kLabelW.
constexpr size_t kLabelChars = 36, kKeyChars = 42;
constexpr double kPlotX = kLabelW, kTextX = kPlotX + kPlotW + kRightGap;
constexpr double kHeaderH = 92, kLaneH = 15, kRowPad = 14, kFooterH = 124;
const char* const kFont =
    "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const char* const kColors[] = {"#8a8f98", "#1f6fd1", "#d97706", "#7c3aed", "#059669", "#db2777"};

std::string num(double v) {
    return format_fixed(v, 1);
}

const char* color_of(size_t target_index) {
    return kColors[std::min<size_t>(target_index, 5)];
}

// The relative performance of one value against the baseline median; 0 when
// it cannot be placed on a log scale.
double relative(const MetricReport& m, double value, double baseline_median) {
    if (value <= 0 || baseline_median <= 0)
        return 0;
    return better_ratio(value, baseline_median, m.better);
}

const double kTicks[] = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.33, 0.5, 0.67, 0.8,
                         0.9,   1,     1.1,   1.25, 1.5,  2,    3,   4,   5,    10,   20,  50,  100,
                         200,   500,   1000};

// The plot's edges land on ticks, so the axis is labelled past every dot.
double snap_up(double ratio) {
    for (double t : kTicks)
        if (t >= ratio)
            return t;
    return ratio;
}

double snap_down(double ratio) {
    for (auto it = std::rbegin(kTicks); it != std::rend(kTicks); ++it)
        if (*it <= ratio)
            return *it;
    return ratio;
}

struct Scale {
    double lo = 0.5, hi = 2; // ratios at the plot's edges
    double x(double ratio) const {
        double t = (std::log(ratio) - std::log(lo)) / (std::log(hi) - std::log(lo));
        return kPlotX + std::clamp(t, 0.0, 1.0) * kPlotW;
    }
};

double baseline_median(const Report& r, const MetricReport& m) {
    const MetricTarget* b = m.find(r.baseline);
    return b && b->summary.n ? b->summary.median : 0;
}

Scale make_scale(const Report& r) {
    double lo = 1, hi = 1;
    for (const auto& m : r.metrics) {
        double bm = baseline_median(r, m);
        for (const auto& t : m.targets)
            for (const auto& s : t.samples)
                if (double rel = relative(m, s.value, bm); rel > 0)
                    lo = std::min(lo, rel), hi = std::max(hi, rel);
        if (m.comparison && m.comparison->no_interval.empty() && m.comparison->ci.lo > 0)
            lo = std::min(lo, m.comparison->ci.lo), hi = std::max(hi, m.comparison->ci.hi);
    }
    double pad = std::max(0.04, 0.08 * (std::log(hi) - std::log(lo)));
    return {snap_down(std::exp(std::log(lo) - pad)), snap_up(std::exp(std::log(hi) + pad))};
}

double row_height(const Report& r) {
    return kRowPad * 2 + kLaneH * static_cast<double>(r.targets.size());
}

void header(std::ostringstream& o, const Report& r) {
    o << "<text x=\"20\" y=\"30\" font-size=\"18\" font-weight=\"700\" fill=\"#1f2328\">"
      << xml_escape(r.title) << "</text>\n"
      << "<text x=\"20\" y=\"52\" font-size=\"12\" fill=\"#57606a\">Relative performance against "
      << xml_escape(r.baseline)
      << " (= 1.00x). Right of the line is better; times and latencies are inverted.</text>\n";
    double x = 20;
    for (size_t i = 0; i < r.targets.size(); ++i) {
        std::string name =
            xml_escape(r.targets[i].name) + (r.targets[i].name == r.baseline ? " (baseline)" : "");
        o << "<circle cx=\"" << num(x + 5) << "\" cy=\"73\" r=\"5\" fill=\"" << color_of(i)
          << "\"/>"
          << "<text x=\"" << num(x + 14) << "\" y=\"77\" font-size=\"12\" fill=\"#1f2328\">" << name
          << "</text>\n";
        x += 30 + 6.6 * static_cast<double>(name.size());
    }
    o << "<line x1=\"" << num(x) << "\" y1=\"73\" x2=\"" << num(x + 24) << "\" y2=\"73\" stroke=\""
      << color_of(1)
      << "\" stroke-width=\"3\" stroke-linecap=\"round\" opacity=\"0.35\"/><text x=\""
      << num(x + 30) << "\" y=\"77\" font-size=\"12\" fill=\"#57606a\">95% interval</text>\n";
    x += 120;
    o << "<line x1=\"" << num(x) << "\" y1=\"66\" x2=\"" << num(x)
      << "\" y2=\"80\" stroke=\"#1f2328\" stroke-width=\"2\"/>"
      << "<text x=\"" << num(x + 7)
      << "\" y=\"77\" font-size=\"12\" fill=\"#57606a\">median</text>\n";
}

std::string tick_label(double t) {
    return format_fixed(t, t >= 2 && t == std::floor(t) ? 0 : 2) + "x";
}

// The ticks drawn: 1.00x and both edges first, then others where their
// labels keep 38 px from every label already chosen.
std::vector<double> chosen_ticks(const Scale& sc) {
    std::vector<double> chosen = {1}, candidates = {sc.hi, sc.lo};
    candidates.insert(candidates.end(), std::begin(kTicks), std::end(kTicks));
    for (double t : candidates) {
        bool clear = std::all_of(chosen.begin(), chosen.end(),
                                 [&](double c) { return std::fabs(sc.x(t) - sc.x(c)) >= 38; });
        if (t >= sc.lo && t <= sc.hi && clear)
            chosen.push_back(t);
    }
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    return chosen;
}

void grid(std::ostringstream& o, const Scale& sc, double top, double bottom) {
    for (double t : chosen_ticks(sc)) {
        double x = sc.x(t);
        o << "<line x1=\"" << num(x) << "\" y1=\"" << num(top) << "\" x2=\"" << num(x) << "\" y2=\""
          << num(bottom) << "\" stroke=\"" << (t == 1 ? "#57606a" : "#d0d7de")
          << "\" stroke-width=\"1\"" << (t == 1 ? " stroke-dasharray=\"4 3\"" : "")
          << "/>\n<text x=\"" << num(x) << "\" y=\"" << num(bottom + 16)
          << "\" font-size=\"11\" text-anchor=\"middle\" fill=\"#57606a\">"
          << tick_label(t) << "</text>\n";
    }
}

// A stable vertical jitter in [-3, 3] so that equal values stay visible.
double jitter(size_t i) {
    return static_cast<double>(static_cast<int>((i * 7919) % 7) - 3);
}

void box(std::ostringstream& o, std::vector<double> rel, double y, const Scale& sc,
         const char* color) {
    std::sort(rel.begin(), rel.end());
    double q1 = sc.x(quantile_sorted(rel, 0.25)), q3 = sc.x(quantile_sorted(rel, 0.75));
    o << "<line x1=\"" << num(sc.x(rel.front())) << "\" y1=\"" << num(y) << "\" x2=\""
      << num(sc.x(rel.back())) << "\" y2=\"" << num(y) << "\" stroke=\"" << color
      << "\" stroke-width=\"1.5\"/>"
      << "<rect x=\"" << num(q1) << "\" y=\"" << num(y - 5) << "\" width=\""
      << num(std::max(1.0, q3 - q1)) << "\" height=\"10\" fill=\"" << color
      << "\" fill-opacity=\"0.45\" stroke=\"" << color << "\"/>\n";
}

void strip(std::ostringstream& o, const Report& r, const MetricReport& m, size_t ti, double y,
           const Scale& sc) {
    const MetricTarget& t = m.targets[ti];
    double bm = baseline_median(r, m);
    std::vector<double> rel;
    for (const auto& s : t.samples)
        if (double v = relative(m, s.value, bm); v > 0)
            rel.push_back(v);
    if (rel.empty())
        return;
    if (rel.size() > kMaxPointsPerStrip)
        box(o, rel, y, sc, color_of(ti));
    else
        for (size_t i = 0; i < t.samples.size(); ++i) {
            double v = relative(m, t.samples[i].value, bm);
            if (v <= 0)
                continue;
            bool flagged = std::any_of(r.outliers.begin(), r.outliers.end(), [&](const Outlier& x) {
                return x.run == t.samples[i].run && x.metric == m.key;
            });
            o << "<circle cx=\"" << num(sc.x(v)) << "\" cy=\"" << num(y + jitter(i))
              << "\" r=\"4\" fill=\"" << color_of(ti) << "\" fill-opacity=\"0.8\""
              << (flagged ? " stroke=\"#c62828\" stroke-width=\"2\"" : "") << "><title>"
              << xml_escape(t.samples[i].run) << ": "
              << xml_escape(format_value(t.samples[i].value)) << (flagged ? " (outlier)" : "")
              << "</title></circle>\n";
        }
    double med = sc.x(relative(m, t.summary.median, bm));
    o << "<line x1=\"" << num(med) << "\" y1=\"" << num(y - 7) << "\" x2=\"" << num(med)
      << "\" y2=\"" << num(y + 7) << "\" stroke=\"#1f2328\" stroke-width=\"2\"/>\n";
}

void interval(std::ostringstream& o, const MetricReport& m, double y, const Scale& sc) {
    if (!m.comparison || !m.comparison->no_interval.empty() || m.comparison->ci.lo <= 0)
        return;
    o << "<line x1=\"" << num(sc.x(m.comparison->ci.lo)) << "\" y1=\"" << num(y) << "\" x2=\""
      << num(sc.x(m.comparison->ci.hi)) << "\" y2=\"" << num(y) << "\" stroke=\"" << color_of(1)
      << "\" stroke-width=\"9\" stroke-linecap=\"round\" opacity=\"0.25\"/>\n";
}

void verdict_text(std::ostringstream& o, const Report& r, const MetricReport& m, double y) {
    if (!m.comparison) {
        o << "<text x=\"" << num(kTextX) << "\" y=\"" << num(y)
          << "\" font-size=\"12\" fill=\"#57606a\">"
          << xml_escape(not_compared(m, r.subject, r.baseline)) << "</text>\n";
        return;
    }
    const Comparison& c = *m.comparison;
    const char* color = c.verdict == Verdict::better  ? "#1a7f37"
                        : c.verdict == Verdict::worse ? "#c62828"
                                                      : "#57606a";
    std::string words = describe_ratio(m, r.subject, r.baseline);
    std::string head = words.substr(0, words.find(" ("));
    std::string detail =
        std::string(c.verdict == Verdict::same ? "not significant" : to_string(c.verdict)) + ", " +
        p_clause(c.p_adjusted) + " (Holm)";
    o << "<text x=\"" << num(kTextX) << "\" y=\"" << num(y - 4)
      << "\" font-size=\"14\" font-weight=\"700\" fill=\"" << color << "\">"
      << (c.verdict == Verdict::same ? "~ " : "") << xml_escape(head) << "</text>\n"
      << "<text x=\"" << num(kTextX) << "\" y=\"" << num(y + 12)
      << "\" font-size=\"11\" fill=\"#57606a\">" << xml_escape(detail) << "</text>\n"
      << "<text x=\"" << num(kTextX) << "\" y=\"" << num(y + 26)
      << "\" font-size=\"11\" fill=\"#57606a\">" << xml_escape(interval_short(m))
      << "</text>\n";
}

void metric_row(std::ostringstream& o, const Report& r, size_t mi, double top, const Scale& sc) {
    const MetricReport& m = r.metrics[mi];
    double mid = top + row_height(r) / 2;
    std::string key = m.key + (m.unit.empty() ? "" : ", " + m.unit);
    o << "<text x=\"20\" y=\"" << num(mid - 3)
      << "\" font-size=\"12.5\" font-weight=\"600\" fill=\"#1f2328\">" << xml_fitted(m.label, kLabelChars)
      << "</text>\n"
      << "<text x=\"20\" y=\"" << num(mid + 13) << "\" font-size=\"11\" fill=\"#57606a\">"
      << xml_fitted(key, kKeyChars) << "</text>\n";
    for (size_t ti = 0; ti < m.targets.size(); ++ti) {
        double y = top + kRowPad + kLaneH * (static_cast<double>(ti) + 0.5);
        if (m.targets[ti].target == r.subject)
            interval(o, m, y, sc);
        strip(o, r, m, ti, y, sc);
    }
    verdict_text(o, r, m, mid);
}

std::string few_runs_note(const Report& r) {
    for (const auto& m : r.metrics)
        if (m.comparison && too_few_runs(*m.comparison))
            return "Below 6 runs per target there is no 95% interval: runs range is the smallest "
                   "and largest ratio of one run to one run.";
    return "";
}

void footer(std::ostringstream& o, const Report& r, double top) {
    std::string caption = caption_line(r);
    std::string note = "Every dot is one run";
    for (const auto& m : r.metrics)
        for (const auto& t : m.targets)
            if (t.samples.size() > kMaxPointsPerStrip)
                note = "Over " + std::to_string(kMaxPointsPerStrip) +
                       " runs per target: boxes show quartiles, whiskers min and max";
    note += "; a red ring marks an outlier.";
    std::string tag = r.caption.provenance_tag;
    const std::string lines[] = {
        tag.empty() ? "" : "Not a measurement of the targets: " + tag + ".",
        note,
        "~ : no real difference shown (p >= 0.05 after Holm's adjustment over the metrics, or "
        "the 95% interval includes 1.00x).",
        few_runs_note(r),
        caption, "Runs: " + runs_per_target(r) + "."};
    double y = top + 40;
    for (const auto& line : lines) {
        if (line.empty())
            continue;
        bool warning = &line == &lines[0]; // the provenance: never to be missed on a pasted chart
        o << "<text x=\"20\" y=\"" << num(y) << "\" font-size=\"11\" "
          << (warning ? "font-weight=\"bold\" fill=\"#cf222e\"" : "fill=\"#57606a\"") << ">" << xml_escape(line)
          << "</text>\n";
        y += 16;
    }
}

} // namespace

std::string render_svg(const Report& r) {
    Scale sc = make_scale(r);
    double rh = row_height(r), rows_h = rh * static_cast<double>(r.metrics.size());
    double height = kHeaderH + rows_h + kFooterH + (r.caption.provenance_tag.empty() ? 0 : 16);
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(kWidth) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(kWidth) << " " << num(height)
      << "\" font-family=\"" << kFont << "\" role=\"img\" aria-label=\"" << xml_escape(r.title)
      << "\">\n<title>" << xml_escape(r.title)
      << "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    header(o, r);
    for (size_t i = 0; i < r.metrics.size(); i += 2)
        o << "<rect x=\"10\" y=\"" << num(kHeaderH + rh * static_cast<double>(i)) << "\" width=\""
          << num(kWidth - 20) << "\" height=\"" << num(rh) << "\" fill=\"#f6f8fa\"/>\n";
    grid(o, sc, kHeaderH, kHeaderH + rows_h);
    for (size_t i = 0; i < r.metrics.size(); ++i)
        metric_row(o, r, i, kHeaderH + rh * static_cast<double>(i), sc);
    footer(o, r, kHeaderH + rows_h);
    o << "</svg>\n";
    return o.str();
}

} // namespace bootbench::core
