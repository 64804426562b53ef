#include "cli/report_summary.hpp"

#include "core/report/noise_floor.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_text.hpp"
#include "core/report/render_variance.hpp"

#include <algorithm>
#include <map>
#include <iostream>

namespace bootbench::cli {

namespace {

std::string pad(std::string s, size_t width) {
    s.resize(std::max(s.size(), width), ' ');
    return s;
}

std::string reason_of(const core::MetricReport& m) {
    std::string why = core::same_reason(*m.comparison);
    return why.empty() ? "" : "; " + why;
}

// One line per flagged run, its metrics in the report's order.
void print_flagged(const core::Report& r) {
    std::vector<std::string> runs;
    std::map<std::string, std::string> metrics;
    for (size_t i = 0; i < r.outliers.size() && i < core::kMaxOutliersListed; ++i) {
        const core::Outlier& o = r.outliers[i];
        if (!metrics.contains(o.run))
            runs.push_back(o.run);
        std::string& said = metrics[o.run];
        said += (said.empty() ? "" : ", ") + o.metric + " (" + core::format_value(o.value) + ", " +
                core::outlier_distance(o) + ")";
    }
    for (const auto& run : runs)
        std::cout << "flagged " << run << " on " << metrics[run] << ": kept; leave it out with --exclude " << run
                  << "\n";
}

} // namespace

void print_report_summary(const core::Report& r) {
    for (const auto& t : r.targets)
        for (const auto& e : t.excluded)
            std::cout << "excluded " << e.run << ": " << e.reason << "\n";
    print_flagged(r);
    if (r.outliers.size() > core::kMaxOutliersListed)
        std::cout << "flagged " << r.outliers.size() - core::kMaxOutliersListed
                  << " more run/metric pairs (report.json lists them all)\n";
    for (const auto& t : r.targets)
        for (const auto& f : t.failed)
            std::cout << "failed " << f.run << ": " << f.failure << "\n";
    for (const auto& w : r.warnings)
        std::cout << "warning: " << w << "\n";
    if (!r.caption.provenance.empty())
        std::cout << "not a measurement of the targets: " << r.caption.provenance << "\n";
    if (!r.stopped.empty())
        std::cout << "stopped: " << r.stopped << "\n";
    std::cout << "\n" << r.subject << " vs " << r.baseline << " (baseline):\n";
    for (const auto& m : r.metrics) {
        std::cout << "  " << pad(m.key, 24) << "  "
                  << (m.comparison ? pad(core::verdict_mark(m), 6) + "  " +
                                         core::describe_ratio(m, r.subject, r.baseline) + "; " +
                                         core::interval_text(m) + reason_of(m)
                                   : core::not_compared(m, r.subject, r.baseline))
                  << "\n";
    }
    if (auto floor = core::noise_floor(r))
        std::cout << "\n" << core::noise_floor_sentence(*floor) << "\n";
    std::vector<std::string> lines = core::variance_lines(r);
    if (!lines.empty())
        std::cout << "\niterations inside a boot:\n";
    for (const auto& l : lines)
        std::cout << "  " << l << "\n";
    if (!lines.empty())
        std::cout << "  " << core::variance_costs_line(r) << "\n";
}


} // namespace bootbench::cli
