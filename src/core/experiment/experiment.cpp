#include "core/experiment/experiment.hpp"

#include "core/base/error.hpp"
#include "core/base/regex.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/experiment_sections.hpp"
#include "core/experiment/toml_reader.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <cstdint>
#include <set>

namespace bootbench::core {

namespace {

// A bisect's builds come from [bisect], and its rules choose each build's
// runs: the A/B keys that say otherwise are refused, not ignored.
void refuse_ab_keys(TomlReader& r, const toml::table& root, const toml::table& t) {
    if (root.contains("target"))
        r.error_at(root, "target", "a bisect names its builds in [bisect] (good, bad, candidates or tags): "
                                   "remove the [[target]] tables");
    if (t.contains("baseline"))
        r.error_at(t, "baseline", "experiment.baseline: a bisect compares its builds with [bisect] good and bad: "
                                  "remove it");
    if (t.contains("runs"))
        r.error_at(t, "runs",
                   "experiment.runs: a bisect chooses how many runs each build needs: remove it "
                   "(a first round's runs: [bisect] endpoint_runs, step_runs, confirm_runs)");
}

void read_experiment_table(TomlReader& r, const toml::table& root, Experiment& e, ExperimentFile file) {
    const toml::table* t = r.require_table(root, "experiment", "[experiment]");
    if (!t)
        return;
    r.allow_keys(*t, "[experiment]",
                 {"name", "title", "runs", "order", "seed", "baseline", "max_attempts",
                  "on_boot_failure", "quick", "until", "precision", "primary"});
    if (auto name = r.string(*t, "name", "experiment.name", Required::yes))
        r.check_name(*t, "name", *name, "experiment.name"), e.name = *name;
    e.title = r.string(*t, "title", "experiment.title").value_or(e.name);
    if (file == ExperimentFile::bisect)
        refuse_ab_keys(r, root, *t);
    else if (!t->get_as<toml::table>("runs")) // a table is read by read_adaptive
        e.runs = r.int_in(*t, "runs", "experiment.runs", 1, kMaxRuns, Required::yes).value_or(e.runs);
    e.order = r.choice(*t, "order", "experiment.order", kOrderNames).value_or(Order::interleaved);
    if (auto seed = r.integer(*t, "seed", "experiment.seed", {0, INT64_MAX}))
        e.seed = static_cast<unsigned long long>(*seed);
    if (file == ExperimentFile::ab)
        e.baseline = r.string(*t, "baseline", "experiment.baseline", Required::yes).value_or("");
    e.max_attempts =
        r.int_in(*t, "max_attempts", "experiment.max_attempts", 1, 100).value_or(e.max_attempts);
    e.quick = r.boolean(*t, "quick", "experiment.quick").value_or(false);
    e.on_boot_failure = r.choice(*t, "on_boot_failure", "experiment.on_boot_failure", kOnBootFailureNames)
                            .value_or(OnBootFailure::skip);
}

void read_selector(TomlReader& r, const toml::table& t, Target& target) {
    static const std::vector<std::pair<std::string_view, SelectorKind>> kinds = {
        {"image", SelectorKind::image},
        {"refspec", SelectorKind::refspec},
        {"checksum", SelectorKind::checksum},
        {"deployment", SelectorKind::deployment}};
    std::vector<std::string_view> present;
    for (const auto& [key, kind] : kinds) {
        if (!t.contains(key))
            continue;
        present.push_back(key);
        if (present.size() > 1)
            continue;
        target.selector.kind = kind;
        std::string ctx = "target '" + target.name + "'." + std::string(key);
        if (kind == SelectorKind::deployment) {
            target.selector.index = r.int_in(t, key, ctx, 0, 999, Required::yes).value_or(-1);
        } else if (auto v = r.string(t, key, ctx, Required::yes)) {
            target.selector.value = *v;
            if (v->empty())
                r.error_at(t, key, ctx + " is empty");
            else if (kind == SelectorKind::checksum &&
                     !Regex("[0-9a-f]{4,64}").full_match(*v))
                r.error_at(t, key, ctx + " must be 4 to 64 lowercase hex digits, not '" + *v + "'");
        }
    }
    if (present.empty())
        r.error_at(t, "target '" + target.name +
                          "' has no selector: give exactly one of image, refspec, checksum, "
                          "deployment");
    else if (present.size() > 1)
        r.error_at(t, present[1],
                   "target '" + target.name + "' has two selectors (" + std::string(present[0]) +
                       " and " + std::string(present[1]) + "): keep exactly one");
}

void read_targets(TomlReader& r, const toml::table& root, Experiment& e) {
    const toml::array* arr = r.require_table_array(root, "target", "[[target]]");
    if (!arr)
        return;
    std::set<std::string> seen;
    for (const auto& node : *arr) {
        const toml::table& t = *node.as_table();
        Target target;
        target.pos = TomlReader::pos_of(t);
        r.allow_keys(t, "[[target]]",
                     {"name", "image", "refspec", "checksum", "deployment", "kargs",
                      "expect_kernel", "stage", "pin_digest", "allow_layered"});
        if (auto name = r.string(t, "name", "target.name", Required::yes)) {
            r.check_name(t, "name", *name, "target.name");
            target.name = *name;
            if (!seen.insert(*name).second)
                r.error_at(t, "name", "duplicate target name '" + *name + "'");
        }
        read_selector(r, t, target);
        target.kargs = r.string_array(t, "kargs", "target '" + target.name + "'.kargs");
        target.expect_kernel = r.string(t, "expect_kernel", "target.expect_kernel").value_or("");
        target.stage = r.boolean(t, "stage", "target.stage").value_or(false);
        target.pin_digest = r.boolean(t, "pin_digest", "target.pin_digest").value_or(false);
        target.allow_layered = r.boolean(t, "allow_layered", "target.allow_layered").value_or(false);
        e.targets.push_back(std::move(target));
    }
    if (arr->size() < 2)
        r.error_at(root, "target",
                   "an experiment needs at least two [[target]] tables to compare, found " +
                       std::to_string(arr->size()));
}

void read_stop_units(TomlReader& r, const toml::table& t, Conditions& c) {
    if (!t.contains("stop_units"))
        return;
    c.stop_units = r.string_array(t, "stop_units", "conditions.stop_units");
    for (const auto& u : *c.stop_units)
        if (!is_stoppable_unit_name(u))
            r.error_at(t, "stop_units", "conditions.stop_units: '" + u +
                                            "' is not a unit name ending in .timer, .service, .path or .socket");
}

void read_conditions(TomlReader& r, const toml::table& root, Conditions& c) {
    const toml::table* t = r.optional_table(root, "conditions", "[conditions]");
    if (!t)
        return;
    r.allow_keys(*t, "[conditions]",
                 {"governor", "set_governor", "sched_ext", "settle_s", "max_start_temp_c",
                  "temp_wait_timeout_s", "on_temp_timeout", "start_temp_band_c", "stop_units"});
    read_stop_units(r, *t, c);
    c.governor = r.string(*t, "governor", "conditions.governor").value_or("");
    c.set_governor = r.boolean(*t, "set_governor", "conditions.set_governor").value_or(false);
    if (c.set_governor && c.governor.empty())
        r.error_at(*t, "set_governor", "conditions.set_governor = true needs conditions.governor");
    c.sched_ext = r.choice(*t, "sched_ext", "conditions.sched_ext",
                           std::vector<std::pair<std::string_view, std::string>>{
                               {"", ""}, {"disabled", "disabled"}, {"enabled", "enabled"}})
                      .value_or("");
    c.settle_s = r.int_in(*t, "settle_s", "conditions.settle_s", 0, kMaxSeconds).value_or(c.settle_s);
    c.max_start_temp_c = r.number(*t, "max_start_temp_c", "conditions.max_start_temp_c", {0, 200})
                             .value_or(c.max_start_temp_c);
    c.temp_wait_timeout_s =
        r.int_in(*t, "temp_wait_timeout_s", "conditions.temp_wait_timeout_s", 0, kMaxSeconds)
            .value_or(c.temp_wait_timeout_s);
    c.on_temp_timeout = r.choice(*t, "on_temp_timeout", "conditions.on_temp_timeout", kOnTempTimeoutNames)
                            .value_or(OnTempTimeout::run);
    c.start_temp_band_c =
        r.number(*t, "start_temp_band_c", "conditions.start_temp_band_c", {0, 100, true});
}

void read_load(TomlReader& r, const toml::table& root, Load& load) {
    const toml::table* t = r.optional_table(root, "load", "[load]");
    if (!t)
        return;
    r.allow_keys(*t, "[load]", {"cpu_workers"});
    const toml::node* n = t->get("cpu_workers");
    if (!n)
        return;
    if (auto i = n->value_exact<int64_t>()) {
        if (r.in_range(*t, "cpu_workers", *i, {0, 4096}, "load.cpu_workers"))
            load.count = static_cast<int>(*i);
        load.kind = load.count == 0 ? Load::Kind::none : Load::Kind::count;
        return;
    }
    auto s = n->value_exact<std::string>();
    if (s && *s == "half")
        load.kind = Load::Kind::half;
    else if (s && *s == "all")
        load.kind = Load::Kind::all;
    else if (s && *s == "0")
        load.kind = Load::Kind::none;
    else
        r.error_at(*t, "cpu_workers",
                   "load.cpu_workers must be \"half\", \"all\" or a whole number of workers");
}

void read_tools(TomlReader& r, const toml::table& root, Experiment& e) {
    const toml::table* t = r.optional_table(root, "tools", "[tools]");
    if (!t)
        return;
    r.allow_keys(*t, "[tools]", {"image"});
    std::string image = r.string(*t, "image", "tools.image", Required::yes).value_or("host");
    if (image == "host")
        return;
    if (!is_valid_image_reference(image))
        r.error_at(*t, "image", "tools.image must be \"host\" or a container image reference such as "
                                "\"ghcr.io/example/bench-tools:44\" (letters, digits and ._/:@-)");
    e.tools_image = image;
}

// [boot] measure: systemd's boot times of every run (on by default).
void read_boot(TomlReader& r, const toml::table& root, Experiment& e) {
    const toml::table* t = r.optional_table(root, "boot", "[boot]");
    if (!t)
        return;
    r.allow_keys(*t, "[boot]", {"measure"});
    e.boot.measure = r.boolean(*t, "measure", "boot.measure").value_or(true);
}

// Every run is a boot: the product bounds the plan, the state and the report.
void check_size(TomlReader& r, const toml::table& root, const Experiment& e) {
    size_t total = static_cast<size_t>(e.runs) * e.targets.size();
    const toml::table* t = root.get_as<toml::table>("experiment");
    if (t && total > static_cast<size_t>(kMaxPlannedRuns))
        r.error_at(*t, "runs",
                   "experiment.runs x targets is " + std::to_string(e.runs) + " x " +
                       std::to_string(e.targets.size()) + " = " + std::to_string(total) +
                       " runs, more than " + std::to_string(kMaxPlannedRuns) +
                       ": lower runs or split the experiment");
}

} // namespace

void read_experiment(TomlReader& r, const toml::table& root, Experiment& e, ExperimentFile file) {
    if (file == ExperimentFile::ab) // a bisect file's tables are parse_bisect's to allow
        r.allow_keys(root, "the experiment file",
                     {"experiment", "target", "conditions", "load", "bench", "report", "notify", "tools", "boot"});
    read_experiment_table(r, root, e, file);
    read_adaptive(r, root, e);
    if (file == ExperimentFile::ab)
        read_targets(r, root, e);
    check_size(r, root, e);
    read_conditions(r, root, e.conditions);
    read_load(r, root, e.load);
    read_tools(r, root, e);
    read_boot(r, root, e);
    read_benches(r, root, e);
    read_report_and_notify(r, root, e);
    check_cross_references(r, root, e);
    check_adaptive(r, root, e);
    check_per_watt(r, root, e);
}

Experiment parse_experiment(const std::string& text, const std::string& file_name) {
    TomlReader r(file_name);
    toml::table root = r.parse(text);
    Experiment e;
    e.source_file = file_name;
    read_experiment(r, root, e, ExperimentFile::ab);
    r.throw_if_errors();
    bool quick = e.quick;
    e.quick = false; // set by quick_version, once it has scaled the times down
    return quick ? quick_version(std::move(e)) : e;
}

Experiment quick_version(Experiment e) {
    if (e.quick)
        return e;
    e.quick = true;
    e.conditions.settle_s = 0;
    e.conditions.temp_wait_timeout_s = std::min(e.conditions.temp_wait_timeout_s, 10);
    for (auto& b : e.benches)
        bench_kind(b.kind).quick(b);
    return e;
}

} // namespace bootbench::core
