#include "sys/bisect_report.hpp"

#include "core/base/error.hpp"
#include "core/base/json_bounds.hpp"
#include "core/bisect/bisect_report.hpp"
#include "core/deployment/tree_diff.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/ostree/tree_reader.hpp"
#include "sys/store/files.hpp"

#include <map>

namespace bootbench::sys {

namespace {

// Every build's subject, version and time, from the ref's history as the
// repository has it now (its metadata was pulled at the start).
std::vector<core::BuildInfo> build_infos(Sysroot& sr, const core::BisectRun& run, std::string& problem) {
    std::map<std::string, core::CommitInfo> by_commit;
    try {
        for (auto& c : sr.history(run.refspec, run.commits.front(), run.commits.back()))
            by_commit[c.checksum] = c;
    } catch (const Error& e) {
        problem = std::string("the commits' subjects could not be read: ") + e.what();
    }
    std::vector<core::BuildInfo> out;
    for (size_t i = 0; i < run.commits.size(); ++i) {
        const core::CommitInfo& c = by_commit[run.commits[i]];
        out.push_back({run.labels[i], run.commits[i], c.subject, c.version, c.timestamp});
    }
    return out;
}

// The deployment the search ran `build` on; nullptr when it was never deployed.
const core::TargetState* deployed(const core::State& s, const core::BisectRun& run, int build) {
    return build < 0 ? nullptr : s.find_target(run.labels.at(static_cast<size_t>(build)));
}

core::BisectChanges read_changes(Sysroot& sr, const core::State& s, const core::BisectRun& run) {
    core::BisectChanges ch;
    const core::TargetState* good = deployed(s, run, run.search.last_good);
    const core::TargetState* bad = deployed(s, run, run.search.first_bad);
    if (!good || !bad) {
        ch.problem = "the last good and the first bad build were not both deployed";
        return ch;
    }
    try {
        ch.diff = core::diff_trees(read_tree_facts(sr.deployment_dir(good->deployment)),
                                   read_tree_facts(sr.deployment_dir(bad->deployment)));
        ch.cmdline_before = sr.kernel_options(good->deployment);
        ch.cmdline_after = sr.kernel_options(bad->deployment);
    } catch (const Error& e) {
        ch.problem = std::string("the two builds' trees could not be read: ") + e.what();
    }
    return ch;
}

} // namespace

fs::path write_bisect_report(Host& host, const core::State& s, const core::BisectRun& run, const fs::path& results) {
    Sysroot& sr = host.sysroot();
    core::BisectReportInput in;
    in.experiment = s.experiment;
    in.state = &run.search;
    std::string history_problem;
    in.builds = build_infos(sr, run, history_problem);
    in.changes = read_changes(sr, s, run);
    if (!history_problem.empty())
        in.changes.problem += (in.changes.problem.empty() ? "" : "; ") + history_problem;
    in.seed = run.search.seed;
    write_file_atomic(results / "bisect.json", core::json_text(core::bisect_report_json(in), 2) + "\n");
    write_file_atomic(results / "bisect.svg", core::render_bisect_svg(in));
    write_file_atomic(results / "bisect.html", core::render_bisect_html(in));
    write_file_atomic(results / "bisect.md", core::render_bisect_markdown(in));
    return results / "bisect.md";
}

} // namespace bootbench::sys
