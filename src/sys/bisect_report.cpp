#include "sys/bisect_report.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/bisect/bisect_report.hpp"
#include "core/deployment/tree_diff.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/ostree/tree_reader.hpp"
#include "sys/store/files.hpp"


namespace bootbench::sys {

namespace {

// Every build's subject, version and time, as the history said at the start.
std::vector<core::BuildInfo> build_infos(const core::BisectRun& run) {
    std::vector<core::BuildInfo> out;
    for (size_t i = 0; i < run.commits.size(); ++i) {
        core::CommitInfo c = i < run.history.size() ? run.history[i] : core::CommitInfo{};
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
    in.builds = build_infos(run);
    in.changes = read_changes(sr, s, run);
    in.seed = run.search.seed;
    write_file_atomic(results / "bisect.json", core::json_text(core::bisect_report_json(in), 2) + "\n");
    write_file_atomic(results / "bisect.svg", core::render_bisect_svg(in));
    write_file_atomic(results / "bisect.html", core::render_bisect_html(in));
    write_file_atomic(results / "bisect.md", core::render_bisect_markdown(in));
    return results / "bisect.md";
}

} // namespace bootbench::sys
