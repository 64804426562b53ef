#include "core/report/render_json.hpp"

#include "core/report/render_markdown.hpp"
#include "core/report/render_text.hpp"
#include "core/report/render_counters.hpp"
#include "core/report/render_explain.hpp"
#include "core/report/render_variance.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::core {

namespace {

using nlohmann::json;

// JSON has no NaN or infinity: a number that is not finite is null.
json number(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

json targets_json(const Report& report) {
    json out = json::array();
    for (const auto& t : report.targets) {
        json excluded = json::array(), failed = json::array();
        for (const auto& e : t.excluded)
            excluded.push_back({{"run", e.run}, {"reason", e.reason}});
        for (const auto& f : t.failed)
            failed.push_back({{"run", f.run}, {"failure", f.failure}});
        json target = {{"name", t.name}, {"runs", t.runs}, {"excluded", excluded}, {"failed", failed},
                       {"images", t.images}, {"kernels", t.kernels}, {"deployments", t.deployments}};
        if (!t.layered.empty()) // absent for results from before layering was recorded
            target["layered"] = t.layered;
        out.push_back(target);
    }
    return out;
}

json summary_json(const Summary& s, const json& values);

// Each run's iterations beside "values": null for a run without the metric.
json iterations_json(const MetricTarget& t, const TargetReport& target) {
    json out = json::array();
    size_t next = 0;
    for (const auto& run : target.runs) {
        if (next < t.samples.size() && t.samples[next].run == run) {
            const Sample& x = t.samples[next++];
            out.push_back(x.iterations.empty() ? json::array({number(x.value)}) : json(x.iterations));
        } else {
            out.push_back(nullptr);
        }
    }
    return out;
}

// "values" follows the target's "runs", with null for a run without the metric.
json metric_target_json(const MetricTarget& t, const TargetReport& target) {
    json values = json::array();
    size_t next = 0; // samples are in run order and a subset of the runs
    for (const auto& run : target.runs) {
        if (next < t.samples.size() && t.samples[next].run == run)
            values.push_back(number(t.samples[next++].value));
        else
            values.push_back(nullptr);
    }
    json out = summary_json(t.summary, values);
    if (std::any_of(t.samples.begin(), t.samples.end(), [](const Sample& x) { return !x.iterations.empty(); }))
        out["iterations"] = iterations_json(t, target); // only then: older reports stay as they were
    return out;
}

json summary_json(const Summary& s, const json& values) {
    if (s.n == 0)
        return {{"n", 0},         {"median", nullptr},     {"min", nullptr},
                {"max", nullptr}, {"spread_pct", nullptr}, {"values", values}};
    return {{"n", s.n},
            {"median", number(s.median)},
            {"min", number(s.min)},
            {"max", number(s.max)},
            {"spread_pct", number(s.spread_pct)},
            {"values", values}};
}

json metric_json(const Report& r, const MetricReport& m) {
    json targets = json::object();
    for (const auto& t : m.targets)
        targets[t.target] = metric_target_json(t, *r.find_target(t.target));
    json j = {{"key", m.key},
              {"label", m.label},
              {"unit", m.unit},
              {"better", to_string(m.better)},
              {"targets", targets}};
    if (!m.variance.empty()) // only then: reports without repeat stay as they were
        j["variance"] = variance_json(m), j["iteration_s"] = number(m.iteration_s);
    if (!m.comparison) {
        j["ratio"] = j["ci"] = j["p_value"] = j["verdict"] = nullptr;
        return j;
    }
    const Comparison& c = *m.comparison;
    j["ratio"] = number(c.ratio);
    j["ci"] = {number(c.ci.lo), number(c.ci.hi)};
    if (!c.no_interval.empty())
        j["ci"] = nullptr, j["no_ci"] = c.no_interval; // why, beside the null
    j["run_ratio_range"] = {number(c.run_range.lo), number(c.run_range.hi)};
    if (std::isnan(c.run_range.lo))
        j["run_ratio_range"] = nullptr;
    j["interval_text"] = interval_text(m);
    j["p_value"] = number(c.test.p_value);
    j["p_holm"] = number(c.p_adjusted);
    j["p_method"] = name_of(kPValueMethodNames, c.test.method);
    j["verdict"] = to_string(c.verdict);
    return j;
}

} // namespace

nlohmann::json report_to_json(const Report& report) {
    json metrics = json::array(), outliers = json::array();
    for (const auto& m : report.metrics)
        metrics.push_back(metric_json(report, m));
    for (const auto& o : report.outliers)
        outliers.push_back({{"run", o.run},
                            {"target", o.target},
                            {"metric", o.metric},
                            {"value", number(o.value)},
                            {"rest_median", number(o.rest_median)}});
    const Caption& c = report.caption;
    json out = {{"schema", kReportSchema},
            {"title", report.title},
            {"baseline", report.baseline},
            {"subject", report.subject},
            {"caption",
             {{"machine", c.machine}, {"dates", c.dates}, {"conditions", c.conditions}, {"provenance", c.provenance}}},
            {"alpha", kAlpha},
            {"targets", targets_json(report)},
            {"metrics", metrics},
            {"outliers", outliers},
            {"warnings", report.warnings}};
    for (const auto& m : report.metrics)
        if (!m.variance.empty())
            out["boot_cost"] = boot_cost_json(report.boot_cost);
    if (!report.stopped.empty()) // adaptive experiments only: other reports stay as they were
        out["stopped"] = report.stopped;
    if (!report.counters.empty()) // `counters` only: other reports stay as they were
        out["counters"] = counters_json(report);
    if (!report.incomplete.empty()) // aborted experiments only
        out["incomplete"] = report.incomplete;
    if (!report.arms.empty()) // results with arms.json or live values only: others stay as they were
        out["arms"] = arms_json(report.arms);
    if (!report.explanations.empty()) // with "arms" only: others stay as they were
        out["explanations"] = explanations_json(report);
    // Only when there is one: reports of results without canaries stay as they were.
    for (const auto& x : report.canaries)
        out["canaries"].push_back({{"run", x.run}, {"target", x.target}, {"text", x.text}});
    return out;
}

std::string render_json(const Report& report) {
    size_t runs = 0;
    for (const auto& t : report.targets)
        runs += t.runs.size();
    // Indented for people while it is short enough to read, compact beyond.
    int indent = runs <= kMaxRunsListed ? 2 : -1;
    return json_text(report_to_json(report), indent) + "\n";
}

} // namespace bootbench::core
