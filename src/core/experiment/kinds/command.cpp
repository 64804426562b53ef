// command: any program; the experiment file names its metrics and the
// regular expressions that find them in the output.
#include "core/base/error.hpp"
#include "core/base/number.hpp"
#include "core/base/regex.hpp"
#include "core/experiment/experiment.hpp"
#include "core/experiment/kinds/bench_keys.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/kinds/output_text.hpp"

namespace bootbench::core {

namespace {

// With the engine the suite runs it on (PCRE2), so that plan refuses what
// resume could not use.
void check_metric_regex(TomlReader& r, const toml::table& mt, const std::string& regex,
                        const std::string& ctx) {
    try {
        Regex re(regex);
        if (!regex.empty() && re.capture_count() < 1)
            r.error_at(mt, "regex", ctx + ".metric.regex needs one capture group for the value");
    } catch (const Error& e) {
        r.error_at(mt, "regex",
                   ctx + ".metric.regex is not a valid regular expression: " + e.what());
    }
}

MetricSpec read_metric_spec(TomlReader& r, const toml::table& mt, const std::string& ctx) {
    r.allow_keys(mt, "[[bench.metric]]", {"key", "regex", "unit", "better"});
    MetricSpec m;
    m.pos = TomlReader::pos_of(mt);
    m.key = r.string(mt, "key", ctx + ".metric.key", Required::yes).value_or("");
    m.regex = r.string(mt, "regex", ctx + ".metric.regex", Required::yes).value_or("");
    m.unit = r.string(mt, "unit", ctx + ".metric.unit").value_or("");
    m.better = r.choice(mt, "better", ctx + ".metric.better", kBetterNames).value_or(Better::lower);
    if (!mt.contains("better"))
        r.error_at(mt, "missing " + ctx + ".metric.better (\"lower\" or \"higher\")");
    check_metric_regex(r, mt, m.regex, ctx);
    return m;
}

void read_metric_specs(TomlReader& r, const toml::table& t, Bench& b, const std::string& ctx) {
    const toml::array* arr = r.optional_table_array(t, "metric", ctx + ".metric");
    if (!arr || arr->empty()) {
        r.error_at(t, ctx + " (kind = \"command\") needs at least one [[bench.metric]] table");
        return;
    }
    for (const auto& node : *arr)
        b.metrics.push_back(read_metric_spec(r, *node.as_table(), ctx));
}

void read_keys(BenchKeys& k, Bench& b) {
    TomlReader& r = k.reader();
    const toml::table& t = k.table();
    const std::string& ctx = k.context();
    k.allow({"kind", "name", "argv", "timeout_s", "metric", "repeat", "counters"});
    b.argv = r.string_array(t, "argv", ctx + ".argv", Required::yes);
    if (t.contains("argv") && b.argv.empty())
        r.error_at(t, "argv", ctx + ".argv is empty: give the program and its arguments");
    if (!t.contains("name"))
        r.error_at(t, "missing " + ctx + ".name (a command bench needs a name)");
    if (!t.contains("timeout_s"))
        r.error_at(t, "missing " + ctx + ".timeout_s (a command bench needs a time limit)");
    read_metric_specs(r, t, b, ctx);
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

} // namespace

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

extern const BenchKindInfo kCommand{
    BenchKind::command,
    read_keys,
    [](Bench&) {}, // its own time limit bounds it
    [](const Bench& b) { return b.timeout_s / 2.0; },
    [](const Bench& b, int) { return b.argv; },
    same_on_every_machine,
    [](const Bench& b, std::string_view out) { return parse_command(out, b.metrics); },
    {}, // the experiment file's [[bench.metric]] tables
    std::nullopt,
    "", // a command's work is not known
};

} // namespace bootbench::core
