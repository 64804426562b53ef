// The [[bench]], [report] and [notify] tables, and the checks that span tables.
#include "core/base/error.hpp"
#include "core/experiment/experiment.hpp"
#include "core/experiment/kinds/bench_keys.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/experiment_sections.hpp"
#include "core/base/regex.hpp"
#include "core/experiment/toml_reader.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <string_view>

namespace bootbench::core {

namespace {

bool event_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-_:./=@").find(c) != std::string_view::npos;
}

// Why `event` cannot be a perf event name in a `-e` list, or "".
std::string event_problem(const std::string& event) {
    if (event.empty() || event.size() > kMaxEventName)
        return "must be 1 to " + std::to_string(kMaxEventName) + " characters";
    auto bad = std::find_if_not(event.begin(), event.end(), event_char);
    if (bad == event.end())
        return "";
    return std::string("has '") + *bad + "': an event name has letters, digits and - _ : . / = @ (one event a string)";
}

std::vector<std::string> event_list(TomlReader& r, const toml::table& t, const std::string& ctx) {
    size_t given = t.get("counters")->as_array()->size();
    std::vector<std::string> events = r.string_array(t, "counters", ctx);
    if (given == 0 || given > static_cast<size_t>(kMaxCounters))
        r.error_at(t, "counters", ctx + " must name 1 to " + std::to_string(kMaxCounters) +
                                      " perf events, or be true for the default set");
    for (const auto& e : events)
        if (std::string why = event_problem(e); !why.empty())
            r.error_at(t, "counters", ctx + ": event '" + e + "' " + why);
    return events;
}

// `counters = true` (the default set), false, or a list of perf events.
std::vector<std::string> read_counters(TomlReader& r, const toml::table& t, const std::string& ctx) {
    const toml::node* n = t.get("counters");
    if (!n)
        return {};
    if (n->is_array())
        return event_list(r, t, ctx + ".counters");
    if (!n->is_boolean()) {
        r.error_at(t, "counters", ctx + ".counters must be true (the default set), false or a list of perf events");
        return {};
    }
    if (!*n->value<bool>())
        return {};
    return {std::begin(kDefaultCounters), std::end(kDefaultCounters)};
}

// The keys every kind has; its own keys are its descriptor's (core/experiment/kinds).
void read_kind_keys(TomlReader& r, const toml::table& t, Bench& b, const std::string& ctx) {
    BenchKeys keys(r, t, ctx);
    bench_kind(b.kind).read_keys(keys, b);
    b.timeout_s = keys.integer("timeout_s", 0, 1, kMaxSeconds);
    b.repeat = keys.integer("repeat", 1, 1, kMaxRepeat);
    b.counters = read_counters(r, t, ctx);
}

} // namespace

void read_benches(TomlReader& r, const toml::table& root, Experiment& e) {
    const toml::array* arr = r.require_table_array(root, "bench", "[[bench]]");
    if (!arr)
        return;
    if (arr->size() > static_cast<size_t>(kMaxBenches)) {
        r.error_at(root, "bench", std::to_string(arr->size()) + " [[bench]] tables, more than " +
                                      std::to_string(kMaxBenches) + ": split the suite");
        return;
    }
    std::set<std::string> names;
    for (const auto& node : *arr) {
        const toml::table& t = *node.as_table();
        Bench b;
        b.pos = TomlReader::pos_of(t);
        auto kind = r.choice(t, "kind", "bench.kind", kBenchKindNames);
        if (!t.contains("kind"))
            r.error_at(t, "missing bench.kind");
        if (!kind)
            continue;
        b.kind = *kind;
        b.name = r.string(t, "name", "bench.name").value_or(to_string(b.kind));
        std::string ctx = "[[bench]] '" + b.name + "'";
        if (!is_valid_name(b.name))
            r.check_name(t, "name", b.name, "bench.name");
        if (!names.insert(b.name).second)
            r.error_at(t, t.contains("name") ? "name" : "kind",
                       "duplicate bench name '" + b.name + "': give each [[bench]] its own name");
        read_kind_keys(r, t, b, ctx);
        e.benches.push_back(std::move(b));
    }
}

