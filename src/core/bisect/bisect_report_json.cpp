// bisect.json: everything the other three show, as numbers and names: the
// state, each build with its part and its ratios, each step, what changed.
#include "core/base/text.hpp"
#include "core/bisect/bisect_report_parts.hpp"

namespace bootbench::core {

namespace {

nlohmann::json ratio_json(const std::optional<EndpointRatio>& r) {
    if (!r)
        return nullptr;
    return {{"ratio", r->ratio}, {"lo", r->ci.lo}, {"hi", r->ci.hi}};
}

nlohmann::json build_json(const BisectReportInput& in, int b, const BuildFigures& f) {
    BuildInfo i = build_info(in, b);
    return {{"index", b},
            {"name", state_of(in).builds[static_cast<size_t>(b)]},
            {"label", i.label},
            {"commit", i.commit},
            {"subject", i.subject},
            {"version", i.version},
            {"timestamp", i.timestamp},
            {"role", name_of(kBuildRoleNames, role_of(state_of(in), b))},
            {"runs", f.runs},
            {"median", f.runs ? nlohmann::json(f.median) : nlohmann::json(nullptr)},
            {"to_good", ratio_json(f.to_good)},
            {"to_bad", ratio_json(f.to_bad)}};
}

nlohmann::json builds_json(const BisectReportInput& in, const std::vector<BuildFigures>& f) {
    nlohmann::json out = nlohmann::json::array();
    for (size_t b = 0; b < f.size(); ++b)
        out.push_back(build_json(in, static_cast<int>(b), f[b]));
    return out;
}

nlohmann::json steps_json(const BisectState& s, const std::vector<BuildFigures>& f) {
    nlohmann::json out = nlohmann::json::array();
    for (const BisectStep& x : s.steps)
        out.push_back({{"phase", name_of(kBisectPhaseNames, x.phase)},
                       {"build", x.build},
                       {"before", x.before},
                       {"round", x.round},
                       {"call", x.call},
                       {"why", x.why},
                       {"to_good", ratio_json(f[static_cast<size_t>(x.build)].to_good)},
                       {"to_bad", ratio_json(f[static_cast<size_t>(x.build)].to_bad)}});
    return out;
}

nlohmann::json changes_json(const BisectReportInput& in) {
    const BisectChanges& c = in.changes;
    const BisectState& s = state_of(in);
    return {{"last_good", s.last_good},
            {"first_bad", s.first_bad},
            {"builds", range_builds(s)},
            {"problem", c.problem},
            {"diff", c.diff ? to_json(*c.diff) : nlohmann::json(nullptr)},
            {"package_summary", c.diff ? package_summary(*c.diff, kPackagesNamed) : ""},
            {"cmdline_before", c.cmdline_before},
            {"cmdline_after", c.cmdline_after}};
}

// The culprit pair's indices; null unless the final pair's A/B confirmed it.
nlohmann::json culprit_json(const BisectState& s) {
    if (s.outcome != BisectOutcome::culprit)
        return nullptr;
    return {{"last_good", s.last_good}, {"first_bad", s.first_bad}};
}

} // namespace

nlohmann::json bisect_report_json(const BisectReportInput& in) {
    const BisectState& s = state_of(in);
    std::vector<BuildFigures> f = build_figures(in);
    nlohmann::json j = {{"schema", "bootbench-bisect-report/1"},
                        {"experiment", in.experiment},
                        {"headline", bisect_headline(in)},
                        {"outcome", name_of(kBisectOutcomeNames, s.outcome)},
                        {"verdict", s.verdict},
                        {"culprit", culprit_json(s)},
                        {"seed", in.seed},
                        {"builds", builds_json(in, f)},
                        {"steps", steps_json(s, f)},
                        {"changes", changes_json(in)},
                        {"state", to_json(s)}};
    return valid_utf8_strings(std::move(j));
}

} // namespace bootbench::core
