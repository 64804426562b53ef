// The figures and words every bisect rendering shares: each build's ratios
// to good's and bad's runs, its part in the search, the headline.
#include "core/bisect/bisect_report_parts.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/report/render_text.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::core {

namespace {

const std::vector<double>& runs_of(const BisectState& s, int build) {
    return s.values[static_cast<size_t>(build)];
}

std::optional<EndpointRatio> ratio_to(const std::vector<double>& build,
                                      const std::vector<double>& endpoint, Better better,
                                      std::uint64_t seed) {
    if (build.empty() || endpoint.empty() || median(build) <= 0 || median(endpoint) <= 0)
        return std::nullopt;
    return EndpointRatio{better_ratio(median(build), median(endpoint), better),
                         bootstrap_ratio_ci(build, endpoint, better, seed)};
}

BuildFigures figures_of(const BisectState& s, int build, std::uint64_t seed) {
    const auto& v = runs_of(s, build);
    BuildFigures f;
    f.runs = static_cast<int>(v.size());
    f.median = v.empty() ? 0 : median(v);
    f.to_good = ratio_to(v, runs_of(s, 0), s.better, seed);
    f.to_bad = ratio_to(v, s.values.back(), s.better, seed);
    return f;
}

// The part a candidate's last search step gave it.
BuildRole searched_role(const BisectState& s, int build) {
    auto it = std::find_if(s.steps.rbegin(), s.steps.rend(), [&](const BisectStep& x) {
        return x.phase == BisectPhase::search && x.build == build;
    });
    if (it == s.steps.rend() || it->call == name_of(kLikenessNames, Likeness::undecided))
        return BuildRole::undecided;
    return it->call == name_of(kLikenessNames, Likeness::like_good) ? BuildRole::like_good
                                                                    : BuildRole::like_bad;
}

std::string label_of(const BisectReportInput& in, int build) {
    return build_info(in, build).label;
}

// "after X and at or before Y (3 builds)".
std::string range_text(const BisectReportInput& in) {
    const BisectState& s = state_of(in);
    return "after " + label_of(in, s.last_good) + " and at or before " + label_of(in, s.first_bad) +
           " (" + count_of(static_cast<long long>(range_builds(s).size()), "build") + ")";
}

bool ended_at_endpoints(const BisectState& s) {
    return !s.steps.empty() && s.steps.back().phase == BisectPhase::endpoints;
}

std::string undecided_headline(const BisectReportInput& in) {
    const BisectState& s = state_of(in);
    if (ended_at_endpoints(s))
        return "Undecided: good (" + label_of(in, 0) + ") against bad (" +
               label_of(in, static_cast<int>(s.builds.size()) - 1) +
               ") is not decided; no culprit named";
    return "Undecided: no culprit named; the regression is " + range_text(in);
}

} // namespace

const BisectState& state_of(const BisectReportInput& in) {
    if (!in.state)
        throw Error("bisect report of '" + in.experiment + "': no bisection state to report");
    return *in.state;
}

BuildInfo build_info(const BisectReportInput& in, int build) {
    auto i = static_cast<size_t>(build);
    BuildInfo b = i < in.builds.size() ? in.builds[i] : BuildInfo{};
    if (b.label.empty())
        b.label = state_of(in).builds[i];
    return b;
}

BuildRole role_of(const BisectState& s, int build) {
    if (build == 0)
        return BuildRole::good;
    if (build == static_cast<int>(s.builds.size()) - 1)
        return BuildRole::bad;
    if (build == s.last_good || build == s.first_bad)
        return build == s.last_good ? BuildRole::last_good : BuildRole::first_bad;
    return runs_of(s, build).empty() ? BuildRole::untested : searched_role(s, build);
}

std::string short_commit(const std::string& commit) {
    size_t colon = commit.find(':');
    size_t from = colon == std::string::npos ? 0 : colon + 1;
    return commit.substr(0, from + 12);
}

std::string build_line(const BisectReportInput& in, int build) {
    BuildInfo b = build_info(in, build);
    std::vector<std::string> facts;
    if (!b.version.empty() && b.version != b.label)
        facts.push_back("version " + b.version);
    if (!b.commit.empty())
        facts.push_back("commit " + short_commit(b.commit));
    std::string line = b.label + (facts.empty() ? "" : " (" + join(facts, ", ") + ")");
    return b.subject.empty() ? line : line + ": " + b.subject;
}

std::string change_text(const std::optional<EndpointRatio>& r) {
    if (!r)
        return "-";
    auto pct = [](double ratio) {
        double p = (ratio - 1) * 100;
        return (p > 0 ? "+" : "") + format_fixed(p, 1) + "%";
    };
    return pct(r->ratio) + " (" + pct(r->ci.lo) + " to " + pct(r->ci.hi) + ")";
}

std::string threshold_text(const BisectState& s) {
    return format_exact(std::round(s.threshold * 1000) / 10) + "%";
}

std::vector<int> range_builds(const BisectState& s) {
    std::vector<int> out;
    for (int b = s.last_good + 1; b <= s.first_bad; ++b)
        out.push_back(b);
    return out;
}

std::vector<BuildFigures> build_figures(const BisectReportInput& in) {
    const BisectState& s = state_of(in);
    std::vector<BuildFigures> out;
    for (int b = 0; b < static_cast<int>(s.builds.size()); ++b)
        out.push_back(figures_of(s, b, in.seed));
    return out;
}

std::string bisect_headline(const BisectReportInput& in) {
    const BisectState& s = state_of(in);
    int bad = static_cast<int>(s.builds.size()) - 1;
    switch (s.outcome) {
    case BisectOutcome::culprit:
        return "Culprit: " + label_of(in, s.first_bad) + " is the first bad build; " +
               label_of(in, s.last_good) + " is the last good one";
    case BisectOutcome::no_regression:
        return "No regression between good (" + label_of(in, 0) + ") and bad (" +
               label_of(in, bad) + ")";
    case BisectOutcome::undecided:
        return undecided_headline(in);
    case BisectOutcome::not_confirmed:
        return "Not confirmed: no culprit named; the direct A/B of " + label_of(in, s.last_good) +
               " and " + label_of(in, s.first_bad) + " did not confirm the regression";
    case BisectOutcome::running:
        break;
    }
    return "Running: the regression is " + range_text(in);
}

} // namespace bootbench::core
