#include "core/bisect/bisect_config.hpp"

#include "core/base/error.hpp"
#include "core/base/regex.hpp"
#include "core/experiment/experiment_sections.hpp"
#include "core/experiment/names.hpp"
#include "core/experiment/toml_reader.hpp"

#include <cstdio>
#include <set>

namespace bootbench::core {

namespace {

const char* const kBuildForms =
    "{ refspec = \"REMOTE:REF\", commit = \"HEX\" } or { image = \"REFERENCE\" }";

bool is_commit(const std::string& s) {
    return Regex("[0-9a-f]{4,64}").full_match(s);
}

void read_commit(TomlReader& r, const toml::table& t, const std::string& ctx, BisectBuild& b) {
    auto commit = r.string(t, "commit", ctx + ".commit");
    b.commit = commit.value_or("");
    if (commit && !is_commit(*commit))
        r.error_at(t, "commit",
                   ctx + ".commit must be 4 to 64 lowercase hex digits, not '" + *commit + "'");
}

void read_image(TomlReader& r, const toml::table& t, const std::string& ctx, BisectBuild& b) {
    b.kind = SelectorKind::image;
    b.image = r.string(t, "image", ctx + ".image").value_or("");
    if (!is_valid_image_reference(b.image))
        r.error_at(t, "image",
                   ctx + ".image must be a container image reference such as "
                         "\"ghcr.io/ublue-os/bazzite:stable-20261101\"");
    if (t.contains("commit"))
        r.error_at(t, "commit", ctx + ".commit goes with refspec, not with image: remove it");
}

void read_refspec(TomlReader& r, const toml::table& t, const std::string& ctx, BisectBuild& b) {
    b.refspec = r.string(t, "refspec", ctx + ".refspec").value_or("");
    if (b.refspec.empty())
        r.error_at(t, "refspec", ctx + ".refspec is empty");
    read_commit(r, t, ctx, b);
}

// good = { ... } or bad = { ... }; nullopt (and an error) when missing or malformed.
std::optional<BisectBuild> read_build(TomlReader& r, const toml::table& bisect, const char* key) {
    std::string ctx = std::string("bisect.") + key;
    const toml::node* n = bisect.get(key);
    if (!n || !n->is_table()) {
        r.error_at(bisect, key,
                   ctx + (n ? " must be " : " is missing: give ") + key + " = " + kBuildForms);
        return std::nullopt;
    }
    const toml::table& t = *n->as_table();
    r.allow_keys(t, ctx, {"refspec", "commit", "image"});
    BisectBuild b;
    b.pos = TomlReader::pos_of(t);
    if (t.contains("refspec") == t.contains("image")) {
        r.error_at(t, ctx +
                          (t.contains("image") ? " has both refspec and image: keep one, "
                                               : " names no build: give ") +
                          kBuildForms);
        return std::nullopt;
    }
    (t.contains("image") ? read_image : read_refspec)(r, t, ctx, b);
    return b;
}

// A bisect follows one history: one ref's commits, or one image's builds;
// good must say where it was good.
void check_endpoints(TomlReader& r, const BisectBuild& good, const BisectBuild& bad) {
    if (good.kind != bad.kind)
        r.error_at(bad.pos,
                   "bisect.bad is " +
                       std::string(bad.kind == SelectorKind::image ? "an image" : "a refspec") +
                       " and bisect.good " +
                       (good.kind == SelectorKind::image ? "an image" : "a refspec") +
                       ": both must be of one kind, in one history");
    else if (good.kind == SelectorKind::refspec && !bad.refspec.empty() &&
             good.refspec != bad.refspec)
        r.error_at(bad.pos, "bisect.bad.refspec '" + bad.refspec +
                                "' is not bisect.good.refspec '" + good.refspec +
                                "': a bisect follows one ref's history");
    else if (good.kind == SelectorKind::refspec && good.commit.empty())
        r.error_at(good.pos, "bisect.good needs commit = \"HEX\": the commit of " + good.refspec +
                                 " that was good (bad without a commit is the ref's head)");
}

// tags = "GLOB": an image's registry tags, not with candidates nor a refspec.
void read_tags(TomlReader& r, const toml::table& t, BisectConfig& c) {
    if (!t.contains("tags"))
        return;
    c.tags = r.string(t, "tags", "bisect.tags").value_or("");
    if (t.contains("candidates"))
        r.error_at(t, "tags",
                   "bisect.candidates and bisect.tags both name the builds between good and bad: "
                   "keep one");
    else if (c.good.kind == SelectorKind::refspec)
        r.error_at(
            t, "tags",
            "bisect.tags selects an image's registry tags; with a refspec the builds between good "
            "and bad are the ref's commits: remove tags, or list them in bisect.candidates");
    else if (c.tags.empty())
        r.error_at(t, "tags", "bisect.tags is empty: give a glob such as \"stable-2026*\"");
}

void read_candidates(TomlReader& r, const toml::table& t, BisectConfig& c) {
    read_tags(r, t, c);
    c.candidates = r.string_array(t, "candidates", "bisect.candidates");
    if (t.contains("candidates") && c.candidates.size() < 2)
        r.error_at(t, "candidates",
                   "bisect.candidates needs at least two builds between good and bad, found " +
                       std::to_string(c.candidates.size()) +
                       ": with fewer there is nothing to bisect");
    if (c.good.kind == SelectorKind::image && !t.contains("candidates") && !t.contains("tags"))
        r.error_at(t, "bisect with images needs the builds between good and bad: tags = \"GLOB\" "
                      "(the registry's "
                      "tags, by creation time) or candidates = [...]");
}

void check_candidate_names(TomlReader& r, const toml::table& t, const BisectConfig& c) {
    std::set<std::string> seen;
    for (const auto& x : c.candidates) {
        bool ok = c.good.kind == SelectorKind::image ? is_valid_image_reference(x) : is_commit(x);
        if (!ok)
            r.error_at(t, "candidates",
                       "bisect.candidates: '" + x + "' is not " +
                           (c.good.kind == SelectorKind::image
                                ? "a container image reference"
                                : "a commit (4 to 64 lowercase hex digits)"));
        else if (!seen.insert(x).second)
            r.error_at(t, "candidates", "bisect.candidates: '" + x + "' is listed twice");
    }
}

std::string metric_names(const std::set<std::string>& produced) {
    std::string names;
    for (const auto& k : produced)
        names += (names.empty() ? "" : ", ") + k;
    return names;
}

// metric, or the experiment's first primary metric; a metric some bench gives.
void read_metric(TomlReader& r, const toml::table& t, const Experiment& e, BisectConfig& c) {
    std::set<std::string> produced = produced_metrics(e);
    auto metric = r.string(t, "metric", "bisect.metric");
    if (metric && !produced.count(*metric))
        r.error_at(t, "metric",
                   "bisect.metric: no bench gives the metric '" + *metric +
                       "' (the benches give: " + metric_names(produced) + ")");
    if (!metric && e.adaptive && !e.adaptive->primary.empty())
        metric = e.adaptive->primary.front();
    if (!metric)
        r.error_at(t,
                   "bisect.metric is missing: name the metric that regressed, or list it first in "
                   "experiment.primary (the benches give: " +
                       metric_names(produced) + ")");
    c.metric = metric.value_or("");
}

void read_threshold(TomlReader& r, const toml::table& t, BisectConfig& c) {
    auto v = r.number(t, "threshold", "bisect.threshold", {-1e300, 1e300});
    if (!v || (*v > 0 && *v < 1)) {
        c.threshold = v.value_or(c.threshold);
        return;
    }
    char got[32];
    std::snprintf(got, sizeof got, "%g", *v);
    r.error_at(
        t, "threshold",
        std::string("bisect.threshold must be above 0 and below 1 (0.05 is a 5% change), got ") +
            got);
}

// A [bisect] key that sets how many runs a decision asks for first: its
// field of BisectRules, the fewest that can decide, and why.
struct RunsKey {
    const char* key;
    int BisectRules::*field;
    int fewest;
    const char* why_fewest;
};
constexpr int kMostRuns = 50;
// 5 against 5: the exact two-sided rank test's smallest p is 2 / C(10, 5) = 0.0079;
// 4 against 4 (or 5) cannot go below 0.01.
static_assert(BisectRules{}.alpha == 0.01, "the messages below say alpha 0.01");
const RunsKey kRunsKeys[] = {
    {"endpoint_runs", &BisectRules::endpoint_runs, 5,
     "with fewer than 5 runs each, bad's rank test against good cannot go below alpha 0.01"},
    {"step_runs", &BisectRules::step_runs, 5,
     "with fewer than 5 runs a candidate's rank test against good cannot go below alpha 0.01"},
    {"confirm_runs", &BisectRules::confirm_runs, 2,
     "with fewer than 2 runs each the final pair's direct A/B is not interleaved (good, bad, good, "
     "bad)"},
};

// The message for a count outside [fewest, kMostRuns], "" when inside.
std::string runs_problem(const RunsKey& k, int64_t v, const BisectRules& defaults) {
    std::string head = std::string("bisect.") + k.key + " = " + std::to_string(v) + ": ";
    if (v < k.fewest)
        return head + k.why_fewest + "; use at least " + std::to_string(k.fewest);
    if (v > kMostRuns)
        return head + "use at most " + std::to_string(kMostRuns) + " (the default is " +
               std::to_string(defaults.*k.field) + ")";
    return "";
}

void read_runs(TomlReader& r, const toml::table& t, BisectRules& rules) {
    const BisectRules defaults;
    for (const RunsKey& k : kRunsKeys) {
        auto v = r.integer(t, k.key, std::string("bisect.") + k.key, {INT64_MIN, INT64_MAX});
        if (!v)
            continue;
        std::string problem = runs_problem(k, *v, defaults);
        if (problem.empty())
            rules.*k.field = static_cast<int>(*v);
        else
            r.error_at(t, k.key, problem);
    }
}

void read_bisect(TomlReader& r, const toml::table& root, const Experiment& e, BisectConfig& c) {
    const toml::table* t = r.require_table(root, "bisect", "[bisect]");
    if (!t)
        return;
    r.allow_keys(*t, "[bisect]",
                 {"good", "bad", "candidates", "tags", "metric", "threshold", "endpoint_runs",
                  "step_runs", "confirm_runs"});
    auto good = read_build(r, *t, "good");
    auto bad = read_build(r, *t, "bad");
    if (good && bad)
        check_endpoints(r, *good, *bad);
    c.good = good.value_or(BisectBuild{});
    c.bad = bad.value_or(BisectBuild{});
    read_candidates(r, *t, c);
    check_candidate_names(r, *t, c);
    read_metric(r, *t, e, c);
    read_threshold(r, *t, c);
    read_runs(r, *t, c.rules);
}

} // namespace

bool names_bisect(const std::string& text) {
    try {
        TomlReader r("");
        toml::table root = r.parse(text);
        return root.get_as<toml::table>("bisect") != nullptr;
    } catch (const Error&) {
        return false;
    }
}

BisectFile parse_bisect(const std::string& text, const std::string& file_name) {
    TomlReader r(file_name);
    toml::table root = r.parse(text);
    BisectFile f;
    f.experiment.source_file = file_name;
    // the experiment file's tables and [bisect]; target only to say why it has no place here
    r.allow_keys(root, "the bisect file",
                 {"experiment", "target", "conditions", "load", "bench", "report", "notify",
                  "tools", "boot", "bisect"});
    read_experiment(r, root, f.experiment, ExperimentFile::bisect);
    read_bisect(r, root, f.experiment, f.bisect);
    r.throw_if_errors();
    if (f.experiment.quick) { // as parse_experiment: quick_version scales the times down once
        f.experiment.quick = false;
        f.experiment = quick_version(std::move(f.experiment));
    }
    return f;
}

} // namespace bootbench::core
