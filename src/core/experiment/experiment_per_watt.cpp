// [report] per_watt: each name is a metric a bench gives, and one that is
// higher-is-better (a rate or a count): a latency per watt means nothing.
#include "core/experiment/experiment.hpp"
#include "core/experiment/experiment_sections.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/experiment/toml_reader.hpp"

#include <algorithm>
#include <optional>
#include <set>

namespace bootbench::core {

// An error at each name in `list` that no bench gives (experiment_adaptive.cpp).
void check_metric_names(TomlReader& r, const toml::array* list, const std::string& context,
                        const std::set<std::string>& produced);

namespace {

std::set<std::string> bench_metric_keys(const Experiment& e) {
    std::set<std::string> keys;
    for (const auto& b : e.benches)
        for (const auto& m : expected_metrics(b))
            keys.insert(m.key);
    return keys;
}

std::string first_rate(const std::vector<MetricSpec>& specs) {
    for (const auto& m : specs)
        if (m.better == Better::higher)
            return m.key;
    return "";
}

// The first higher-is-better metric of `key`'s bench, else of any bench; "" when none.
std::string rate_for(const Experiment& e, const std::string& key) {
    std::string any;
    for (const auto& b : e.benches) {
        std::vector<MetricSpec> specs = expected_metrics(b);
        std::string rate = first_rate(specs);
        bool own = std::any_of(specs.begin(), specs.end(), [&](const MetricSpec& m) { return m.key == key; });
        if (own && !rate.empty())
            return rate;
        if (any.empty())
            any = rate;
    }
    return any;
}

// A metric a bench gives, and that bench's name.
struct Given {
    std::string bench;
    MetricSpec spec;
};

std::optional<Given> given(const Experiment& e, const std::string& key) {
    for (const auto& b : e.benches)
        for (const auto& m : expected_metrics(b))
            if (m.key == key)
                return Given{b.name, m};
    return std::nullopt;
}

std::string lower_is_better_message(const Experiment& e, const std::string& key) {
    std::string rate = rate_for(e, key);
    return "report.per_watt: '" + key + "' is lower-is-better, and a time or a latency per watt means nothing: " +
           (rate.empty() ? "list a rate or a count (no bench of this experiment gives one)"
                         : "list a rate or a count, such as '" + rate + "'");
}

// What is wrong with the entry `key` at `i` besides being unknown: "" when nothing.
std::string entry_problem(const Experiment& e, const toml::array& list, size_t i, const std::string& key) {
    for (size_t j = 0; j < i; ++j)
        if (list[j].value<std::string>() == key)
            return "report.per_watt lists '" + key + "' twice";
    std::optional<Given> metric = given(e, key);
    if (metric && metric->spec.better == Better::lower)
        return lower_is_better_message(e, key);
    if (std::optional<Given> taken = given(e, per_watt_key(key)))
        return "report.per_watt: '" + key + "' derives '" + per_watt_key(key) + "', which bench " + taken->bench +
               " gives already: rename that metric";
    return "";
}

} // namespace

void check_per_watt(TomlReader& r, const toml::table& root, const Experiment& e) {
    const toml::table* t = root.get_as<toml::table>("report");
    const toml::array* list = t ? t->get_as<toml::array>("per_watt") : nullptr;
    check_metric_names(r, list, "report.per_watt", bench_metric_keys(e));
    for (size_t i = 0; list && i < list->size(); ++i) {
        auto key = (*list)[i].value<std::string>();
        std::string problem = key ? entry_problem(e, *list, i, *key) : "";
        if (!problem.empty())
            r.error_at(TomlReader::pos_of((*list)[i]), problem);
    }
}

} // namespace bootbench::core
