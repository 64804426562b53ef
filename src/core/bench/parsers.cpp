#include "core/bench/parsers.hpp"

#include "core/base/error.hpp"
#include "core/base/number.hpp"
#include "core/base/regex.hpp"

#include <cmath>

namespace bootbench::core {

namespace {

std::string_view trim(std::string_view s) {
    return trim_blanks(s);
}

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

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "LABEL  value" with an optional unit glued to the value ("3.0005s").
std::optional<double> value_after(std::string_view line, std::string_view label,
                                  std::string_view unit = "") {
    line = trim(line);
    if (!starts_with(line, label))
        return std::nullopt;
    std::string_view rest = trim(line.substr(label.size()));
    if (!unit.empty() && ends_with(rest, unit))
        rest.remove_suffix(unit.size());
    return parse_number(rest);
}

// "value UNIT", as perf prints "4.148500 usecs/op".
std::optional<double> value_before(std::string_view line, std::string_view unit) {
    line = trim(line);
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
            return; // the first report wins; perf prints each line once
    out.push_back({key, *v});
}

// schbench's percentile line: "\t* 99.0th: 9776       (123 samples)".
std::optional<std::pair<std::string, double>> schbench_percentile(std::string_view line) {
    line = trim(line);
    if (starts_with(line, "*"))
        line = trim(line.substr(1));
    size_t colon = line.find("th:");
    if (colon == std::string_view::npos)
        return std::nullopt;
    std::string pct(line.substr(0, colon));
    std::string_view rest = trim(line.substr(colon + 3));
    size_t paren = rest.find('(');
    if (paren == std::string_view::npos)
        return std::nullopt; // cut before the sample count: incomplete line
    auto v = parse_number(rest.substr(0, paren));
    if (!v)
        return std::nullopt;
    return std::make_pair(pct, *v);
}

template <typename T> const T* find_key(const std::vector<T>& items, const std::string& key) {
    for (const auto& x : items)
        if (x.key == key)
            return &x;
    return nullptr;
}

bool is_schbench_final_marker(std::string_view line) {
    line = trim(line);
    return starts_with(line, "average rps:") || starts_with(line, "final rps goal");
}

} // namespace

std::vector<MetricValue> parse_perf_sched_pipe(std::string_view out) {
    std::vector<MetricValue> values;
    for (auto line : lines_of(out)) {
        add(values, "sched_pipe_usecs_op", value_before(line, "usecs/op"));
        add(values, "sched_pipe_ops_sec", value_before(line, "ops/sec"));
    }
    return values;
}

std::vector<MetricValue> parse_perf_sched_messaging(std::string_view out) {
    std::vector<MetricValue> values;
    for (auto line : lines_of(out))
        add(values, "sched_messaging_total_s", value_after(line, "Total time:", "[sec]"));
    return values;
}

std::vector<MetricValue> parse_sysbench_threads(std::string_view out) {
    std::vector<MetricValue> values;
    bool in_latency = false;
    for (auto line : lines_of(out)) {
        if (trim(line).empty())
            in_latency = false;
        add(values, "sysbench_events", value_after(line, "total number of events:"));
        if (in_latency) {
            add(values, "sysbench_lat_avg_ms", value_after(line, "avg:"));
            add(values, "sysbench_lat_95th_ms", value_after(line, "95th percentile:"));
        }
        if (trim(line) == "Latency (ms):")
            in_latency = true;
    }
    return values;
}

std::vector<MetricValue> parse_schbench(std::string_view out) {
    auto lines = lines_of(out);
    size_t head = lines.size();
    for (size_t i = 0; i < lines.size(); ++i)
        if (starts_with(trim(lines[i]), "Wakeup Latencies percentiles (usec)"))
            head = i;
    bool final_block = false;
    for (size_t i = head; i < lines.size(); ++i)
        final_block = final_block || is_schbench_final_marker(lines[i]);
    std::vector<MetricValue> values;
    if (!final_block)
        return values; // an interval report, or cut short: not the run's result
    for (size_t i = head + 1;
         i < lines.size() && trim(lines[i]).find("min=") == std::string_view::npos; ++i) {
        auto p = schbench_percentile(lines[i]);
        if (p && p->first == "50.0")
            add(values, "schbench_p50_us", p->second);
        if (p && p->first == "99.0")
            add(values, "schbench_p99_us", p->second);
    }
    return values;
}

// The first line `re` matches: capture group 1 as a number, or why not.
void search_lines(const MetricSpec& spec, const Regex& re,
                  const std::vector<std::string_view>& lines, ParsedOutput& out) {
    for (auto line : lines) {
        RegexMatch m = re.search(line.substr(0, kMaxMetricLine));
        if (m.outcome == RegexMatch::Outcome::gave_up) {
            out.problems.push_back({spec.key, "regex '" + spec.regex + "' gave up on a line of " +
                                                  std::to_string(line.size()) + " bytes (" + m.why +
                                                  "); make the regex simpler"});
            return;
        }
        if (m.outcome == RegexMatch::Outcome::no_match || m.groups.size() < 2)
            continue;
        if (auto v = parse_any_number(m.groups[1]))
            out.values.push_back({spec.key, *v});
        return;
    }
}

ParsedOutput parse_command(std::string_view out, const std::vector<MetricSpec>& specs) {
    ParsedOutput parsed;
    auto lines = lines_of(out);
    for (const auto& spec : specs) {
        try {
            search_lines(spec, Regex(spec.regex), lines, parsed);
        } catch (const Error& e) {
            // validated when the experiment file was read; one built in code may not be
            parsed.problems.push_back(
                {spec.key, "regex '" + spec.regex + "' does not compile: " + e.what()});
        }
    }
    return parsed;
}

ParsedOutput parse_bench_output(const Bench& bench, std::string_view out) {
    switch (bench.kind) {
    case BenchKind::perf_sched_pipe:
        return {parse_perf_sched_pipe(out), {}};
    case BenchKind::perf_sched_messaging:
        return {parse_perf_sched_messaging(out), {}};
    case BenchKind::sysbench_threads:
        return {parse_sysbench_threads(out), {}};
    case BenchKind::schbench:
        return {parse_schbench(out), {}};
    case BenchKind::command:
        return parse_command(out, bench.metrics);
    }
    return {};
}

BenchMetrics collect_metrics(const Bench& bench, std::string_view out, const std::string& failure,
                             const std::string& log_hint) {
    BenchMetrics result;
    auto parsed = failure.empty() ? parse_bench_output(bench, out) : ParsedOutput{};
    for (const auto& spec : expected_metrics(bench)) {
        const MetricValue* found = find_key(parsed.values, spec.key);
        const MissingMetric* problem = find_key(parsed.problems, spec.key);
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
                               (bench.kind == BenchKind::command
                                    ? "regex '" + spec.regex + "' found no number"
                                    : std::string("no value")) +
                               " in its output" + see});
    }
    return result;
}

} // namespace bootbench::core
