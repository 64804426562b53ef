#include "core/experiment/toml_reader.hpp"

#include "core/base/error.hpp"
#include "core/experiment/names.hpp"
#include "core/experiment/toml_depth.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace bootbench::core {

namespace {

const char* type_name(const toml::node& n) {
    switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date or time";
    }
}

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string number_text(double v) {
    std::ostringstream s;
    s << v; // "nan", "inf", "-0.5", "1e+300"
    return s.str();
}

// C0 controls, DEL and the C1 controls (U+0080..U+009F, two bytes in UTF-8)
// that values from the file may hold: a NUL would cut the message where main
// prints it, an escape sequence would drive the terminal.
std::string escape_controls(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        bool c1 = c == 0xc2 && i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xe0) == 0x80;
        if (c >= 0x20 && c != 0x7f && !c1) {
            out += s[i];
            continue;
        }
        unsigned code = c1 ? static_cast<unsigned char>(s[++i]) : c;
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04X", code);
        out += buf;
    }
    return out;
}

} // namespace

std::string closest_match(std::string_view word, std::initializer_list<std::string_view> options) {
    std::string_view best;
    size_t best_distance = 3; // more than two edits away is no longer a typo
    for (auto option : options) {
        size_t d = edit_distance(word, option);
        if (d < best_distance)
            best = option, best_distance = d;
    }
    return std::string(best);
}

toml::table TomlReader::parse(const std::string& text) {
    check_toml_depth(text, file_);
    try {
        return toml::parse(text, file_);
    } catch (const toml::parse_error& e) {
        error_at({static_cast<int>(e.source().begin.line), static_cast<int>(e.source().begin.column)},
                 "syntax error: " + std::string(e.description()));
        throw_if_errors();
        throw; // not reached
    }
}

SourcePos TomlReader::pos_of(const toml::node& node) {
    return {static_cast<int>(node.source().begin.line), static_cast<int>(node.source().begin.column)};
}

void TomlReader::error_at(SourcePos pos, const std::string& message) {
    errors_.emplace_back(pos, message);
}

void TomlReader::error_at(const toml::table& table, std::string_view key, const std::string& message) {
    auto it = table.find(key);
    if (it != table.end() && it->first.source().begin.line > 0)
        error_at({static_cast<int>(it->first.source().begin.line),
                  static_cast<int>(it->first.source().begin.column)},
                 message);
    else
        error_at(table, message);
}

void TomlReader::error_at(const toml::table& table, const std::string& message) {
    SourcePos pos = pos_of(table);
    if (pos.line <= 0)
        pos = {1, 1};
    error_at(pos, message);
}

void TomlReader::allow_keys(const toml::table& table, const std::string& context,
                            std::initializer_list<std::string_view> allowed) {
    for (const auto& [key, value] : table) {
        if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end())
            continue;
        std::string hint = closest_match(key.str(), allowed);
        std::string msg = "unknown key '" + std::string(key.str()) + "' in " + context;
        if (!hint.empty())
            msg += " (did you mean '" + hint + "'?)";
        error_at(table, key.str(), msg);
    }
}

const toml::table* TomlReader::require_table(const toml::table& root, std::string_view key,
                                             const std::string& context) {
    if (!root.contains(key)) {
        error_at(SourcePos{1, 1}, "missing " + context + " table");
        return nullptr;
    }
    return optional_table(root, key, context);
}

const toml::table* TomlReader::optional_table(const toml::table& root, std::string_view key,
                                              const std::string& context) {
    const toml::node* n = root.get(key);
    if (!n)
        return nullptr;
    if (!n->is_table()) {
        error_at(root, key, context + " must be a table, not " + type_name(*n));
        return nullptr;
    }
    return n->as_table();
}

const toml::array* TomlReader::require_table_array(const toml::table& root, std::string_view key,
                                                   const std::string& context) {
    if (!root.contains(key)) {
        error_at(SourcePos{1, 1}, "missing " + context + " tables");
        return nullptr;
    }
    return optional_table_array(root, key, context);
}

const toml::array* TomlReader::optional_table_array(const toml::table& root, std::string_view key,
                                                    const std::string& context) {
    const toml::node* n = root.get(key);
    if (!n)
        return nullptr;
    if (!n->is_array_of_tables()) {
        error_at(root, key, context + " must be an array of tables (write it as " + context + ")");
        return nullptr;
    }
    return n->as_array();
}

