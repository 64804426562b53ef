#include "core/report/render_variance.hpp"

#include "core/state/estimate.hpp"
#include "core/report/render_text.hpp"
#include "core/base/text.hpp"

#include <cmath>

namespace bootbench::core {

namespace {

std::string percent(double share) {
    return format_fixed(share * 100, 1) + "%";
}

std::string shares(const VarianceSplit& v) {
    if (!std::isfinite(v.t1_sq) || !std::isfinite(v.t2_sq))
        return "no variance split (the variances are not finite numbers: the values are too large)";
    if (std::isnan(v.within_share))
        return "no variance within or between boots (every value is the same)";
    return "within a boot " + percent(v.within_share) + ", between boots " + percent(v.between_share) +
           " of the variance";
}

std::string advice_text(const TargetVariance& t) {
    if (!t.advice)
        return "no advice: the mean is not above 0";
    const Advice& a = *t.advice;
    std::string boots = (a.capped ? "more than " : "about ") + std::to_string(a.boots) + " boots";
    std::string why = a.iterations_from_costs
                          ? ""
                          : t.split.between_detectable() ? " (repeat kept: the costs are unknown)"
                                                         : " (repeat kept as in these runs)";
    return "for the ratio's 95% CI within +-" + format_fixed(kAdviceHalfWidth * 100, 0) + "%: " + boots + " x " +
           count_of(a.iterations, "iteration") + " per target" + why;
}

std::string undetectable(const VarianceSplit& v) {
    return v.between_detectable() || !std::isfinite(v.t1_sq) || !std::isfinite(v.t2_sq)
               ? ""
               : "; between-boot variance not detectable (T2^2 = S2^2 - S1^2/n1 <= 0: the boot means "
                 "scatter no more than their iterations explain), so the costs cannot size repeat";
}

std::string iterations_text(double n1) {
    return std::fabs(n1 - std::round(n1)) < 1e-9 ? std::to_string(std::lround(n1)) : format_fixed(n1, 1);
}


} // namespace

std::vector<std::string> variance_lines(const Report& report) {
    std::vector<std::string> out;
    for (const auto& m : report.metrics)
        for (const auto& t : m.variance)
            out.push_back(m.key + " on " + t.target + " (" + std::to_string(t.split.boots) + " boots x " +
                          iterations_text(t.split.iterations) + " iterations): " + shares(t.split) +
                          undetectable(t.split) + "; " + advice_text(t));
    return out;
}

std::string variance_costs_line(const Report& report) {
    std::string iter;
    for (const auto& m : report.metrics)
        if (!m.variance.empty())
            iter += (iter.empty() ? "" : ", ") + m.key + " " +
                    (m.iteration_s > 0 ? format_value(m.iteration_s) + " s" : "unknown");
    const BootCost& b = report.boot_cost;
    std::string boot = format_value(b.seconds) + " s " +
                       (b.measured ? "(measured: the median time from one run's start to the next, "
                                     "minus the first one's benches)"
                                   : "(the estimate's " + std::to_string(std::lround(kAssumedBootSeconds)) +
                                         " s boot + " + std::to_string(b.settle_s) +
                                         " s settle: the runs' times could not measure it)");
    return "Costs used: a boot " + boot + "; one iteration (measured wall time): " + iter + ".";
}

std::string variance_method_text() {
    return "Kalibera and Jones (ISMM 2013): S1^2 is the variance of the iterations inside a boot, "
           "S2^2 that of the boot means; T1^2 = S1^2, T2^2 = S2^2 - S1^2/n1. The advice takes "
           "R = ceil(sqrt(c_boot/c_iter x T1^2/T2^2)) iterations per boot and sizes the interval the report "
           "gives, that of the ratio of two targets' medians: the smallest B boots per target with "
           "B >= (t(0.975, B-1) / 0.02)^2 x pi/2 x (w + w'), w = (T2^2 + pi x T1^2/R) / mean^2 of each "
           "target (T1^2 counted once, not x pi, when R = 1). Tests and intervals between "
           "targets use one value per boot (the median of its iterations); the interval is a "
           "two-level bootstrap (boots, then iterations inside each).";
}

nlohmann::json variance_json(const MetricReport& m) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& t : m.variance) {
        const VarianceSplit& v = t.split;
        nlohmann::json j = {{"target", t.target}, {"boots", v.boots}, {"iterations", v.iterations},
                            {"mean", v.mean}, {"s1_sq", v.s1_sq}, {"s2_sq", v.s2_sq},
                            {"t1_sq", v.t1_sq}, {"t2_sq", v.t2_sq}, {"within_share", v.within_share},
                            {"between_share", v.between_share},
                            {"between_detectable", v.between_detectable()}, {"advice", nullptr}};
        if (t.advice)
            j["advice"] = {{"half_width", kAdviceHalfWidth}, {"boots", t.advice->boots},
                           {"iterations", t.advice->iterations},
                           {"iterations_from_costs", t.advice->iterations_from_costs},
                           {"capped", t.advice->capped}};
        out.push_back(j);
    }
    return out;
}

nlohmann::json boot_cost_json(const BootCost& c) {
    return {{"seconds", c.seconds}, {"from", c.measured ? "measured" : "estimate"}};
}

} // namespace bootbench::core
