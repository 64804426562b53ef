// "What changed between the last good and the first bad build": the builds
// in between, kernel, command line, packages, units and sysctl, from the
// two deployments' tree diff (core/deployment/tree_diff).
#include "core/base/text.hpp"
#include "core/bisect/bisect_report_parts.hpp"

#include <algorithm>
#include <sstream>

namespace bootbench::core {

namespace {

using Kind = ReportBlock::Kind;

std::string changes_title(const BisectState& s) {
    if (s.outcome == BisectOutcome::culprit)
        return "What changed between the last good and the first bad build";
    if (s.outcome == BisectOutcome::no_regression)
        return "What changed between good and bad";
    return "What changed in the range left";
}

ReportBlock builds_table(const BisectReportInput& in) {
    ReportBlock t = report_block(Kind::table, "");
    t.rows.push_back({"build", "version", "commit", "date", "subject"});
    for (int b : range_builds(state_of(in))) {
        BuildInfo i = build_info(in, b);
        t.rows.push_back({i.label, i.version, short_commit(i.commit), i.timestamp, i.subject});
    }
    return t;
}

std::string change_item(const FactChange& c) {
    if (c.before.empty())
        return c.name + " added (" + c.after + ")";
    if (c.after.empty())
        return c.name + " removed (" + c.before + ")";
    return c.name + ": " + c.before + " -> " + c.after;
}

std::vector<std::string> category_items(const CategoryDiff& d) {
    std::vector<std::string> out;
    for (const auto* list : {&d.changed, &d.added, &d.removed})
        for (const FactChange& c : *list)
            out.push_back(change_item(c));
    return out;
}

std::string category_counts(const CategoryDiff& d) {
    if (d.empty())
        return "no change";
    return std::to_string(d.added.size()) + " added, " + std::to_string(d.removed.size()) +
           " removed, " + std::to_string(d.changed.size()) + " changed";
}

// "Kernel: 6.11.4 -> 6.12.1", "Kernel: 6.12.1 (unchanged)"; the newest of each tree.
std::string kernel_line(const TreeDiff& d) {
    const std::string& c = d.config_compared;
    size_t arrow = c.find(" -> ");
    if (arrow == std::string::npos)
        return "Kernel: not found in one of the trees; kernels " + category_counts(d.kernels);
    if (c.substr(0, arrow) == c.substr(arrow + 4))
        return "Kernel: " + c.substr(0, arrow) + " (unchanged)";
    return "Kernel: " + c;
}

// The kernels added or removed besides the newest of each tree, which
// kernel_line names.
std::vector<std::string> other_kernels(const TreeDiff& d) {
    std::string compared = " " + d.config_compared + " ";
    std::vector<std::string> out;
    for (const auto* list : {&d.kernels.added, &d.kernels.removed})
        for (const FactChange& k : *list)
            if (compared.find(" " + k.name + " ") == std::string::npos)
                out.push_back("kernel " + k.name +
                              (list == &d.kernels.added ? " added" : " removed"));
    return out;
}

std::vector<ReportBlock> kernel_blocks(const TreeDiff& d) {
    std::vector<std::string> items = other_kernels(d);
    for (const std::string& c : category_items(d.kernel_config))
        items.push_back("config " + c);
    items.insert(items.end(), d.kernel_problems.begin(), d.kernel_problems.end());
    std::vector<ReportBlock> out = {report_block(Kind::paragraph, kernel_line(d))};
    if (!items.empty())
        out.push_back(report_block(Kind::list, "", items));
    return out;
}

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        if (w.rfind("ostree=", 0) != 0) // names the deployment itself: always differs
            out.push_back(w);
    return out;
}

// The options one command line has and the other lacks.
std::string options_only_in(const std::string& line, const std::string& other) {
    std::vector<std::string> theirs = words(other), out;
    for (const std::string& w : words(line))
        if (std::find(theirs.begin(), theirs.end(), w) == theirs.end())
            out.push_back(w);
    return out.empty() ? "none" : join(out, " ");
}

std::vector<ReportBlock> cmdline_blocks(const BisectChanges& c) {
    if (c.cmdline_before.empty() && c.cmdline_after.empty())
        return {report_block(Kind::paragraph, "Command line: not read")};
    if (words(c.cmdline_before) == words(c.cmdline_after))
        return {report_block(Kind::paragraph,
                             "Command line (unchanged but for ostree=): " + c.cmdline_before)};
    return {
        report_block(Kind::paragraph, "Command line:"),
        report_block(Kind::list, "",
                     {"before: " + c.cmdline_before, "after: " + c.cmdline_after,
                      "options added: " + options_only_in(c.cmdline_after, c.cmdline_before),
                      "options removed: " + options_only_in(c.cmdline_before, c.cmdline_after)})};
}

std::vector<ReportBlock> package_blocks(const TreeDiff& d) {
    std::vector<ReportBlock> out = {
        report_block(Kind::paragraph, "Packages: " + package_summary(d, kPackagesNamed))};
    std::vector<std::string> items = category_items(d.packages);
    if (!items.empty())
        out.push_back(report_block(
            Kind::details,
            "All " + count_of(static_cast<long long>(items.size()), "package change"), items));
    return out;
}

std::vector<ReportBlock> category_blocks(const std::string& name, const CategoryDiff& d) {
    std::vector<ReportBlock> out = {
        report_block(Kind::paragraph, name + ": " + category_counts(d))};
    if (!d.empty())
        out.push_back(report_block(Kind::list, "", category_items(d)));
    return out;
}

// The trees' facts; the command lines come from the boot entries, so they
// show when the trees could not be read.
std::vector<ReportBlock> tree_blocks(const BisectChanges& c) {
    if (!c.diff) {
        std::string why = c.problem.empty() ? "not read" : c.problem;
        std::vector<ReportBlock> out = {
            report_block(Kind::paragraph, "Trees not compared: " + why)};
        append_blocks(out, cmdline_blocks(c));
        return out;
    }
    std::vector<ReportBlock> out = kernel_blocks(*c.diff);
    append_blocks(out, cmdline_blocks(c));
    append_blocks(out, package_blocks(*c.diff));
    append_blocks(out, category_blocks("Units enabled", c.diff->units));
    append_blocks(out, category_blocks("sysctl defaults", c.diff->sysctl));
    return out;
}

} // namespace

std::vector<ReportBlock> change_blocks(const BisectReportInput& in) {
    const BisectState& s = state_of(in);
    std::vector<ReportBlock> out = {
        report_block(Kind::heading, changes_title(s)),
        report_block(Kind::paragraph, "The builds after " + build_info(in, s.last_good).label +
                                          " up to " + build_info(in, s.first_bad).label + ":"),
        builds_table(in)};
    append_blocks(out, tree_blocks(in.changes));
    return out;
}

} // namespace bootbench::core