const toml::node* TomlReader::typed(const toml::table& t, std::string_view key,
                                    const std::string& context, Required req,
                                    bool ok_type(const toml::node&), const char* expected) {
    const toml::node* n = t.get(key);
    if (!n) {
        if (req == Required::yes)
            error_at(t, "missing " + context);
        return nullptr;
    }
    if (!ok_type(*n)) {
        error_at(t, key, context + " must be " + expected + ", not " + type_name(*n));
        return nullptr;
    }
    return n;
}

std::optional<std::string> TomlReader::string(const toml::table& t, std::string_view key,
                                              const std::string& context, Required req) {
    auto n = typed(t, key, context, req, [](const toml::node& x) { return x.is_string(); }, "a string");
    return n ? n->value<std::string>() : std::nullopt;
}

std::optional<int64_t> TomlReader::integer(const toml::table& t, std::string_view key,
                                           const std::string& context, IntRange range, Required req) {
    auto n = typed(t, key, context, req, [](const toml::node& x) { return x.is_integer(); },
                   "a whole number");
    if (!n)
        return std::nullopt;
    int64_t value = n->as_integer()->get();
    return in_range(t, key, value, range, context) ? std::optional(value) : std::nullopt;
}

std::optional<int> TomlReader::int_in(const toml::table& t, std::string_view key,
                                      const std::string& context, int min, int max, Required req) {
    auto v = integer(t, key, context, {min, max}, req);
    return v ? std::optional(static_cast<int>(*v)) : std::nullopt;
}

std::optional<double> TomlReader::number(const toml::table& t, std::string_view key,
                                         const std::string& context, NumberRange range, Required req) {
    auto n = typed(t, key, context, req, [](const toml::node& x) { return x.is_number(); }, "a number");
    if (!n)
        return std::nullopt;
    double v = *n->value<double>();
    if ((range.min_excluded ? v > range.min : v >= range.min) && v <= range.max)
        return v; // false for NaN
    error_at(t, key, context + " must be " + (range.min_excluded ? "above " : "between ") +
                         number_text(range.min) + (range.min_excluded ? " and at most " : " and ") +
                         number_text(range.max) + " (got " + number_text(v) + ")");
    return std::nullopt;
}

std::optional<bool> TomlReader::boolean(const toml::table& t, std::string_view key,
                                        const std::string& context, Required req) {
    auto n = typed(t, key, context, req, [](const toml::node& x) { return x.is_boolean(); },
                   "true or false");
    return n ? n->value<bool>() : std::nullopt;
}

std::vector<std::string> TomlReader::string_array(const toml::table& t, std::string_view key,
                                                  const std::string& context, Required req) {
    std::vector<std::string> out;
    auto n = typed(t, key, context, req, [](const toml::node& x) { return x.is_array(); },
                   "an array of strings");
    if (!n)
        return out;
    for (const auto& item : *n->as_array()) {
        if (!item.is_string()) {
            error_at(pos_of(item), context + " must hold only strings, found " + type_name(item));
            continue;
        }
        out.push_back(*item.value<std::string>());
    }
    return out;
}

bool TomlReader::in_range(const toml::table& t, std::string_view key, int64_t value, IntRange range,
                          const std::string& context) {
    if (value >= range.min && value <= range.max)
        return true;
    error_at(t, key, context + " must be between " + std::to_string(range.min) + " and " +
                         std::to_string(range.max) + " (got " + std::to_string(value) + ")");
    return false;
}

void TomlReader::check_name(const toml::table& t, std::string_view key, const std::string& name,
                            const std::string& context) {
    if (!is_valid_name(name))
        error_at(t, key,
                 context + " '" + name +
                     "' is not a valid name: use 1 to 64 of a-z, 0-9, '.', '_', '-', starting "
                     "with a letter or digit, without '/' or '..'");
}

void TomlReader::throw_if_errors() {
    if (errors_.empty())
        return;
    std::stable_sort(errors_.begin(), errors_.end(), [](const auto& a, const auto& b) {
        return std::pair(a.first.line, a.first.column) < std::pair(b.first.line, b.first.column);
    });
    std::string text;
    for (const auto& [pos, message] : errors_)
        text += (text.empty() ? "" : "\n") + escape_controls(file_) + ":" + std::to_string(pos.line) +
                ":" + std::to_string(pos.column) + ": " + escape_controls(message);
    throw input_error(text);
}

} // namespace bootbench::core
