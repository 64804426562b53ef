#pragma once
// bisect.md, bisect.svg, bisect.html and bisect.json: what a bisection
// found (the culprit pair, no regression, or the range left when undecided),
// each step with its build's ratio to good's and to bad's runs and their
// bootstrap intervals, a chart of the metric along the history, and what
// changed between the last good and the first bad build. Pure: the caller
// reads the builds' commits and the two trees (sys/) and writes the files.
#include "core/bisect/bisect_state.hpp"
#include "core/deployment/tree_diff.hpp"
#include "core/stats/stats.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// One per BisectState::builds entry, same order (oldest first). An empty
// label is the state's name of the build.
struct BuildInfo {
    std::string label, commit, subject, version, timestamp;
};

// Between the last good and the first bad build.
struct BisectChanges {
    std::optional<TreeDiff> diff; // nullopt: not read (why in `problem`)
    std::string problem;
    std::string cmdline_before, cmdline_after; // BLS options of each deployment
};

struct BisectReportInput {
    std::string experiment; // the experiment name
    const BisectState* state = nullptr;
    std::vector<BuildInfo> builds;
    BisectChanges changes;
    std::uint64_t seed = 1; // bootstrap intervals
};

// A build's runs against one endpoint's (good's or bad's): better_ratio of
// the medians (< 1: the build is worse) and its 95% bootstrap interval.
// Absent when a side has no runs or a median is not above 0.
struct EndpointRatio {
    double ratio = 1;
    Interval ci;
};

// Every figure the four renderings show, computed once.
struct BuildFigures {
    int runs = 0;
    double median = 0;
    std::optional<EndpointRatio> to_good, to_bad;
};
std::vector<BuildFigures> build_figures(const BisectReportInput& in);

// The first line a person reads: the culprit pair, "No regression between
// good and bad", or what is left undecided.
std::string bisect_headline(const BisectReportInput& in);

std::string render_bisect_markdown(const BisectReportInput& in); // bisect.md
std::string render_bisect_svg(const BisectReportInput& in);      // bisect.svg
std::string render_bisect_html(const BisectReportInput& in);     // bisect.html (the SVG inline)
nlohmann::json bisect_report_json(const BisectReportInput& in);  // bisect.json

} // namespace bootbench::core
