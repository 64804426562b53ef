#pragma once
// Typed, position-aware reads from a toml++ table. Every mistake is kept as
// "FILE:LINE:COL: what" so that one run of the parser reports all of them.
#include "core/experiment/source_pos.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <toml++/toml.h>
#include <utility>
#include <vector>

namespace bootbench::core {

enum class Required { no, yes };

// The whole numbers a key accepts, both ends included.
struct IntRange {
    int64_t min;
    int64_t max;
};

// The numbers a float key accepts; NaN is never in a range.
struct NumberRange {
    double min;
    double max;
    bool min_excluded = false; // "above min" instead of "at least min"
};

class TomlReader {
public:
    explicit TomlReader(std::string file_name) : file_(std::move(file_name)) {}

    // Syntax errors end parsing at once: nothing after them can be trusted.
    toml::table parse(const std::string& text);

    static SourcePos pos_of(const toml::node& node);
    void error_at(SourcePos pos, const std::string& message);
    // At the key's position when the table has it, else at the table's.
    void error_at(const toml::table& table, std::string_view key, const std::string& message);
    void error_at(const toml::table& table, const std::string& message);

    void allow_keys(const toml::table& table, const std::string& context,
                    std::initializer_list<std::string_view> allowed);

    const toml::table* require_table(const toml::table& root, std::string_view key,
                                     const std::string& context);
    const toml::table* optional_table(const toml::table& root, std::string_view key,
                                      const std::string& context);
    // An array of tables; nullptr (and an error) when it is missing or malformed.
    const toml::array* require_table_array(const toml::table& root, std::string_view key,
                                           const std::string& context);
    const toml::array* optional_table_array(const toml::table& root, std::string_view key,
                                            const std::string& context);

    std::optional<std::string> string(const toml::table& t, std::string_view key,
                                      const std::string& context, Required req = Required::no);
    // Checked against `range` on the file's 64-bit value, before any
    // conversion: nullopt (and an error) when outside.
    std::optional<int64_t> integer(const toml::table& t, std::string_view key,
                                   const std::string& context, IntRange range,
                                   Required req = Required::no);
    // For int fields: the bounds are ints, so a value in range always fits.
    std::optional<int> int_in(const toml::table& t, std::string_view key, const std::string& context,
                              int min, int max, Required req = Required::no);
    // A float or an integer within `range`.
    std::optional<double> number(const toml::table& t, std::string_view key,
                                 const std::string& context, NumberRange range,
                                 Required req = Required::no);
    std::optional<bool> boolean(const toml::table& t, std::string_view key,
                                const std::string& context, Required req = Required::no);
    std::vector<std::string> string_array(const toml::table& t, std::string_view key,
                                          const std::string& context, Required req = Required::no);

    // `options`: pairs of a name and its value, a vector or a string table
    // (core/base/string_table).
    template <typename Options, typename T = std::decay_t<decltype(std::begin(std::declval<const Options&>())->second)>>
    std::optional<T> choice(const toml::table& t, std::string_view key, const std::string& context,
                            const Options& options) {
        auto s = string(t, key, context);
        if (!s)
            return std::nullopt;
        for (const auto& [name, value] : options)
            if (name == *s)
                return value;
        std::string list;
        for (const auto& [name, value] : options)
            list += (list.empty() ? "" : ", ") + ("\"" + std::string(name) + "\"");
        error_at(t, key, context + " must be one of " + list + ", not \"" + *s + "\"");
        return std::nullopt;
    }

    // False (and "CONTEXT must be between MIN and MAX (got VALUE)") when outside.
    bool in_range(const toml::table& t, std::string_view key, int64_t value, IntRange range,
                  const std::string& context);
    void check_name(const toml::table& t, std::string_view key, const std::string& name,
                    const std::string& context);

    bool has_errors() const { return !errors_.empty(); }
    // Throws bootbench::Error (exit 2) with every error, in file order, its
    // control characters written as TOML escapes (\u0000).
    void throw_if_errors();

private:
    const toml::node* typed(const toml::table& t, std::string_view key, const std::string& context,
                            Required req, bool ok_type(const toml::node&), const char* expected);

    std::string file_;
    std::vector<std::pair<SourcePos, std::string>> errors_;
};

// "did you mean 'x'?" for a misspelt key; empty when nothing is close.
std::string closest_match(std::string_view word, std::initializer_list<std::string_view> options);

} // namespace bootbench::core
