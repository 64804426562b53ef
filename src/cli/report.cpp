// bootbench report [RESULTS_DIR | FILE...]: the comparison report of a
// results folder, of result files, or of a published folder; of several
// machines' results folders, one report per machine and a pooled one.
#include "cli/commands.hpp"
#include "core/base/error.hpp"
#include "cli/report_summary.hpp"
#include "cli/report_hosts_summary.hpp"
#include "sys/store/report_files.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_text.hpp"
#include "sys/store/result_reader.hpp"

#include <filesystem>
#include <iostream>

namespace bootbench::cli {

namespace {

// A results folder (runs/) or a folder of result files (*.json).
bool has_results(const std::filesystem::path& dir) {
    std::error_code ec; // a symlink loop is read, and named, by read_results
    if (std::filesystem::is_directory(dir / "runs", ec))
        return true;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json")
            return true;
    return false;
}

sys::ReportRequest request_from(const Args& args) {
    sys::ReportRequest req;
    for (const auto& p : args.positional())
        req.inputs.emplace_back(p);
    if (req.inputs.empty() && !has_results("."))
        throw input_error("report needs results: 'bootbench report results/NAME' (a results folder), "
                          "result files, or a published folder; the current folder has none");
    if (req.inputs.empty())
        req.inputs.emplace_back(".");
    req.baseline = args.value("baseline").value_or("");
    req.subject = args.value("subject").value_or("");
    req.title = args.value("title").value_or("");
    for (const auto& run : args.values("exclude"))
        req.exclude.emplace_back(run, "excluded with --exclude on the command line");
    req.out_prefix = args.value("out-prefix").value_or("");
    if (req.out_prefix.empty())
        req.out_prefix = sys::default_out_prefix(req.inputs);
    return req;
}

void say_written(const sys::ReportPaths& paths) {
    std::cout << "\nwrote ";
    for (size_t i = 0; i < paths.files.size(); ++i)
        std::cout << (i ? ", " : "") << paths.files[i].string();
    std::cout << "\n";
}

} // namespace

int cmd_report(const Args& args) {
    sys::ReportRequest req = request_from(args);
    core::ReportInput in = sys::report_input(req, sys::read_results(req.inputs));
    if (core::spans_hosts(in.runs)) { // results from several machines: core/report/report_hosts
        core::HostsReport hosts = core::build_hosts_report(in);
        sys::ReportPaths paths = sys::save_hosts_report(hosts, req.out_prefix);
        print_hosts_summary(hosts);
        say_written(paths);
        return 0;
    }
    core::Report report = core::build_report(in);
    sys::ReportPaths paths = sys::save_report(report, req.out_prefix);
    print_report_summary(report);
    say_written(paths);
    return 0;
}

} // namespace bootbench::cli
