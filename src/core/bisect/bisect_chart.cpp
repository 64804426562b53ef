// bisect.svg: the metric along the history. Every build on the x axis in
// history order (oldest left; an untested build is a tick only), each
// tested build a dot at its median relative to good's with its 95%
// interval as a bar, the range left shaded, the threshold as a line.
// ASCII-only, valid XML, every text through xml_escape.
#include "core/base/text.hpp"
#include "core/bisect/bisect_report_parts.hpp"
#include "core/report/render_text.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>

namespace bootbench::core {

namespace {

constexpr double kWidth = 880, kPlotX = 80, kPlotW = 740, kInset = 12;
constexpr double kTop = 100, kPlotH = 240, kLabelsH = 100, kFooterH = 40;
constexpr size_t kLabelChars = 16, kFooterChars = 130;
const char* const kFont =
    "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

std::string num(double v) {
    return format_fixed(v, 1);
}

// By BuildRole: the endpoints and the range's ends dark, candidates light.
const char* const kRoleColors[] = {"#1a7f37", "#c62828", "#1a7f37", "#c62828",
                                   "#4ac26b", "#e57373", "#8a8f98", "#8a8f98"};

static_assert(std::size(kRoleColors) == std::size(kBuildRoleNames));

const char* color_of(BuildRole r) {
    return kRoleColors[static_cast<size_t>(r)];
}

// What the chart draws: the builds' figures, their parts, the scale.
struct Chart {
    const BisectReportInput& in;
    const BisectState& s;
    std::vector<BuildFigures> f;
    double lo = 0.9, hi = 1.1; // ratios at the bottom and top edges
    int count() const { return static_cast<int>(s.builds.size()); }
    double x(int build) const {
        double w = kPlotW - 2 * kInset;
        return kPlotX + kInset + (count() > 1 ? w * build / (count() - 1) : w / 2);
    }
    double y(double ratio) const {
        double t = (std::log(ratio) - std::log(lo)) / (std::log(hi) - std::log(lo));
        return kTop + (1 - std::clamp(t, 0.0, 1.0)) * kPlotH;
    }
};

double threshold_ratio(const BisectState& s) {
    return 1 / (1 + s.threshold);
}

// The edges: good (1.00x), the threshold and every interval, padded.
void fit_scale(Chart& c) {
    double lo = std::min(1.0, threshold_ratio(c.s)), hi = 1;
    for (const BuildFigures& b : c.f)
        if (b.to_good && b.to_good->ci.lo > 0)
            lo = std::min({lo, b.to_good->ci.lo, b.to_good->ratio}),
            hi = std::max({hi, b.to_good->ci.hi, b.to_good->ratio});
    double pad = std::max(0.01, 0.1 * (std::log(hi) - std::log(lo)));
    c.lo = std::exp(std::log(lo) - pad);
    c.hi = std::exp(std::log(hi) + pad);
}

void text(std::ostringstream& o, double x, double y, const std::string& attrs,
          const std::string& escaped) {
    o << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" " << attrs << ">" << escaped
      << "</text>\n";
}

void line(std::ostringstream& o, double x1, double y1, double x2, double y2,
          const std::string& attrs) {
    o << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\""
      << num(y2) << "\" " << attrs << "/>\n";
}

void header(std::ostringstream& o, const Chart& c) {
    text(o, 20, 30, "font-size=\"18\" font-weight=\"700\" fill=\"#1f2328\"",
         xml_fitted(c.in.experiment + ": " + c.s.metric + " along the history", 80));
    text(o, 20, 52, "font-size=\"12\" fill=\"#57606a\"",
         xml_escape("Each tested build's median relative to good's (= 1.00x; " + c.s.metric + ": " +
                    name_of(kBetterNames, c.s.better) +
                    " is better, drawn so that up is better). Bars: 95% bootstrap intervals."));
}

void legend(std::ostringstream& o) {
    const BuildRole roles[] = {BuildRole::good, BuildRole::like_good, BuildRole::like_bad,
                               BuildRole::bad, BuildRole::undecided};
    double x = 20;
    for (BuildRole r : roles) {
        std::string name = name_of(kBuildRoleNames, r);
        o << "<circle cx=\"" << num(x + 5) << "\" cy=\"74\" r=\"5\" fill=\"" << color_of(r)
          << "\"/>\n";
        text(o, x + 14, 78, "font-size=\"12\" fill=\"#1f2328\"", name);
        x += 30 + 7 * static_cast<double>(name.size());
    }
    line(o, x, 68, x, 80, "stroke=\"#1f2328\" stroke-width=\"1\"");
    text(o, x + 8, 78, "font-size=\"12\" fill=\"#57606a\"", "untested (a tick only)");
}

// The builds the regression may still be in, shaded; none without one.
void range_band(std::ostringstream& o, const Chart& c) {
    if (c.s.outcome == BisectOutcome::no_regression)
        return;
    double x1 = c.x(c.s.last_good), x2 = c.x(c.s.first_bad);
    o << "<rect x=\"" << num(x1) << "\" y=\"" << num(kTop) << "\" width=\"" << num(x2 - x1)
      << "\" height=\"" << num(kPlotH) << "\" fill=\"#c62828\" fill-opacity=\"0.07\"><title>"
      << xml_escape("the regression: after " + build_info(c.in, c.s.last_good).label +
                    ", at or before " + build_info(c.in, c.s.first_bad).label)
      << "</title></rect>\n";
}

void level_line(std::ostringstream& o, const Chart& c, double ratio, const std::string& label,
                const char* color) {
    line(o, kPlotX, c.y(ratio), kPlotX + kPlotW, c.y(ratio),
         std::string("stroke=\"") + color + "\" stroke-width=\"1\" stroke-dasharray=\"5 3\"");
    text(o, kPlotX - 6, c.y(ratio) + 4,
         std::string("font-size=\"11\" text-anchor=\"end\" fill=\"") + color + "\"",
         xml_escape(format_ratio(ratio)));
    text(o, kPlotX + kPlotW - 4, c.y(ratio) - 4,
         std::string("font-size=\"11\" text-anchor=\"end\" fill=\"") + color + "\"",
         xml_escape(label));
}

void axes(std::ostringstream& o, const Chart& c) {
    o << "<rect x=\"" << num(kPlotX) << "\" y=\"" << num(kTop) << "\" width=\"" << num(kPlotW)
      << "\" height=\"" << num(kPlotH) << "\" fill=\"none\" stroke=\"#d0d7de\"/>\n";
    for (double edge : {c.lo, c.hi})
        text(o, kPlotX - 6, c.y(edge) + 4, "font-size=\"11\" text-anchor=\"end\" fill=\"#57606a\"",
             xml_escape(format_ratio(edge)));
    level_line(o, c, 1, "good", "#57606a");
    level_line(o, c, threshold_ratio(c.s), "threshold: " + threshold_text(c.s) + " worse",
               "#c62828");
}

// Every build's tick on the x axis, its label in a tooltip.
void ticks(std::ostringstream& o, const Chart& c) {
    double y = kTop + kPlotH;
    for (int b = 0; b < c.count(); ++b)
        o << "<line x1=\"" << num(c.x(b)) << "\" y1=\"" << num(y) << "\" x2=\"" << num(c.x(b))
          << "\" y2=\"" << num(y + 6) << "\" stroke=\"#57606a\" stroke-width=\"1\"><title>"
          << xml_escape(build_line(c.in, b)) << "</title></line>\n";
}

std::string dot_title(const Chart& c, int b) {
    const BuildFigures& f = c.f[static_cast<size_t>(b)];
    return build_line(c.in, b) + "; " + count_of(f.runs, "run") + "; against good " +
           change_text(f.to_good) + ", against bad " + change_text(f.to_bad);
}

// What a marked build is called beside its dot.
std::string mark_of(const Chart& c, BuildRole r) {
    if (r == BuildRole::first_bad)
        return c.s.outcome == BisectOutcome::culprit ? "culprit" : "first bad";
    if (r == BuildRole::last_good)
        return "last good";
    return r == BuildRole::good || r == BuildRole::bad ? name_of(kBuildRoleNames, r) : "";
}

void mark(std::ostringstream& o, const Chart& c, int b, BuildRole r, double top) {
    std::string m = mark_of(c, r);
    if (m.empty())
        return;
    const char* anchor = r == BuildRole::last_good   ? "end"
                         : r == BuildRole::first_bad ? "start"
                                                     : "middle";
    text(o, c.x(b), std::max(kTop + 12, top - 8),
         std::string("font-size=\"11\" font-weight=\"700\" text-anchor=\"") + anchor +
             "\" fill=\"" + color_of(r) + "\"",
         m);
}

void dot(std::ostringstream& o, const Chart& c, int b) {
    const auto& r = c.f[static_cast<size_t>(b)].to_good;
    BuildRole role = role_of(c.s, b);
    if (!r)
        return;
    line(o, c.x(b), c.y(r->ci.lo), c.x(b), c.y(r->ci.hi),
         std::string("stroke=\"") + color_of(role) + "\" stroke-width=\"3\" opacity=\"0.45\"");
    o << "<circle cx=\"" << num(c.x(b)) << "\" cy=\"" << num(c.y(r->ratio)) << "\" r=\"5\" fill=\""
      << color_of(role) << "\""
      << (mark_of(c, role) == "culprit" ? " stroke=\"#1f2328\" stroke-width=\"2\"" : "")
      << "><title>" << xml_escape(dot_title(c, b)) << "</title></circle>\n";
    mark(o, c, b, role, c.y(r->ci.hi));
}

// The tested builds' labels, slanted under the axis.
void labels(std::ostringstream& o, const Chart& c) {
    double y = kTop + kPlotH + 16;
    for (int b = 0; b < c.count(); ++b)
        if (c.f[static_cast<size_t>(b)].runs > 0)
            o << "<text x=\"" << num(c.x(b)) << "\" y=\"" << num(y) << "\" transform=\"rotate(-50 "
              << num(c.x(b)) << " " << num(y)
              << ")\" font-size=\"10\" text-anchor=\"end\" fill=\"#1f2328\">"
              << xml_fitted(build_info(c.in, b).label, kLabelChars) << "</text>\n";
}

int tested_count(const Chart& c) {
    return static_cast<int>(
        std::count_if(c.f.begin(), c.f.end(), [](const BuildFigures& f) { return f.runs > 0; }));
}

void footer(std::ostringstream& o, const Chart& c) {
    double y = kTop + kPlotH + kLabelsH;
    text(o, 20, y, "font-size=\"13\" font-weight=\"700\" fill=\"#1f2328\"",
         xml_fitted(bisect_headline(c.in), kFooterChars));
    text(o, 20, y + 18, "font-size=\"11\" fill=\"#57606a\"",
         xml_escape(count_of(c.count(), "build") + " in history order, oldest left; " +
                    std::to_string(tested_count(c)) + " tested." +
                    (c.s.outcome == BisectOutcome::no_regression
                         ? ""
                         : " Shaded: where the regression lies.")));
}

void svg_open(std::ostringstream& o, const BisectReportInput& in, double height) {
    std::string headline = xml_escape(bisect_headline(in));
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(kWidth) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(kWidth) << " " << num(height)
      << "\" font-family=\"" << kFont << "\" role=\"img\" aria-label=\"" << headline
      << "\">\n<title>" << headline
      << "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
}

} // namespace

std::string render_bisect_svg(const BisectReportInput& in) {
    Chart c{in, state_of(in), build_figures(in)};
    fit_scale(c);
    double height = kTop + kPlotH + kLabelsH + kFooterH;
    std::ostringstream o;
    svg_open(o, in, height);
    header(o, c);
    legend(o);
    range_band(o, c);
    axes(o, c);
    ticks(o, c);
    for (int b = 0; b < c.count(); ++b)
        dot(o, c, b);
    labels(o, c);
    footer(o, c);
    o << "</svg>\n";
    return o.str();
}

} // namespace bootbench::core
