#include "core/render_json.hpp"

#include <cmath>

namespace bootbench::core {

namespace {

using nlohmann::json;

// JSON has no NaN or infinity: a number that is not finite is null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json targets_json(const Report& report) {
    json out = json::array();
    for (const auto& t : report.targets) {
        json excluded = json::array(), failed = json::array();
        for (const auto& e : t.excluded)
            excluded.push_back({{"run", e.run}, {"reason", e.reason}});
        for (const auto& f : t.failed)
            failed.push_back({{"run", f.run}, {"failure", f.failure}});
        out.push_back({{"name", t.name}, {"runs", t.runs}, {"excluded", excluded}, {"failed", failed}});
    }
    return out;
}

json metric_target_json(const MetricTarget& t) {
    json values = json::array(), runs = json::array();
    for (const auto& s : t.samples) {
        values.push_back(number(s.value));
        runs.push_back(s.run);
    }
    const Summary& s = t.summary;
    if (s.n == 0)
        return {{"n", 0}, {"median", nullptr}, {"min", nullptr}, {"max", nullptr},
                {"spread_pct", nullptr}, {"values", values}, {"runs", runs}};
    return {{"n", s.n},           {"median", number(s.median)},
            {"min", number(s.min)}, {"max", number(s.max)},
            {"spread_pct", number(s.spread_pct)}, {"values", values}, {"runs", runs}};
}

json metric_json(const MetricReport& m) {
    json targets = json::object();
    for (const auto& t : m.targets)
        targets[t.target] = metric_target_json(t);
    json j = {{"key", m.key}, {"label", m.label}, {"unit", m.unit},
              {"better", to_string(m.better)}, {"targets", targets}};
    if (!m.comparison) {
        j["ratio"] = j["ci"] = j["p_value"] = j["verdict"] = nullptr;
        return j;
    }
    const Comparison& c = *m.comparison;
    j["ratio"] = number(c.ratio);
    j["ci"] = {number(c.ci.lo), number(c.ci.hi)};
    j["p_value"] = number(c.test.p_value);
    j["p_method"] = c.test.method == PValueMethod::exact ? "exact" : "normal";
    j["verdict"] = to_string(c.verdict);
    return j;
}

} // namespace

nlohmann::json report_to_json(const Report& report) {
    json metrics = json::array(), outliers = json::array();
    for (const auto& m : report.metrics)
        metrics.push_back(metric_json(m));
    for (const auto& o : report.outliers)
        outliers.push_back({{"run", o.run}, {"target", o.target}, {"metric", o.metric},
                            {"value", number(o.value)}, {"z", number(o.z)}});
    const Caption& c = report.caption;
    return {{"schema", kReportSchema},
            {"title", report.title},
            {"baseline", report.baseline},
            {"subject", report.subject},
            {"caption", {{"machine", c.machine}, {"dates", c.dates}, {"conditions", c.conditions}}},
            {"alpha", kAlpha},
            {"targets", targets_json(report)},
            {"metrics", metrics},
            {"outliers", outliers},
            {"warnings", report.warnings}};
}

std::string render_json(const Report& report) { return report_to_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"; }

} // namespace bootbench::core
