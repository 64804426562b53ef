#include "core/report/report_reproduce.hpp"
#include "core/base/text.hpp"

#include "core/report/render_text.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace bootbench::core {

namespace {

size_t fresh_n(const MetricReport& m, const std::string& target) {
    const MetricTarget* t = m.find(target);
    return t ? t->summary.n : 0;
}

// Why the fresh results cannot judge the published ratio; "" when they can.
std::string cannot_judge(const ReproduceRow& row, const Report& fresh, const MetricReport& m) {
    if (!row.fresh)
        return "the fresh results do not compare this metric";
    if (fresh_n(m, fresh.baseline) < 2 || fresh_n(m, fresh.subject) < 2)
        return "fewer than 2 fresh runs of a target";
    if (!row.fresh->no_interval.empty())
        return "the fresh results have no interval: " + row.fresh->no_interval;
    return "";
}

void judge(ReproduceRow& row, const Report& fresh, const MetricReport& m) {
    row.why = cannot_judge(row, fresh, m);
    if (!row.why.empty())
        return;
    double p = row.published_ratio, lo = row.fresh->ci.lo, hi = row.fresh->ci.hi;
    std::string ci = format_ratio(lo) + " - " + format_ratio(hi);
    if (p < lo || p > hi) {
        row.verdict = Reproduction::not_reproduced;
        row.why = "published " + format_ratio(p) + " is outside the fresh interval " + ci;
    } else if ((lo > 1 && p > 1) || (hi < 1 && p < 1)) {
        row.verdict = Reproduction::reproduced;
        row.why = "published " + format_ratio(p) + " is inside " + ci + ", same direction";
    } else {
        row.why = "the fresh interval " + ci + " includes 1.00x: more runs needed";
    }
}

// Runs of another experiment judge nothing, a hit no more than a miss: every
// row is "not comparable", with what differs and what the numbers alone say.
void not_comparable(ReproduceRow& row, const std::string& differences) {
    row.verdict = Reproduction::not_comparable;
    row.why = "not comparable: " + differences + " (" + row.why + ")";
}

void differ(std::vector<std::string>& out, const std::string& what, const std::string& a, const std::string& b) {
    if (!a.empty() && !b.empty() && a != b)
        out.push_back(what + ": published " + a + "; fresh " + b);
}

std::string kernels(const Report& r, const std::string& target) {
    const TargetReport* t = r.find_target(target);
    return t ? join(t->kernels, "; ") : "";
}

// A command's parameters: its words, an option and its separate value
// ("-l 1000") kept together so that a changed value names its option.
bool is_bare_option(const std::string& word) {
    return word[0] == '-' && word.find_first_of(" =") == std::string::npos;
}

std::vector<std::string> parameters(const std::string& command) {
    std::istringstream in(command);
    std::vector<std::string> out;
    for (std::string word; in >> word;)
        if (!out.empty() && word[0] != '-' && is_bare_option(out.back()))
            out.back() += " " + word;
        else
            out.push_back(word);
    return out;
}

// The parameters of `a` that `b` does not have, in a's order.
std::string only_in(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::string> out;
    for (const auto& p : a)
        if (std::find(b.begin(), b.end(), p) == b.end())
            out.push_back(p);
    return join(out, " ");
}

// bench name -> the commands that the baseline's and the subject's runs ran.
std::map<std::string, std::vector<std::string>> commands(const Report& r) {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto* name : {&r.baseline, &r.subject})
        if (const TargetReport* t = r.find_target(*name))
            for (const auto& [bench, list] : t->commands)
                for (const auto& c : list)
                    if (std::find(out[bench].begin(), out[bench].end(), c) == out[bench].end())
                        out[bench].push_back(c);
    return out;
}

void differ_benches(std::vector<std::string>& out, const Report& published, const Report& fresh) {
    auto fresh_commands = commands(fresh);
    for (const auto& [bench, list] : commands(published)) {
        auto f = fresh_commands.find(bench);
        if (f == fresh_commands.end() || f->second == list)
            continue;
        out.push_back("bench " + bench + ": " +
                      parameter_difference("published", join(list, " / "), "fresh", join(f->second, " / ")));
    }
}

std::string pad(std::string s, size_t width) {
    if (s.size() < width)
        s.resize(width, ' ');
    return s + "  ";
}

} // namespace

std::string parameter_difference(const std::string& a_name, const std::string& a_command,
                                 const std::string& b_name, const std::string& b_command) {
    auto p = parameters(a_command), f = parameters(b_command);
    std::string a = only_in(p, f), b = only_in(f, p);
    if (a.empty() && b.empty())
        return a_name + " " + a_command + "; " + b_name + " " + b_command;
    return a_name + " " + (a.empty() ? "(none)" : a) + "; " + b_name + " " + (b.empty() ? "(none)" : b);
}

std::vector<std::string> environment_differences(const Report& published, const Report& fresh) {
    std::vector<std::string> out;
    if (!fresh.caption.provenance_tag.empty())
        out.push_back("the fresh runs are a " + fresh.caption.provenance_tag);
    if (!published.caption.provenance_tag.empty())
        out.push_back("the published runs are a " + published.caption.provenance_tag);
    differ(out, "CPU", published.caption.machine, fresh.caption.machine);
    differ(out, "kernel of " + fresh.baseline, kernels(published, published.baseline), kernels(fresh, fresh.baseline));
    differ(out, "kernel of " + fresh.subject, kernels(published, published.subject), kernels(fresh, fresh.subject));
    differ_benches(out, published, fresh);
    return out;
}

std::vector<ReproduceRow> compare_reproduction(const Report& published, const Report& fresh) {
    std::string differences = join(environment_differences(published, fresh), "; ");
    std::vector<ReproduceRow> rows;
    for (const auto& pm : published.metrics) {
        if (!pm.comparison)
            continue;
        ReproduceRow row{pm.key,
                         pm.unit,
                         pm.better,
                         pm.comparison->ratio,
                         std::nullopt,
                         Reproduction::inconclusive,
                         ""};
        const MetricReport* fm = nullptr;
        for (const auto& m : fresh.metrics)
            if (m.key == pm.key)
                fm = &m;
        if (fm)
            row.fresh = fm->comparison;
        judge(row, fresh, fm ? *fm : pm);
        if (!differences.empty())
            not_comparable(row, differences);
        rows.push_back(row);
    }
    return rows;
}

const char* to_string(Reproduction r) { return name_of(kReproductionNames, r); }

std::string render_reproduction(const std::vector<ReproduceRow>& rows) {
    std::ostringstream o;
    o << pad("metric", 24) << pad("published", 9) << pad("fresh", 7) << pad("fresh 95% CI", 15)
      << pad("verdict", 14) << "why\n";
    for (const auto& r : rows) {
        std::string fresh = r.fresh ? format_ratio(r.fresh->ratio) : "-";
        bool interval = r.fresh && r.fresh->no_interval.empty();
        std::string ci = interval ? format_ratio(r.fresh->ci.lo) + " - " + format_ratio(r.fresh->ci.hi) : "-";
        o << pad(ascii_safe(r.key), 24) << pad(format_ratio(r.published_ratio), 9) << pad(fresh, 7)
          << pad(ci, 15) << pad(to_string(r.verdict), 14) << r.why << "\n";
    }
    return o.str();
}

} // namespace bootbench::core
