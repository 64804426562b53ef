#include "core/bench/parsers.hpp"

namespace bootbench::core {

namespace {

template <typename T> const T* find_key(const std::vector<T>& items, const std::string& key) {
    for (const auto& x : items)
        if (x.key == key)
            return &x;
    return nullptr;
}

} // namespace

ParsedOutput parse_bench_output(const Bench& bench, std::string_view out) {
    return bench_kind(bench.kind).parse(bench, out);
}

BenchMetrics collect_metrics(const Bench& bench, std::string_view out, const std::string& failure,
                             const std::string& log_hint) {
    BenchMetrics result;
    auto parsed = failure.empty() ? parse_bench_output(bench, out) : ParsedOutput{};
    bool specs_of_file = bench_kind(bench.kind).metrics.empty();
    for (const auto& spec : expected_metrics(bench)) {
        const MetricValue* found = find_key(parsed.values, spec.key);
        const MetricProblem* problem = find_key(parsed.problems, spec.key);
        std::string see = " (see " + log_hint + ")";
        if (found)
            result.metrics.push_back({spec.key, found->value, spec.unit, spec.better, bench.name});
        else if (!failure.empty())
            result.missing.push_back({spec.key, "bench '" + bench.name + "' " + failure});
        else if (problem)
            result.missing.push_back(
                {spec.key, "bench '" + bench.name + "': " + problem->reason + see});
        else
            result.missing.push_back(
                {spec.key, "bench '" + bench.name + "': " +
                               (specs_of_file
                                    ? "regex '" + spec.regex + "' found no number"
                                    : std::string("no value")) +
                               " in its output" + see});
    }
    return result;
}

} // namespace bootbench::core
