// bisect_state.hpp's to_json and bisect_state_from_json: the state file of a
// bisection, every field checked on the way back in.
#include "core/base/json_read.hpp"
#include "core/bisect/bisect_state.hpp"

#include <cmath>

namespace bootbench::core {

namespace {

nlohmann::json rules_json(const BisectRules& r) {
    return {{"alpha", r.alpha},         {"endpoint_runs", r.endpoint_runs},
            {"step_runs", r.step_runs}, {"confirm_runs", r.confirm_runs},
            {"more_runs", r.more_runs}, {"max_rounds", r.max_rounds}};
}

nlohmann::json step_json(const BisectStep& s) {
    return {{"phase", name_of(kBisectPhaseNames, s.phase)},
            {"build", s.build},
            {"before", s.before},
            {"round", s.round},
            {"call", s.call},
            {"why", s.why}};
}

int count_in(const JsonReader& r, const char* key, long long min, long long max) {
    long long v = r.integer(key);
    if (v < min || v > max)
        r.fail(std::string("field '") + key + "' (" + std::to_string(v) + ") is outside " +
               std::to_string(min) + ".." + std::to_string(max));
    return static_cast<int>(v);
}

BisectRules rules_from(const JsonReader& r) {
    BisectRules x;
    x.alpha = r.number("alpha");
    if (!(x.alpha > 0 && x.alpha < 1))
        r.fail("field 'alpha' must be above 0 and below 1");
    x.endpoint_runs = count_in(r, "endpoint_runs", 1, 1000);
    x.step_runs = count_in(r, "step_runs", 1, 1000);
    x.confirm_runs = count_in(r, "confirm_runs", 1, 1000);
    x.more_runs = count_in(r, "more_runs", 1, 1000);
    x.max_rounds = count_in(r, "max_rounds", 1, 1000);
    return x;
}

BisectStep step_from(const JsonReader& x, int builds) {
    return {x.choice("phase", kBisectPhaseNames),
            count_in(x, "build", -1, builds - 1),
            count_in(x, "before", -1, builds - 1),
            count_in(x, "round", 1, 1000),
            x.str("call"),
            x.str("why")};
}

std::vector<double> values_from(const JsonReader& r, const nlohmann::json& a) {
    std::vector<double> out;
    if (!a.is_array())
        r.fail("field 'values' must be an array of arrays of numbers");
    for (const auto& v : a) {
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            r.fail("field 'values' must hold finite numbers only");
        out.push_back(v.get<double>());
    }
    return out;
}

// The schema and what is measured: the metric, its direction, the
// threshold and the bootstrap's seed.
void read_metric(const JsonReader& r, BisectState& s) {
    s.schema = static_cast<int>(r.integer("schema"));
    if (s.schema != kBisectSchema)
        r.fail("bisect state schema " + std::to_string(s.schema) +
               " is not supported (this bootbench reads " + std::to_string(kBisectSchema) + ")");
    s.metric = r.str("metric");
    s.better = r.choice("better", kBetterNames);
    s.threshold = r.number("threshold");
    if (!(s.threshold > 0 && s.threshold < 1))
        r.fail("field 'threshold' must be above 0 and below 1");
    if (!r.has("seed") || !r.raw()["seed"].is_number_unsigned())
        r.fail("field 'seed' must be a whole number of at least 0");
    s.seed = r.raw()["seed"].get<std::uint64_t>();
}

void read_builds(const JsonReader& r, BisectState& s) {
    s.builds = r.strings("builds");
    if (s.builds.size() < 4)
        r.fail("field 'builds' must name good, bad and at least two candidates");
    const auto& values = r.array("values");
    if (values.size() != s.builds.size())
        r.fail("field 'values' must have one array per build");
    for (const auto& v : values)
        s.values.push_back(values_from(r, v));
}

void read_search(const JsonReader& r, BisectState& s) {
    int n = static_cast<int>(s.builds.size());
    s.phase = r.choice("phase", kBisectPhaseNames);
    s.last_good = count_in(r, "last_good", 0, n - 2);
    s.first_bad = count_in(r, "first_bad", s.last_good + 1, n - 1);
    s.candidate = count_in(r, "candidate", -1, n - 1);
    s.round = count_in(r, "round", 1, 1000);
    for (const auto& b : r.array("pending")) {
        if (!b.is_number_integer() || b.get<long long>() < 0 || b.get<long long>() >= n)
            r.fail("field 'pending' must hold build indices from 0 to " + std::to_string(n - 1));
        s.pending.push_back(b.get<int>());
    }
    s.outcome = r.choice("outcome", kBisectOutcomeNames);
    s.verdict = r.str("verdict");
}

// What the transitions never leave behind, refused so that no later step
// reads outside the builds: a candidate strictly inside the range in search
// only, a confirmed pair of neighbours, runs pending exactly while running,
// and only of the builds being judged.
void check_search(const JsonReader& r, const BisectState& s) {
    bool search = s.phase == BisectPhase::search, done = s.phase == BisectPhase::done;
    if (search ? !(s.candidate > s.last_good && s.candidate < s.first_bad) : s.candidate != -1)
        r.fail("field 'candidate' (" + std::to_string(s.candidate) + ") does not fit phase '" +
               name_of(kBisectPhaseNames, s.phase) + "'");
    if (s.phase == BisectPhase::confirm && s.first_bad != s.last_good + 1)
        r.fail("fields 'last_good' and 'first_bad' must be neighbours in phase 'confirm'");
    if (done != s.pending.empty() || done != (s.outcome != BisectOutcome::running))
        r.fail("fields 'pending' and 'outcome' do not fit phase '" +
               std::string(name_of(kBisectPhaseNames, s.phase)) + "'");
    for (int b : s.pending)
        if (b != s.candidate && b != s.last_good && b != s.first_bad)
            r.fail("field 'pending' names build " + std::to_string(b) +
                   ", which is not being judged");
}

} // namespace

nlohmann::json to_json(const BisectState& s) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& x : s.steps)
        steps.push_back(step_json(x));
    return {{"schema", s.schema},
            {"metric", s.metric},
            {"better", name_of(kBetterNames, s.better)},
            {"threshold", s.threshold},
            {"seed", s.seed},
            {"rules", rules_json(s.rules)},
            {"builds", s.builds},
            {"values", s.values},
            {"phase", name_of(kBisectPhaseNames, s.phase)},
            {"last_good", s.last_good},
            {"first_bad", s.first_bad},
            {"candidate", s.candidate},
            {"round", s.round},
            {"pending", s.pending},
            {"steps", steps},
            {"outcome", name_of(kBisectOutcomeNames, s.outcome)},
            {"verdict", s.verdict}};
}

BisectState bisect_state_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    BisectState s;
    read_metric(r, s);
    s.rules = rules_from(r.child(r.object("rules"), "rules"));
    read_builds(r, s);
    read_search(r, s);
    check_search(r, s);
    for (const auto& item : r.array("steps"))
        s.steps.push_back(step_from(r.child(item, "steps"), static_cast<int>(s.builds.size())));
    return s;
}

} // namespace bootbench::core
