#include "core/report/render_counters.hpp"

#include "core/report/render_text.hpp"

#include <cmath>
#include <sstream>

namespace bootbench::core {

namespace {

std::string event_text(const CounterRow& row) {
    return row.event + (row.per.empty() ? "" : " per " + row.per);
}

std::string cell(const CounterRow& row, const std::string& target) {
    for (const auto& t : row.targets)
        if (t.target == target)
            return format_value(t.median) + " (n=" + std::to_string(t.runs) + ")";
    return "-";
}

std::string change_text(const CounterRow& row) {
    return row.change ? format_fixed(*row.change, 2) + "x" : "-";
}

// The header's cells: bench, event, each target, subject / baseline.
std::vector<std::string> header_cells(const Report& r) {
    std::vector<std::string> out = {"bench", "event"};
    for (const auto& t : r.targets)
        out.push_back(t.name + (t.name == r.baseline ? " (baseline)" : ""));
    out.push_back(r.subject + " / " + r.baseline);
    return out;
}

std::vector<std::string> row_cells(const Report& r, const CounterRow& row) {
    std::vector<std::string> out = {row.bench, event_text(row)};
    for (const auto& t : r.targets)
        out.push_back(cell(row, t.name));
    out.push_back(change_text(row));
    return out;
}

void markdown_row(std::ostringstream& o, const std::vector<std::string>& cells) {
    o << "|";
    for (const auto& c : cells)
        o << " " << md_escape(c) << " |";
    o << "\n";
}

void html_row(std::ostringstream& o, const std::vector<std::string>& cells, const char* tag) {
    o << "<tr>";
    for (const auto& c : cells)
        o << "<" << tag << ">" << xml_escape(c) << "</" << tag << ">";
    o << "</tr>\n";
}

nlohmann::json number_or_null(std::optional<double> v) {
    return v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

} // namespace

std::string counters_markdown(const Report& r) {
    if (r.counters.empty())
        return "";
    std::ostringstream o;
    o << "\n## Counters\n\n" << md_escape(kCountersNote) << "\n\n";
    if (!r.counters.rows.empty()) {
        markdown_row(o, header_cells(r));
        o << "|---|---|";
        for (size_t i = 0; i < r.targets.size() + 1; ++i)
            o << "---:|";
        o << "\n";
        for (const auto& row : r.counters.rows)
            markdown_row(o, row_cells(r, row));
    }
    for (const auto& line : r.counters.unavailable)
        o << "\n- Not counted: " << md_escape(line);
    o << (r.counters.unavailable.empty() ? "" : "\n");
    return o.str();
}

std::string counters_html(const Report& r) {
    if (r.counters.empty())
        return "";
    std::ostringstream o;
    o << "<h2>Counters</h2>\n<p class=\"method\">" << xml_escape(kCountersNote) << "</p>\n";
    if (!r.counters.rows.empty()) {
        o << "<table>\n";
        html_row(o, header_cells(r), "th");
        for (const auto& row : r.counters.rows)
            html_row(o, row_cells(r, row), "td");
        o << "</table>\n";
    }
    if (!r.counters.unavailable.empty()) {
        o << "<ul>\n";
        for (const auto& line : r.counters.unavailable)
            o << "<li>Not counted: " << xml_escape(line) << "</li>\n";
        o << "</ul>\n";
    }
    return o.str();
}

nlohmann::json counters_json(const Report& r) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : r.counters.rows) {
        nlohmann::json targets = nlohmann::json::object();
        for (const auto& t : row.targets)
            targets[t.target] = {{"median", number_or_null(t.median)}, {"runs", t.runs}};
        rows.push_back(
            {{"bench", row.bench},
             {"event", row.event},
             {"per", row.per.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.per)},
             {"targets", targets},
             {"change", number_or_null(row.change)}});
    }
    return {{"note", kCountersNote}, {"rows", rows}, {"unavailable", r.counters.unavailable}};
}

} // namespace bootbench::core