void read_report_and_notify(TomlReader& r, const toml::table& root, Experiment& e) {
    if (const toml::table* t = r.optional_table(root, "report", "[report]")) {
        r.allow_keys(*t, "[report]", {"exclude", "per_watt"});
        e.report.exclude = r.string_array(*t, "exclude", "report.exclude");
        e.report.per_watt = r.string_array(*t, "per_watt", "report.per_watt");
    }
    const toml::table* t = r.optional_table(root, "notify", "[notify]");
    if (!t)
        return;
    r.allow_keys(*t, "[notify]", {"url", "format", "on", "token_file", "token_env"});
    Notify n;
    n.url = r.string(*t, "url", "notify.url", Required::yes).value_or("");
    if (!n.url.empty() && n.url.rfind("http://", 0) != 0 && n.url.rfind("https://", 0) != 0)
        r.error_at(*t, "url", "notify.url must start with http:// or https://");
    n.format = r.choice(*t, "format", "notify.format",
                        std::vector<std::pair<std::string_view, std::string>>{{"text", "text"},
                                                                              {"json", "json"}})
                   .value_or("text");
    n.on = r.string_array(*t, "on", "notify.on");
    if (!t->contains("on"))
        n.on = {"start", "run", "finish", "failure"};
    for (const auto& ev : n.on)
        if (ev != "start" && ev != "run" && ev != "finish" && ev != "failure")
            r.error_at(*t, "on", "notify.on: unknown event \"" + ev +
                                     "\" (events: start, run, finish, failure)");
    n.token_file = r.string(*t, "token_file", "notify.token_file").value_or("");
    n.token_env = r.string(*t, "token_env", "notify.token_env").value_or("");
    e.notify = n;
}

void check_cross_references(TomlReader& r, const toml::table& root, const Experiment& e) {
    const toml::table* exp = root.get_as<toml::table>("experiment");
    if (exp && !e.baseline.empty() && !e.find_target(e.baseline) && !e.targets.empty()) {
        std::string names;
        for (const auto& t : e.targets)
            names += (names.empty() ? "" : ", ") + t.name;
        r.error_at(*exp, "baseline",
                   "experiment.baseline '" + e.baseline + "' is not a target (targets: " + names + ")");
    }
    std::set<std::string> metric_keys;
    for (const auto& b : e.benches)
        for (const auto& m : b.metrics)
            if (!metric_keys.insert(m.key).second)
                r.error_at(m.pos, "metric key '" + m.key + "' is defined twice");
    const toml::table* rep = root.get_as<toml::table>("report");
    // Built once, and only for a plan within bounds (a larger one is refused already).
    bool bounded = static_cast<size_t>(e.runs) * e.targets.size() <= static_cast<size_t>(kMaxPlannedRuns);
    std::set<std::string> run_ids;
    for (const auto& t : e.targets)
        for (int k = 1; bounded && k <= e.runs && !e.report.exclude.empty(); ++k)
            run_ids.insert(t.name + "-" + std::to_string(k));
    for (const auto& id : e.report.exclude) {
        bool known = run_ids.count(id) > 0;
        if (!known && bounded && rep && !e.targets.empty())
            r.error_at(*rep, "exclude",
                       "report.exclude: '" + id + "' is not a run of this experiment (run ids look like '" +
                           e.targets.front().name + "-1')");
    }
}

const Target* Experiment::find_target(const std::string& target_name) const {
    for (const auto& t : targets)
        if (t.name == target_name)
            return &t;
    return nullptr;
}

const Target& Experiment::subject() const {
    for (const auto& t : targets)
        if (t.name != baseline)
            return t;
    return targets.front();
}

const char* to_string(Order order) { return name_of(kOrderNames, order); }
const char* to_string(SelectorKind kind) { return name_of(kSelectorKindNames, kind); }
const char* to_string(BenchKind kind) { return name_of(kBenchKindNames, kind); }
const char* to_string(Better better) { return name_of(kBetterNames, better); }

} // namespace bootbench::core
