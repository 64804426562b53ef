#include "core/experiment/kinds/output_text.hpp"

#include "core/base/number.hpp"

namespace bootbench::core {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos)
            nl = text.size();
        out.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return out;
}

std::optional<double> value_after(std::string_view line, std::string_view label, std::string_view unit) {
    line = trim_blanks(line);
    if (!starts_with(line, label))
        return std::nullopt;
    std::string_view rest = trim_blanks(line.substr(label.size()));
    if (!unit.empty() && ends_with(rest, unit))
        rest.remove_suffix(unit.size());
    return parse_number(rest);
}

std::optional<double> value_before(std::string_view line, std::string_view unit) {
    line = trim_blanks(line);
    if (!ends_with(line, unit) || line.size() == unit.size())
        return std::nullopt;
    std::string_view head = line.substr(0, line.size() - unit.size());
    if (head.back() != ' ' && head.back() != '\t')
        return std::nullopt;
    return parse_number(head);
}

void add(std::vector<MetricValue>& out, const char* key, std::optional<double> v) {
    if (!v)
        return;
    for (const auto& m : out)
        if (m.key == key)
            return;
    out.push_back({key, *v});
}

} // namespace bootbench::core
