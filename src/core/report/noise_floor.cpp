#include "core/report/noise_floor.hpp"

#include "core/experiment/metric_catalog.hpp"
#include "core/report/render_text.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::core {

namespace {

// A metric a bench printed: not one of the system's after the settle time.
bool from_bench(const MetricReport& m) {
    auto info = find_metric(m.key);
    return !info || info->from == MetricFrom::bench;
}

// How far the interval reaches from 1.00x, as the report words it (1.45x
// slower or 1.45x faster are both 45%).
double reach_percent(const Interval& ci) { return 100 * (std::max(ci.hi, 1 / ci.lo) - 1); }

bool same_system(const Report& r) { return r.caption.provenance_tag.find("sandbox") != std::string::npos; }

// "25%", "4%", "3.5%": whole percents from 10 up; from 100% up as the
// report words a ratio, "6.46x".
std::string percent(double p) {
    if (p >= 100)
        return format_ratio(1 + p / 100);
    std::string s = format_fixed(p, p >= 10 ? 0 : 1);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0)
        s.resize(s.size() - 2);
    return s + "%";
}

} // namespace

std::optional<NoiseFloor> noise_floor(const Report& r) {
    if (!same_system(r))
        return std::nullopt;
    std::optional<NoiseFloor> f;
    for (const auto& m : r.metrics) {
        if (!m.comparison || !m.comparison->no_interval.empty() || !from_bench(m) ||
            std::isnan(m.comparison->ci.lo) || m.comparison->ci.lo <= 0)
            continue;
        double reach = reach_percent(m.comparison->ci);
        if (!f)
            f = NoiseFloor{reach, reach, m.key, m.key};
        if (reach > f->widest_percent)
            f->widest_percent = reach, f->widest = m.key;
        if (reach < f->narrowest_percent)
            f->narrowest_percent = reach, f->narrowest = m.key;
    }
    return f;
}

std::string noise_floor_sentence(const NoiseFloor& f) {
    std::string s = "On this machine, differences below " + percent(f.widest_percent) +
                    " are noise for these benches: in this A/A comparison the widest 95% interval (" +
                    f.widest + ") reaches " + percent(f.widest_percent) + " from 1.00x";
    if (f.narrowest != f.widest)
        s += ", the narrowest (" + f.narrowest + ") " + percent(f.narrowest_percent);
    return s + ".";
}

} // namespace bootbench::core
