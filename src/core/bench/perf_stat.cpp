#include "core/bench/perf_stat.hpp"

#include "core/base/number.hpp"
#include "core/base/text.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

std::vector<std::string_view> fields_of(std::string_view line) {
    std::vector<std::string_view> out;
    size_t start = 0;
    for (size_t comma = line.find(','); comma != std::string_view::npos;
         comma = line.find(',', start)) {
        out.push_back(line.substr(start, comma - start));
        start = comma + 1;
    }
    out.push_back(line.substr(start));
    return out;
}

// perf's words for an event it did not count, said for a reader.
std::string reason_of(std::string_view value) {
    if (value == "<not supported>")
        return "not supported: this machine's PMU or kernel has no such event (a VM often lacks "
               "hardware events)";
    if (value == "<not counted>")
        return "not counted: perf could not schedule it while the bench ran";
    return "perf printed '" + printable(cap_text(value, 80, "value")) + "', not a count";
}

void add_line(BenchCounters& c, std::string_view line) {
    std::vector<std::string_view> f = fields_of(line);
    if (f.size() < 3 || trim_blanks(f[2]).empty())
        return;
    std::string event(trim_blanks(f[2]));
    std::optional<double> value = parse_any_number(f[0]);
    if (!value) {
        c.unavailable.push_back({event, reason_of(trim_blanks(f[0]))});
        return;
    }
    CounterValue v{event, *value, std::string(trim_blanks(f[1]))};
    if (f.size() > 4)
        v.running_pct = parse_number(f[4]).value_or(100);
    c.values.push_back(v);
}

void add_ipc(BenchCounters& c) {
    const CounterValue* cycles = c.find("cycles");
    const CounterValue* instructions = c.find("instructions");
    if (cycles && instructions && cycles->value > 0)
        c.values.push_back({"ipc", instructions->value / cycles->value});
}

// `event` as perf printed it: by its name, or on a hybrid CPU once per PMU
// ("cpu_core/cycles/", "cpu_atom/cycles/").
bool same_event(const std::string& printed, const std::string& event) {
    std::string per_pmu = "/" + event + "/";
    return printed == event ||
           (printed.size() > per_pmu.size() &&
            printed.compare(printed.size() - per_pmu.size(), per_pmu.size(), per_pmu) == 0);
}

bool printed(const BenchCounters& c, const std::string& event) {
    return std::any_of(c.values.begin(), c.values.end(),
                       [&](const CounterValue& v) { return same_event(v.event, event); }) ||
           std::any_of(c.unavailable.begin(), c.unavailable.end(),
                       [&](const MissingMetric& m) { return same_event(m.key, event); });
}

} // namespace

BenchCounters parse_perf_stat(std::string_view csv, const std::string& bench,
                              const std::vector<std::string>& asked) {
    BenchCounters c{bench, {}};
    size_t start = 0;
    while (start < csv.size()) {
        size_t end = std::min(csv.find('\n', start), csv.size());
        std::string_view line = trim_blanks(csv.substr(start, end - start));
        if (!line.empty() && line.front() != '#')
            add_line(c, line);
        start = end + 1;
    }
    add_ipc(c);
    for (const auto& event : asked)
        if (!printed(c, event))
            c.unavailable.push_back({event, "perf printed no count for it"});
    return c;
}

} // namespace bootbench::core
