#include "core/report/render_html.hpp"

#include "core/report/render_markdown.hpp"
#include "core/report/render_svg.hpp"
#include "core/report/render_text.hpp"
#include "core/report/render_counters.hpp"
#include "core/report/render_explain.hpp"
#include "core/report/render_variance.hpp"

#include <sstream>

namespace bootbench::core {

namespace {

// An option in a sentence, "(--exclude RUN_ID)", never breaks across lines.
std::string options_unbroken(const std::string& html) {
    std::string out;
    size_t from = 0;
    for (size_t at; (at = html.find("(--", from)) != std::string::npos;) {
        size_t end = html.find(')', at);
        if (end == std::string::npos)
            break;
        out += html.substr(from, at - from) + "<span class=\"nowrap\">" + html.substr(at, end + 1 - at) + "</span>";
        from = end + 1;
    }
    return out + html.substr(from);
}

const char* const kStyle = R"(
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif;
       color: #1f2328; background: #fff; margin: 2rem auto; max-width: 60rem; padding: 0 1rem;
       line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #d0d7de; padding-bottom: 0.2rem; }
.caption { color: #57606a; margin-top: 0; }
.provenance { background: #fff8c5; border: 1px solid #d4a72c; padding: 8px 12px; }
.warnings { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: 0.6rem 1rem; }
.warnings li { margin: 0.25rem 0; }
.nowrap { white-space: nowrap; }
figure { margin: 1.5rem 0; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.9rem; display: block;
        max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.better { color: #1a7f37; font-weight: 600; }
.worse { color: #c62828; font-weight: 600; }
.same { color: #57606a; }
.flag { color: #c62828; }
.method { color: #57606a; font-size: 0.9rem; }
code { font-size: 0.85em; overflow-wrap: anywhere; }
)";

std::string esc(const std::string& s) {
    return xml_escape(s);
}

std::string verdict_class(const MetricReport& m) {
    if (!m.comparison)
        return "same";
    return m.comparison->verdict == Verdict::same ? "same" : to_string(m.comparison->verdict);
}

void comparison_table(std::ostringstream& o, const Report& r) {
    o << "<table>\n<tr><th>metric</th>";
    for (const auto& t : r.targets)
        o << "<th>" << esc(t.name) << (t.name == r.baseline ? " (baseline)" : "") << "</th>";
    o << "<th>" << esc(r.subject) << " vs " << esc(r.baseline)
      << "</th><th>interval</th><th>p (Holm)</th><th>verdict</th></tr>\n";
    for (const auto& m : r.metrics) {
        o << "<tr><td>" << esc(m.label) << "<br><code>" << esc(m.key) << "</code>, " << esc(m.unit)
          << ", " << to_string(m.better) << " is better</td>";
        for (const auto& t : m.targets)
            o << "<td class=\"num\">"
              << (t.summary.n
                      ? format_value(t.summary.median) + " (n=" + std::to_string(t.summary.n) + ")"
                      : "-")
              << "</td>";
        if (!m.comparison) {
            o << "<td colspan=\"3\">" << esc(not_compared(m, r.subject, r.baseline))
              << "</td><td>n/a</td></tr>\n";
            continue;
        }
        const Comparison& c = *m.comparison;
        o << "<td class=\"" << verdict_class(m) << "\">"
          << esc(describe_ratio(m, r.subject, r.baseline)) << "</td><td>"
          << esc(interval_text(m)) << "</td><td class=\"num\">" << esc(format_p(c.p_adjusted))
          << "</td><td class=\"" << verdict_class(m) << "\">" << esc(verdict_mark(m))
          << "</td></tr>\n";
    }
    o << "</table>\n";
}

void spread_table(std::ostringstream& o, const Report& r) {
    o << "<h2>Per target</h2>\n<table>\n<tr><th>metric</th><th>target</th><th>n</th><th>median</th>"
         "<th>min</th><th>max</th><th>spread</th><th>every run</th></tr>\n";
    for (const auto& m : r.metrics)
        for (const auto& t : m.targets) {
            const Summary& s = t.summary;
            o << "<tr><td><code>" << esc(m.key) << "</code></td><td>" << esc(t.target)
              << "</td><td class=\"num\">" << s.n << "</td>";
            if (s.n == 0) {
                o << "<td>-</td><td>-</td><td>-</td><td>-</td><td></td></tr>\n";
                continue;
            }
            o << "<td class=\"num\">" << format_value(s.median) << "</td><td class=\"num\">"
              << format_value(s.min) << "</td><td class=\"num\">" << format_value(s.max)
              << "</td><td class=\"num\">" << format_fixed(s.spread_pct, 1) << "%</td><td>";
            if (t.samples.size() <= kMaxRunsListed)
                for (size_t i = 0; i < t.samples.size(); ++i)
                    o << (i ? ", " : "") << esc(format_exact(t.samples[i].value));
            else
                o << t.samples.size() << " values in report.json";
            o << "</td></tr>\n";
        }
    o << "</table>\n";
}

void lists(std::ostringstream& o, const Report& r) {
    if (!r.outliers.empty()) {
        o << "<h2>Outliers</h2>\n<p class=\"method\">" << esc(kOutlierRule) << "</p>\n<ul>\n";
        for (size_t i = 0; i < r.outliers.size() && i < kMaxOutliersListed; ++i) {
            const Outlier& x = r.outliers[i];
            o << "<li><span class=\"flag\">" << esc(x.run) << "</span> on <code>" << esc(x.metric)
              << "</code>: " << esc(format_value(x.value)) << ", " << esc(outlier_distance(x))
              << "</li>\n";
        }
        if (r.outliers.size() > kMaxOutliersListed)
            o << "<li>and " << r.outliers.size() - kMaxOutliersListed
              << " more (report.json lists them all)</li>\n";
        o << "</ul>\n";
    }
    std::ostringstream excluded, failed;
    for (const auto& t : r.targets) {
        for (const auto& e : t.excluded)
            excluded << "<li>" << esc(e.run) << " (" << esc(t.name) << "): " << esc(e.reason)
                     << "</li>\n";
        for (const auto& f : t.failed)
            failed << "<li>" << esc(f.run) << " (" << esc(t.name) << "): " << esc(f.failure)
                   << "</li>\n";
    }
    if (!excluded.str().empty())
        o << "<h2>Excluded runs</h2>\n<ul>\n" << excluded.str() << "</ul>\n";
    if (!failed.str().empty())
        o << "<h2>Failed runs</h2>\n<ul>\n" << failed.str() << "</ul>\n";
}

} // namespace

namespace {

void header(std::ostringstream& o, const Report& r) {
    o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<link rel=\"icon\" href=\"data:,\">\n<title>" << esc(r.title) << "</title>\n<style>"
      << kStyle << "</style>\n</head>\n<body>\n<h1>" << esc(r.title) << "</h1>\n";
    if (!r.incomplete.empty())
        o << "<p class=\"provenance\"><strong>Incomplete: " << esc(r.incomplete) << ".</strong> "
          << esc(kIncompleteText) << "</p>\n";
    if (!r.caption.provenance.empty())
        o << "<p class=\"provenance\"><strong>Not a measurement of the targets.</strong> "
          << esc(r.caption.provenance) << "</p>\n";
    std::string caption = caption_line(r);
    o << "<p class=\"caption\">" << esc(caption.empty() ? "" : caption + ". ")
      << "Runs per target: " << esc(runs_per_target(r)) << ".</p>\n";
    if (!r.stopped.empty())
        o << "<p class=\"caption\">Stopped: " << esc(r.stopped) << ".</p>\n";
    if (std::string systems = systems_line(r); !systems.empty())
        o << "<p class=\"caption\">Booted: " << esc(systems) << ".</p>\n";
    if (std::string images = images_line(r); !images.empty())
        o << "<p class=\"caption\">Images: " << esc(images) << ".</p>\n";
    if (std::string layered = layered_line(r); !layered.empty())
        o << "<p class=\"caption\">Layered on the image by rpm-ostree (measured with it): " << esc(layered)
          << ".</p>\n";
}

void variance_section(std::ostringstream& o, const Report& r) {
    std::vector<std::string> lines = variance_lines(r);
    if (lines.empty())
        return;
    o << "<h2>Iterations inside a boot</h2>\n<ul>\n";
    for (const auto& l : lines)
        o << "<li>" << esc(l) << "</li>\n";
    o << "</ul>\n<p class=\"method\">" << esc(variance_costs_line(r)) << " "
      << esc(variance_method_text()) << "</p>\n";
}

void arms_section(std::ostringstream& o, const Report& r) {
    const ArmsSection& a = r.arms;
    if (a.empty())
        return;
    o << "<h2>What differs between the arms</h2>\n<p class=\"method\">" << esc(arms_intro_text()) << "</p>\n";
    if (!a.rows.empty()) {
        o << "<table>\n<tr><th>what</th>";
        for (const auto& t : a.targets)
            o << "<th>" << esc(t) << (t == r.baseline ? " (baseline)" : "") << "</th>";
        o << "</tr>\n";
    }
    for (const ArmRow& row : a.rows) {
        o << "<tr><td>" << esc(row_label(row)) << "</td>";
        for (const ArmCell& c : row.cells)
            o << "<td" << (c.varies() ? " class=\"varies\"" : "") << ">" << esc(cell_text(c)) << "</td>";
        o << "</tr>\n";
    }
    o << (a.rows.empty() ? "" : "</table>\n") << "<ul>\n";
    for (const ArmPackages& p : a.packages)
        o << "<li>" << esc(packages_line(p)) << "</li>\n";
    for (const std::string& n : a.notes)
        o << "<li>" << esc(n) << "</li>\n";
    o << "</ul>\n";
}

} // namespace

std::string render_html(const Report& r) {
    std::ostringstream o;
    header(o, r);
    if (!r.warnings.empty()) {
        o << "<div class=\"warnings\"><strong>Warnings</strong>\n<ul>\n";
        for (const auto& w : r.warnings)
            o << "<li>" << options_unbroken(esc(w)) << "</li>\n";
        o << "</ul></div>\n";
    }
    o << "<figure>\n" << render_svg(r) << "</figure>\n";
    comparison_table(o, r);
    o << "<p class=\"method\">" << esc(method_text()) << "</p>\n";
    spread_table(o, r);
    variance_section(o, r);
    arms_section(o, r);
    o << counters_html(r);
    o << explanations_html(r);
    lists(o, r);
    o << "</body>\n</html>\n";
    return o.str();
}

} // namespace bootbench::core
