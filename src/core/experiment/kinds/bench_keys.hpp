#pragma once
// One [[bench]] table as its kind's descriptor reads it.
#include "core/experiment/bench_kind.hpp"
#include "core/experiment/toml_reader.hpp"

#include <algorithm>

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

// A kind that runs for `runtime_s` seconds (`Default` when the file gives
// none): `--quick` caps it at 3 s, and one iteration takes that long.
template <int Default>
int runtime_of(const Bench& b) {
    return b.runtime_s.value_or(Default);
}
template <int Default>
void quick_runtime(Bench& b) {
    b.runtime_s = std::min(runtime_of<Default>(b), 3);
}
template <int Default>
double runtime_seconds(const Bench& b) {
    return kBenchStartSeconds + runtime_of<Default>(b);
}

} // namespace bootbench::core
