#include "core/report/render_explain.hpp"

#include "core/report/render_text.hpp"

#include <sstream>

namespace bootbench::core {

namespace {

// "busy.service enabled in b only: WHY (moved with it: ...) (score 1.00)".
std::string ranked_line(const Explanation& e) {
    return explanation_line(e) + " (score " + format_fixed(e.score, 2) + ")";
}

nlohmann::json explanation_json(const Explanation& e) {
    return {{"what", e.what}, {"why", e.why}, {"score", e.score}, {"evidence", e.evidence}};
}

} // namespace

std::string explanations_markdown(const Report& r) {
    if (r.explanations.empty())
        return "";
    std::ostringstream o;
    o << "\n## Likely explanations\n\n" << md_escape(kExplanationsNote) << "\n\n";
    for (const MetricExplanation& x : r.explanations) {
        if (x.explanations.empty()) {
            o << "- " << md_escape(x.nothing) << "\n";
            continue;
        }
        o << "- " << md_escape(move_text(x.move)) << ":\n";
        for (size_t i = 0; i < x.explanations.size(); ++i)
            o << "  " << i + 1 << ". " << md_escape(ranked_line(x.explanations[i])) << "\n";
    }
    return o.str();
}

std::string explanations_html(const Report& r) {
    if (r.explanations.empty())
        return "";
    std::ostringstream o;
    o << "<h2>Likely explanations</h2>\n<p class=\"method\">" << xml_escape(kExplanationsNote)
      << "</p>\n<ul>\n";
    for (const MetricExplanation& x : r.explanations) {
        if (x.explanations.empty()) {
            o << "<li>" << xml_escape(x.nothing) << "</li>\n";
            continue;
        }
        o << "<li>" << xml_escape(move_text(x.move)) << ":\n<ol>\n";
        for (const Explanation& e : x.explanations)
            o << "<li>" << xml_escape(ranked_line(e)) << "</li>\n";
        o << "</ol></li>\n";
    }
    o << "</ul>\n";
    return o.str();
}

nlohmann::json explanations_json(const Report& r) {
    nlohmann::json out = nlohmann::json::array();
    for (const MetricExplanation& x : r.explanations) {
        nlohmann::json es = nlohmann::json::array();
        for (const Explanation& e : x.explanations)
            es.push_back(explanation_json(e));
        nlohmann::json j = {{"metric", x.move.metric},   {"bench", x.move.bench},
                            {"control", x.move.control}, {"subject", x.move.subject},
                            {"ratio", x.move.ratio},     {"explanations", es}};
        if (es.empty())
            j["nothing"] = x.nothing;
        out.push_back(std::move(j));
    }
    return out;
}

} // namespace bootbench::core
