#include "core/report/render_markdown.hpp"

#include "core/report/noise_floor.hpp"
#include "core/report/render_text.hpp"
#include "core/report/render_counters.hpp"
#include "core/report/render_explain.hpp"
#include "core/report/render_variance.hpp"

#include <map>
#include <sstream>

namespace bootbench::core {

namespace {

std::string direction(Better b) {
    return std::string(to_string(b)) + " is better";
}

std::string median_cell(const MetricTarget& t) {
    if (t.summary.n == 0)
        return "-";
    return format_value(t.summary.median) + " (n=" + std::to_string(t.summary.n) + ")";
}

void comparison_table(std::ostringstream& o, const Report& r) {
    o << "| metric |";
    for (const auto& t : r.targets)
        o << " " << md_escape(t.name) << (t.name == r.baseline ? " (baseline)" : "") << " |";
    o << " " << md_escape(r.subject) << " vs " << md_escape(r.baseline)
      << " | interval | p (Holm) | verdict |\n|---|";
    for (size_t i = 0; i < r.targets.size(); ++i)
        o << "---:|";
    o << "---|---|---:|---|\n";
    for (const auto& m : r.metrics) {
        o << "| " << md_escape(m.label) << ", " << md_escape(m.unit) << ", " << direction(m.better)
          << " |";
        for (const auto& t : m.targets)
            o << " " << median_cell(t) << " |";
        if (!m.comparison) {
            o << " " << md_escape(not_compared(m, r.subject, r.baseline)) << " | | | n/a |\n";
            continue;
        }
        const Comparison& c = *m.comparison;
        o << " " << describe_ratio(m, r.subject, r.baseline) << " | " << md_escape(interval_text(m))
          << " | " << format_p(c.p_adjusted) << " | " << verdict_mark(m) << " |\n";
    }
}

void spread_table(std::ostringstream& o, const Report& r) {
    o << "\n## Per target\n\n| metric | target | n | median | min | max | spread |\n"
         "|---|---|---:|---:|---:|---:|---:|\n";
    for (const auto& m : r.metrics)
        for (const auto& t : m.targets) {
            const Summary& s = t.summary;
            o << "| `" << ascii_safe(m.key) << "` | " << md_escape(t.target) << " | " << s.n
              << " | ";
            if (s.n == 0) {
                o << "- | - | - | - |\n";
                continue;
            }
            o << format_value(s.median) << " | " << format_value(s.min) << " | "
              << format_value(s.max) << " | " << format_fixed(s.spread_pct, 1) << "% |\n";
        }
}

void variance_section(std::ostringstream& o, const Report& r) {
    std::vector<std::string> lines = variance_lines(r);
    if (lines.empty())
        return;
    o << "\n## Iterations inside a boot\n\n";
    for (const auto& l : lines)
        o << "- " << md_escape(l) << "\n";
    o << "\n" << md_escape(variance_costs_line(r)) << "\n\n" << md_escape(variance_method_text()) << "\n";
}

void arms_section(std::ostringstream& o, const Report& r) {
    const ArmsSection& a = r.arms;
    if (a.empty())
        return;
    o << "\n## What differs between the arms\n\n" << md_escape(arms_intro_text()) << "\n";
    if (!a.rows.empty()) {
        o << "\n| what |";
        for (const auto& t : a.targets)
            o << " " << md_escape(t) << (t == r.baseline ? " (baseline)" : "") << " |";
        o << "\n|---|";
        for (size_t i = 0; i < a.targets.size(); ++i)
            o << "---|";
        o << "\n";
    }
    for (const ArmRow& row : a.rows) {
        o << "| " << md_escape(row_label(row)) << " |";
        for (const ArmCell& c : row.cells)
            o << " " << md_escape(cell_text(c)) << " |";
        o << "\n";
    }
    if (!a.packages.empty() || !a.notes.empty())
        o << "\n";
    for (const ArmPackages& p : a.packages)
        o << "- " << md_escape(packages_line(p)) << "\n";
    for (const std::string& n : a.notes)
        o << "- " << md_escape(n) << "\n";
}

void runs_table(std::ostringstream& o, const Report& r) {
    o << "\n## Every run\n\n";
    if (r.metrics.empty())
        return;
    size_t total = 0;
    for (const auto& t : r.targets)
        total += t.runs.size();
    if (total > kMaxRunsListed) {
        o << total
          << " runs: every run's values are in report.json (the chart shows their spread).\n";
        return;
    }
    std::map<std::pair<std::string, std::string>, double> value; // (run, metric)
    for (const auto& m : r.metrics)
        for (const auto& t : m.targets)
            for (const auto& s : t.samples)
                value[{s.run, m.key}] = s.value;
    std::set<std::pair<std::string, std::string>> flagged;
    for (const auto& x : r.outliers)
        flagged.insert({x.run, x.metric});
    o << "Values marked (!) are flagged as outliers."
      << (r.canaries.empty() ? "" : " Runs marked (~) had a noise canary (see the warnings).")
      << "\n\n| run |";
    for (const auto& m : r.metrics)
        o << " `" << ascii_safe(m.key) << "` |";
    o << "\n|---|";
    for (size_t i = 0; i < r.metrics.size(); ++i)
        o << "---:|";
    o << "\n";
    for (const auto& t : r.targets)
        for (const auto& run : t.runs) {
            o << "| " << md_escape(run) << (r.find_canary(run) ? " (~)" : "") << " |";
            for (const auto& m : r.metrics) {
                auto it = value.find({run, m.key});
                o << " " << (it == value.end() ? "-" : format_exact(it->second))
                  << (flagged.count({run, m.key}) ? " (!)" : "") << " |";
            }
            o << "\n";
        }
}

void lists(std::ostringstream& o, const Report& r) {
    if (!r.outliers.empty()) {
        o << "\n## Outliers\n\n" << kOutlierRule << "\n\n";
        for (size_t i = 0; i < r.outliers.size() && i < kMaxOutliersListed; ++i) {
            const Outlier& x = r.outliers[i];
            o << "- " << md_escape(x.run) << " on `" << ascii_safe(x.metric)
              << "`: " << format_value(x.value) << ", " << outlier_distance(x) << "\n";
        }
        if (r.outliers.size() > kMaxOutliersListed)
            o << "- and " << r.outliers.size() - kMaxOutliersListed
              << " more (report.json lists them all)\n";
    }
    bool any_excluded = false, any_failed = false;
    for (const auto& t : r.targets) {
        any_excluded |= !t.excluded.empty();
        any_failed |= !t.failed.empty();
    }
    if (any_excluded) {
        o << "\n## Excluded runs\n\n";
        for (const auto& t : r.targets)
            for (const auto& e : t.excluded)
                o << "- " << md_escape(e.run) << " (" << md_escape(t.name)
                  << "): " << md_escape(e.reason) << "\n";
    }
    if (any_failed) {
        o << "\n## Failed runs\n\n";
        for (const auto& t : r.targets)
            for (const auto& f : t.failed)
                o << "- " << md_escape(f.run) << " (" << md_escape(t.name)
                  << "): " << md_escape(f.failure) << "\n";
    }
}

} // namespace

std::string caption_line(const Report& r) {
    std::string s;
    for (const std::string* part : {&r.caption.machine, &r.caption.dates, &r.caption.conditions})
        if (!part->empty())
            s += (s.empty() ? "" : "; ") + ascii_safe(*part);
    return s;
}

std::string runs_per_target(const Report& r) {
    std::string s;
    for (const auto& t : r.targets) {
        s += (s.empty() ? "" : ", ") + ascii_safe(t.name) + " " + std::to_string(t.runs.size());
        if (t.name == r.baseline)
            s += " (baseline)";
        if (!t.excluded.empty())
            s += " (+" + std::to_string(t.excluded.size()) + " excluded)";
        if (!t.failed.empty())
            s += " (+" + std::to_string(t.failed.size()) + " failed)";
    }
    return s;
}

std::string method_text() {
    return "Ratios compare medians. The 95% interval is a seeded percentile bootstrap of the "
           "ratio (2000 resamples), given from 6 runs per target; with fewer it would be far "
           "too narrow, so the range of the ratios of single runs is given instead. p is a "
           "two-sided Mann-Whitney test (exact up to 60 runs), adjusted with Holm's method over "
           "all the metrics compared (report.json keeps both). A verdict is better or worse "
           "only when the adjusted p < 0.05 and the interval, where there is one, excludes "
           "1.00x; otherwise it is ~ (no real difference shown).";
}

namespace {

// The title, what the runs are not (sandbox, --quick), where and when they
// were taken, and what each target booted.
void header(std::ostringstream& o, const Report& r) {
    o << "# " << md_escape(r.title) << "\n\n";
    if (!r.incomplete.empty())
        o << "> **Incomplete: " << md_escape(r.incomplete) << ".** " << kIncompleteText << "\n\n";
    if (!r.caption.provenance.empty())
        o << "> **Not a measurement of the targets.** " << md_escape(r.caption.provenance) << "\n\n";
    if (auto floor = noise_floor(r))
        o << "> " << md_escape(noise_floor_sentence(*floor)) << "\n\n";
    std::string caption = caption_line(r);
    o << "*" << (caption.empty() ? "" : md_escape(caption) + ". ")
      << "Runs per target: " << md_escape(runs_per_target(r)) << ".*\n";
    if (!r.stopped.empty())
        o << "\n*Stopped: " << md_escape(r.stopped) << ".*\n";
    if (std::string systems = systems_line(r); !systems.empty())
        o << "\n*Booted: " << md_escape(systems) << ".*\n";
    if (std::string images = images_line(r); !images.empty())
        o << "\n*Images: " << md_escape(images) << ".*\n";
    if (std::string layered = layered_line(r); !layered.empty())
        o << "\n*Layered on the image by rpm-ostree (measured with it): " << md_escape(layered) << ".*\n";
}

} // namespace

std::string render_markdown(const Report& r, const std::string& svg_link) {
    std::ostringstream o;
    header(o, r);
    if (!r.warnings.empty()) {
        o << "\n## Warnings\n\n";
        for (const auto& w : r.warnings)
            o << "- " << md_escape(w) << "\n";
    }
    o << "\n![Relative performance of " << md_escape(r.subject) << " against "
      << md_escape(r.baseline) << " (baseline = 1.00x, higher is better)](" << svg_link << ")\n\n";
    comparison_table(o, r);
    o << "\n" << method_text() << "\n";
    spread_table(o, r);
    variance_section(o, r);
    arms_section(o, r);
    o << counters_markdown(r);
    o << explanations_markdown(r);
    runs_table(o, r);
    lists(o, r);
    return o.str();
}

} // namespace bootbench::core
