#include "core/report/render_hosts.hpp"

#include "core/report/render_html.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_svg.hpp"
#include "core/report/render_text.hpp"
#include "core/base/text.hpp"

#include <cmath>
#include <sstream>

namespace bootbench::core {

namespace {

using nlohmann::json;

json number(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

const char* mark(Verdict v) {
    return v == Verdict::same ? "~" : to_string(v);
}

std::string per_host(const PooledMetric& p) {
    std::string s;
    for (size_t i = 0; i < p.hosts.size(); ++i)
        s += (i ? ", " : "") + p.hosts[i] + " " + format_ratio(p.ratios[i]) + " " + mark(p.verdicts[i]);
    return s;
}

// The first machine's word on what its runs are not (a sandbox, --quick):
// said once above everything, as a one-machine report says it.
std::string provenance(const HostsReport& r) {
    for (const auto& h : r.hosts)
        if (h.report && !h.report->caption.provenance.empty())
            return h.report->caption.provenance;
    return "";
}

std::string machines_line(const HostsReport& r) {
    std::string s;
    for (const auto& h : r.hosts)
        s += (s.empty() ? "" : "; ") + host_caption(h.host) + ", " + count_of(static_cast<long long>(h.runs), "run");
    return s;
}

const char* const kPooledMethod =
    "Pooled over machines: the geometric mean of each machine's ratio of medians (> 1.00x: the "
    "subject is better). Its 95% interval is a seeded bootstrap that draws machines with "
    "replacement, then each drawn machine's runs (2000 resamples); with few machines it is "
    "wide, and it says how far the machines agree, not that the effect holds on other "
    "hardware. It needs 6 runs of each target on every machine, as on one machine. The pooled p is "
    "a Mann-Whitney test stratified by machine (each machine's rank sum, machines never ranked "
    "against each other), adjusted by Holm over the pooled metrics; the pooled verdict is better or "
    "worse only when that p is below 0.05 and the interval, where there is one, excludes 1.00x.";

// A machine's report as a section: headings one level deeper ("# x" ->
// "## x"), without its title (the section heading says it) and its chart
// (report.svg, once for every machine), nor the blank line after either.
std::string demoted(const std::string& md) {
    std::istringstream in(md);
    std::ostringstream out;
    std::string line;
    bool first = true, after_dropped = true;
    while (std::getline(in, line)) {
        bool title = first && line.rfind("# ", 0) == 0;
        first = false;
        if (title || line.rfind("![", 0) == 0 || (after_dropped && line.empty())) {
            after_dropped = !line.empty();
            continue;
        }
        after_dropped = false;
        out << (line.rfind("#", 0) == 0 ? "#" : "") << line << "\n";
    }
    return out.str();
}

void pooled_table_md(std::ostringstream& o, const HostsReport& r) {
    if (r.pooled.empty()) {
        o << "No metric was compared on two machines: nothing is pooled.\n";
        return;
    }
    o << "| Metric | Machines | Pooled " << md_escape(r.subject) << " vs " << md_escape(r.baseline)
      << " | p (Holm) | Verdict | Per machine |\n| --- | --- | --- | --- | --- | --- |\n";
    for (const auto& p : r.pooled)
        o << "| " << md_escape(p.label) << " | " << p.hosts.size() << " | " << md_escape(pooled_text(p))
          << " | " << format_p(p.p_adjusted) << " | " << mark(p.verdict) << " | " << md_escape(per_host(p))
          << " |\n";
    o << "\n" << kPooledMethod << "\n";
}

} // namespace

std::string pooled_text(const PooledMetric& p) {
    std::string s = format_ratio(p.ratio);
    if (!p.no_interval.empty())
        return s + " (no interval: " + p.no_interval + ")";
    return s + " (95% CI " + format_ratio(p.ci.lo) + " to " + format_ratio(p.ci.hi) + ")";
}

std::string render_hosts_markdown(const HostsReport& r, const std::string& svg_link) {
    std::ostringstream o;
    o << "# " << md_escape(r.title) << "\n\n";
    if (std::string p = provenance(r); !p.empty())
        o << "> **Not a measurement of the targets.** " << md_escape(p) << "\n\n";
    o << "*Across " << r.hosts.size()
      << " machines: " << md_escape(machines_line(r)) << ".*\n";
    if (!r.warnings.empty()) {
        o << "\n## Warnings\n\n";
        for (const auto& w : r.warnings)
            o << "- " << md_escape(w) << "\n";
    }
    o << "\n## Pooled over machines\n\n";
    pooled_table_md(o, r);
    o << "\n![Relative performance of " << md_escape(r.subject) << " against " << md_escape(r.baseline)
      << " on each machine (baseline = 1.00x, higher is better)](" << svg_link << ")\n";
    for (const auto& h : r.hosts) {
        o << "\n## " << md_escape(host_caption(h.host)) << "\n\n";
        o << (h.report ? demoted(render_markdown(*h.report, svg_link))
                       : "Not compared: " + md_escape(h.error) + "\n");
    }
    return o.str();
}

json hosts_to_json(const HostsReport& r) {
    json hosts = json::array(), pooled = json::array();
    for (const auto& h : r.hosts)
        hosts.push_back({{"machine_id", h.host.id.empty() ? json(nullptr) : json(h.host.id)},
                         {"label", h.host.label},
                         {"hostname", h.host.hostname},
                         {"cpu_model", h.host.cpu_model},
                         {"cpus", h.host.cpus > 0 ? json(h.host.cpus) : json(nullptr)},
                         {"runs", h.runs},
                         {"report", h.report ? report_to_json(*h.report) : json(nullptr)},
                         {"error", h.error.empty() ? json(nullptr) : json(h.error)}});
    for (const auto& p : r.pooled) {
        json each = json::array();
        for (size_t i = 0; i < p.hosts.size(); ++i)
            each.push_back({{"label", p.hosts[i]}, {"ratio", number(p.ratios[i])}, {"verdict", to_string(p.verdicts[i])}});
        pooled.push_back({{"key", p.key}, {"label", p.label}, {"unit", p.unit},
                          {"better", to_string(p.better)}, {"ratio", number(p.ratio)},
                          {"ci", p.no_interval.empty() ? json{number(p.ci.lo), number(p.ci.hi)} : json(nullptr)},
                          {"no_ci", p.no_interval.empty() ? json(nullptr) : json(p.no_interval)},
                          {"p_value", p.test.p_value}, {"p_holm", p.p_adjusted},
                          {"verdict", to_string(p.verdict)}, {"hosts", each}});
    }
    return {{"schema", kReportSchema}, {"title", r.title},     {"baseline", r.baseline},
            {"subject", r.subject},    {"alpha", kAlpha},      {"hosts", hosts},
            {"pooled", pooled},        {"warnings", r.warnings}};
}

std::string render_hosts_json(const HostsReport& r) {
    return json_text(hosts_to_json(r), 2) + "\n";
}

namespace {

// The number in the first `name="N"` of an SVG's root element.
double svg_attribute(const std::string& svg, const std::string& name) {
    size_t at = svg.find(" " + name + "=\"");
    return at == std::string::npos ? 0 : std::stod(svg.substr(at + name.size() + 3));
}

std::string between(const std::string& s, const std::string& from, const std::string& to) {
    size_t a = s.find(from);
    size_t b = a == std::string::npos ? a : s.find(to, a + from.size());
    return b == std::string::npos ? "" : s.substr(a + from.size(), b - a - from.size());
}

std::string without_first(std::string s, const std::string& from, const std::string& to) {
    size_t a = s.find(from);
    size_t b = a == std::string::npos ? a : s.find(to, a);
    return b == std::string::npos ? s : s.erase(a, b + to.size() - a);
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::string esc(const std::string& s) {
    return xml_escape(s);
}

// A machine's page as a section: its title, chart and <h2> levels moved to
// the page around it.
std::string host_section(const HostReport& h) {
    std::string out = "<section>\n<h2>" + esc(host_caption(h.host)) + "</h2>\n";
    if (!h.report)
        return out + "<p>Not compared: " + esc(h.error) + "</p>\n</section>\n";
    std::string body = between(render_html(*h.report), "<body>\n", "</body>");
    body = without_first(without_first(body, "<h1>", "</h1>\n"), "<figure>", "</figure>\n");
    return out + replace_all(replace_all(body, "<h2>", "<h3>"), "</h2>", "</h3>") + "</section>\n";
}

void pooled_table_html(std::ostringstream& o, const HostsReport& r) {
    o << "<h2>Pooled over machines</h2>\n";
    if (r.pooled.empty()) {
        o << "<p>No metric was compared on two machines: nothing is pooled.</p>\n";
        return;
    }
    o << "<table>\n<thead><tr><th>Metric</th><th>Machines</th><th>Pooled " << esc(r.subject) << " vs "
      << esc(r.baseline) << "</th><th>p (Holm)</th><th>Verdict</th><th>Per machine</th></tr></thead>\n<tbody>\n";
    for (const auto& p : r.pooled)
        o << "<tr><td>" << esc(p.label) << "</td><td>" << p.hosts.size() << "</td><td>"
          << esc(pooled_text(p)) << "</td><td>" << format_p(p.p_adjusted) << "</td><td>" << mark(p.verdict)
          << "</td><td>" << esc(per_host(p)) << "</td></tr>\n";
    o << "</tbody>\n</table>\n<p class=\"method\">" << esc(kPooledMethod) << "</p>\n";
}

const char* const kRowStyle =
    "\n.hosts-row { display: flex; gap: 1rem; overflow-x: auto; }\n"
    ".hosts-row figure { flex: 0 0 auto; margin: 0; }\n";

} // namespace

std::string render_hosts_svg(const HostsReport& r) {
    std::ostringstream body;
    double y = 0, width = 0;
    for (const auto& h : r.hosts) {
        body << "<text x=\"10\" y=\"" << format_fixed(y + 20, 0) << "\" font-size=\"15\" font-weight=\"bold\">"
             << esc(host_caption(h.host)) << (h.report ? "" : ": not compared") << "</text>\n";
        y += 28;
        if (!h.report)
            continue;
        std::string svg = render_svg(*h.report);
        width = std::max(width, svg_attribute(svg, "width"));
        body << "<svg x=\"0\" y=\"" << format_fixed(y, 0) << "\" " << svg.substr(5);
        y += svg_attribute(svg, "height");
    }
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << format_fixed(width, 0) << "\" height=\""
      << format_fixed(y, 0) << "\" viewBox=\"0 0 " << format_fixed(width, 0) << " " << format_fixed(y, 0)
      << "\" font-family=\"sans-serif\" role=\"img\" aria-label=\"" << esc(r.title) << "\">\n<title>"
      << esc(r.title) << "</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << body.str() << "</svg>\n";
    return o.str();
}

std::string render_hosts_html(const HostsReport& r) {
    std::string style;
    for (const auto& h : r.hosts)
        if (h.report && style.empty())
            style = between(render_html(*h.report), "<style>", "</style>");
    std::ostringstream o;
    o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<link rel=\"icon\" href=\"data:,\">\n<title>" << esc(r.title) << "</title>\n<style>" << style
      << kRowStyle << "</style>\n</head>\n<body>\n<h1>" << esc(r.title) << "</h1>\n";
    if (std::string p = provenance(r); !p.empty())
        o << "<p class=\"provenance\"><strong>Not a measurement of the targets.</strong> " << esc(p) << "</p>\n";
    o << "<p class=\"caption\">Across "
      << r.hosts.size() << " machines: " << esc(machines_line(r)) << ".</p>\n";
    if (!r.warnings.empty()) {
        o << "<div class=\"warnings\"><strong>Warnings</strong>\n<ul>\n";
        for (const auto& w : r.warnings)
            o << "<li>" << esc(w) << "</li>\n";
        o << "</ul></div>\n";
    }
    pooled_table_html(o, r);
    o << "<div class=\"hosts-row\">\n";
    for (const auto& h : r.hosts)
        if (h.report)
            o << "<figure>\n<figcaption>" << esc(h.host.label) << "</figcaption>\n" << render_svg(*h.report)
              << "</figure>\n";
    o << "</div>\n";
    for (const auto& h : r.hosts)
        o << host_section(h);
    o << "</body>\n</html>\n";
    return o.str();
}

} // namespace bootbench::core
