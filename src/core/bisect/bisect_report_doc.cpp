// bisect.md and bisect.html: the report as blocks (the outcome first, the
// chart, the steps, what changed), each block written once per format.
#include "core/base/text.hpp"
#include "core/bisect/bisect_report_parts.hpp"
#include "core/report/render_text.hpp"

#include <array>
#include <sstream>
#include <utility>

namespace bootbench::core {

namespace {

using Kind = ReportBlock::Kind;

int boots_of(const BisectState& s) {
    int n = 0;
    for (const auto& v : s.values)
        n += static_cast<int>(v.size());
    return n;
}

int tested_of(const BisectState& s) {
    int n = 0;
    for (const auto& v : s.values)
        n += v.empty() ? 0 : 1;
    return n;
}

// "Metric: boot_s (lower is better), threshold 5%; 16 builds, 6 tested, 70 boots."
std::string metric_line(const BisectState& s) {
    return "Metric: " + s.metric + " (" + name_of(kBetterNames, s.better) +
           " is better), threshold " + threshold_text(s) + "; " +
           count_of(static_cast<long long>(s.builds.size()), "build") + ", " +
           std::to_string(tested_of(s)) + " tested, " + count_of(boots_of(s), "boot") + ".";
}

std::vector<ReportBlock> outcome_blocks(const BisectReportInput& in) {
    const BisectState& s = state_of(in);
    std::vector<ReportBlock> out = {report_block(Kind::title, "Bisect: " + in.experiment),
                                    report_block(Kind::strong, bisect_headline(in))};
    if (s.outcome == BisectOutcome::culprit)
        out.push_back(report_block(Kind::list, "",
                                   {"First bad: " + build_line(in, s.first_bad),
                                    "Last good: " + build_line(in, s.last_good)}));
    if (!s.verdict.empty())
        out.push_back(report_block(Kind::paragraph, "Verdict: " + s.verdict));
    out.push_back(report_block(Kind::paragraph, metric_line(s)));
    return out;
}

std::string step_build(const BisectReportInput& in, const BisectStep& x) {
    std::string b = build_info(in, x.build).label;
    return x.before < 0 ? b : b + " against " + build_info(in, x.before).label;
}

std::vector<std::string> step_row(const BisectReportInput& in, const BisectStep& x,
                                  const std::vector<BuildFigures>& f) {
    const BuildFigures& b = f[static_cast<size_t>(x.build)];
    return {name_of(kBisectPhaseNames, x.phase),
            step_build(in, x),
            std::to_string(x.round),
            x.call,
            std::to_string(b.runs),
            change_text(b.to_good),
            change_text(b.to_bad),
            x.why};
}

std::vector<ReportBlock> step_blocks(const BisectReportInput& in) {
    ReportBlock table = report_block(Kind::table, "");
    table.rows.push_back({"phase", "build", "round", "call", "runs", "vs good", "vs bad", "why"});
    std::vector<BuildFigures> f = build_figures(in);
    for (const BisectStep& x : state_of(in).steps)
        table.rows.push_back(step_row(in, x, f));
    return {
        report_block(Kind::heading, "Steps"),
        report_block(Kind::paragraph,
                     "Each step's build against good's and against bad's runs: the change of its "
                     "median (below 0: worse), with the 95% bootstrap interval, from all of the "
                     "build's runs; the call and why as the step decided them."),
        table};
}

} // namespace

ReportBlock report_block(Kind kind, std::string text, std::vector<std::string> items) {
    ReportBlock b;
    b.kind = kind;
    b.text = std::move(text);
    b.items = std::move(items);
    return b;
}

void append_blocks(std::vector<ReportBlock>& to, std::vector<ReportBlock> more) {
    for (auto& b : more)
        to.push_back(std::move(b));
}

std::vector<ReportBlock> report_blocks(const BisectReportInput& in) {
    std::vector<ReportBlock> out = outcome_blocks(in);
    out.push_back(report_block(Kind::chart, state_of(in).metric + " along the history"));
    append_blocks(out, step_blocks(in));
    append_blocks(out, change_blocks(in));
    return out;
}

namespace {

// How one format writes the blocks: the four kinds of text between their
// marks (in the order of ReportBlock::Kind), and the others by a function.
struct BlockFormat {
    std::string (*escape)(const std::string&);
    std::array<std::pair<const char*, const char*>, 4> marks; // title, heading, strong, paragraph
    std::string (*list)(const std::vector<std::string>&);
    std::string (*table)(const ReportBlock&);
    std::string (*details)(const ReportBlock&);
    std::string (*chart)(const ReportBlock&, const BisectReportInput&);
};

std::string render_block(const BlockFormat& f, const ReportBlock& b, const BisectReportInput& in) {
    auto k = static_cast<size_t>(b.kind);
    if (k < f.marks.size())
        return f.marks[k].first + f.escape(b.text) + f.marks[k].second;
    if (b.kind == Kind::list)
        return f.list(b.items);
    if (b.kind == Kind::table)
        return f.table(b);
    return b.kind == Kind::details ? f.details(b) : f.chart(b, in);
}

// Each item escaped, between `before` and `after`.
std::string each(const std::vector<std::string>& items, const std::string& before,
                 const std::string& after, std::string (*escape)(const std::string&)) {
    std::string out;
    for (const auto& i : items)
        out += before + escape(i) + after;
    return out;
}

std::string md_row(const std::vector<std::string>& cells) {
    return "|" + each(cells, " ", " |", md_escape) + "\n";
}

std::string md_table(const ReportBlock& b) {
    std::string out = md_row(b.rows.front());
    out += md_row(std::vector<std::string>(b.rows.front().size(), "---"));
    for (size_t i = 1; i < b.rows.size(); ++i)
        out += md_row(b.rows[i]);
    return out;
}

std::string md_list(const std::vector<std::string>& items) {
    return each(items, "- ", "\n", md_escape);
}

// GitHub and most Markdown viewers fold a <details> block; the list inside
// it stays Markdown after the blank line.
std::string md_details(const ReportBlock& b) {
    return "<details><summary>" + xml_escape(b.text) + "</summary>\n\n" + md_list(b.items) +
           "\n</details>\n";
}

std::string md_chart(const ReportBlock& b, const BisectReportInput&) {
    return "![" + md_escape(b.text) + "](bisect.svg)\n";
}

const BlockFormat kMarkdown = {
    md_escape,  {{{"# ", "\n"}, {"## ", "\n"}, {"**", "**\n"}, {"", "\n"}}},
    md_list,    md_table,
    md_details, md_chart};

} // namespace

std::string render_bisect_markdown(const BisectReportInput& in) {
    std::string out;
    for (const ReportBlock& b : report_blocks(in))
        out += (out.empty() ? "" : "\n") + render_block(kMarkdown, b, in);
    return out;
}

namespace {

const char* const kStyle = R"(
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif;
       color: #1f2328; background: #fff; margin: 2rem auto; max-width: 60rem; padding: 0 1rem;
       line-height: 1.45; }
h1 { font-size: 1.6rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #d0d7de; }
figure { margin: 1.5rem 0; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 0.9rem; display: block; overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
)";

std::string html_cells(const std::vector<std::string>& cells, const std::string& tag) {
    return "<tr>" + each(cells, "<" + tag + ">", "</" + tag + ">", xml_escape) + "</tr>\n";
}

std::string html_table(const ReportBlock& b) {
    std::string out = "<table>\n" + html_cells(b.rows.front(), "th");
    for (size_t i = 1; i < b.rows.size(); ++i)
        out += html_cells(b.rows[i], "td");
    return out + "</table>\n";
}

std::string html_list(const std::vector<std::string>& items) {
    return "<ul>\n" + each(items, "<li>", "</li>\n", xml_escape) + "</ul>\n";
}

std::string html_details(const ReportBlock& b) {
    return "<details><summary>" + xml_escape(b.text) + "</summary>\n" + html_list(b.items) +
           "</details>\n";
}

std::string html_chart(const ReportBlock&, const BisectReportInput& in) {
    return "<figure>\n" + render_bisect_svg(in) + "</figure>\n";
}

const BlockFormat kHtml = {xml_escape,
                           {{{"<h1>", "</h1>\n"},
                             {"<h2>", "</h2>\n"},
                             {"<p><strong>", "</strong></p>\n"},
                             {"<p>", "</p>\n"}}},
                           html_list,
                           html_table,
                           html_details,
                           html_chart};

} // namespace

std::string render_bisect_html(const BisectReportInput& in) {
    std::ostringstream o;
    o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>Bisect: " << xml_escape(in.experiment) << "</title>\n<style>" << kStyle
      << "</style>\n</head>\n<body>\n";
    for (const ReportBlock& b : report_blocks(in))
        o << render_block(kHtml, b, in);
    o << "</body>\n</html>\n";
    return o.str();
}

} // namespace bootbench::core
