#pragma once
// One [[bench]] table as its kind's descriptor reads it.
#include "core/experiment/toml_reader.hpp"

#include <initializer_list>
#include <string>
#include <string_view>

namespace bootbench::core {

class BenchKeys {
public:
    // `context` names the bench in messages: "[[bench]] 'pipe'".
    BenchKeys(TomlReader& reader, const toml::table& table, std::string context)
        : reader_(reader), table_(table), context_(std::move(context)) {}

    // Every key of the kind, the shared ones included: any other is an error.
    void allow(std::initializer_list<std::string_view> keys) { reader_.allow_keys(table_, context_, keys); }
    // The key's value in [min, max], or `fallback` when the table lacks it.
    int integer(std::string_view key, int fallback, int min, int max) {
        return reader_.int_in(table_, key, context_ + "." + std::string(key), min, max).value_or(fallback);
    }

    TomlReader& reader() { return reader_; }
    const toml::table& table() const { return table_; }
    const std::string& context() const { return context_; }

private:
    TomlReader& reader_;
    const toml::table& table_;
    std::string context_;
};

// Thread counts passed to the benchmarks (0 = the bench's own default).
inline constexpr int kMaxThreads = 4096;

} // namespace bootbench::core
