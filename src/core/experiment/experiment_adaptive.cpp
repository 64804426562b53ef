// [experiment] runs = { min, max }, until, precision and primary: the keys of
// an experiment that sizes itself to the night (core/sizing/adaptive decides).
#include "core/experiment/experiment.hpp"
#include "core/experiment/experiment_sections.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/experiment/toml_reader.hpp"

#include <cstdio>
#include <set>

namespace bootbench::core {

namespace {

// "06:30" -> 390; -1 when it is not a 24-hour HH:MM.
int minutes_of(const std::string& s) {
    auto digit = [&](size_t i) { return s[i] >= '0' && s[i] <= '9'; };
    if (s.size() != 5 || s[2] != ':' || !digit(0) || !digit(1) || !digit(3) || !digit(4))
        return -1;
    int h = (s[0] - '0') * 10 + (s[1] - '0'), m = (s[3] - '0') * 10 + (s[4] - '0');
    return h < 24 && m < 60 ? h * 60 + m : -1;
}

void read_runs_table(TomlReader& r, const toml::table& runs, Experiment& e, Adaptive& a) {
    r.allow_keys(runs, "experiment.runs", {"min", "max"});
    auto min = r.int_in(runs, "min", "experiment.runs.min", 1, kMaxRuns, Required::yes);
    auto max = r.int_in(runs, "max", "experiment.runs.max", 1, kMaxRuns, Required::yes);
    if (min && max && *min > *max)
        r.error_at(runs, "min", "experiment.runs.min (" + std::to_string(*min) + ") is more than experiment.runs.max (" +
                                    std::to_string(*max) + ")");
    a.min_runs = min.value_or(1);
    e.runs = max.value_or(a.min_runs);
}

void read_until(TomlReader& r, const toml::table& t, Adaptive& a) {
    auto until = r.string(t, "until", "experiment.until");
    if (!until)
        return;
    a.until = *until;
    a.until_minutes = minutes_of(*until);
    if (a.until_minutes < 0)
        r.error_at(t, "until", "experiment.until must be a local time HH:MM such as \"06:30\", not \"" + *until + "\"");
}

void read_precision(TomlReader& r, const toml::table& t, Adaptive& a) {
    auto p = r.number(t, "precision", "experiment.precision", {-1e300, 1e300});
    if (!p)
        return;
    if (*p > 0 && *p < 1) {
        a.precision = *p;
        return;
    }
    char got[32];
    std::snprintf(got, sizeof got, "%g", *p);
    r.error_at(t, "precision", std::string("experiment.precision must be above 0 and below 1 (0.02 is +-2%), got ") + got);
}


} // namespace

std::set<std::string> produced_metrics(const Experiment& e) {
    std::set<std::string> keys;
    for (const auto& b : e.benches)
        for (const auto& m : expected_metrics(b))
            keys.insert(m.key);
    for (const auto& m : metric_catalog())
        if (m.from == MetricFrom::system && (e.boot.measure || m.key.rfind("boot_", 0) != 0))
            keys.insert(m.key);
    for (const auto& k : e.report.per_watt) // checked by check_per_watt
        keys.insert(per_watt_key(k));
    return keys;
}

void read_adaptive(TomlReader& r, const toml::table& root, Experiment& e) {
    const toml::table* t = root.get_as<toml::table>("experiment");
    if (!t)
        return;
    const toml::table* runs = t->get_as<toml::table>("runs");
    if (!runs && !t->contains("until") && !t->contains("precision") && !t->contains("primary"))
        return;
    Adaptive a;
    if (runs)
        read_runs_table(r, *runs, e, a);
    read_until(r, *t, a);
    read_precision(r, *t, a);
    a.primary = r.string_array(*t, "primary", "experiment.primary");
    if (!runs)
        a.min_runs = e.runs;
    if (!runs && a.precision > 0)
        r.error_at(*t, "precision", "experiment.precision needs runs = { min = N, max = M }: with a fixed number "
                                    "of runs nothing can stop early");
    e.adaptive = a;
}

void check_metric_names(TomlReader& r, const toml::array* list, const std::string& context,
                        const std::set<std::string>& produced);

// After the benches are read: primary names a metric they give; the order
// can grow in rounds.
void check_adaptive(TomlReader& r, const toml::table& root, const Experiment& e) {
    const toml::table* t = root.get_as<toml::table>("experiment");
    if (!t || !e.adaptive)
        return;
    if (e.order == Order::blocked)
        r.error_at(*t, "order", "experiment.order = \"blocked\" cannot grow one round at a time: with runs = "
                                "{ min, max }, until or precision use \"interleaved\", \"counterbalanced\" or \"random\"");
    check_metric_names(r, t->get_as<toml::array>("primary"), "experiment.primary", produced_metrics(e));
}

void check_metric_names(TomlReader& r, const toml::array* list, const std::string& context,
                        const std::set<std::string>& produced) {
    std::string names;
    for (const auto& k : produced)
        names += (names.empty() ? "" : ", ") + k;
    for (size_t i = 0; list && i < list->size(); ++i) {
        auto key = (*list)[i].value<std::string>();
        if (key && !produced.count(*key))
            r.error_at(TomlReader::pos_of((*list)[i]),
                       context + ": no bench gives the metric '" + *key + "' (the benches give: " + names + ")");
    }
}

} // namespace bootbench::core
