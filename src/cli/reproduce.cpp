// bootbench reproduce --published DIR --results DIR: do fresh results
// reproduce the published ratios?
//
// Which published runs were left out: `--exclude RUN_ID` (repeatable) when
// given; otherwise the sentences in DIR/README.md of the form
// "`NAME.json` was excluded ..." (core::published_exclusions), which is how
// a published set states it. Every exclusion is printed with its reason, so a
// README that says nothing, or says it another way, shows at once. --exclude
// replaces the README's list rather than adding to it, so that the published
// numbers can also be recomputed without the publisher's choice. The fresh
// results leave out what their experiment.toml [report] exclude lists.
#include "cli/commands.hpp"
#include "core/base/error.hpp"
#include "core/report/published.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_text.hpp"
#include "core/report/report_reproduce.hpp"
#include "sys/store/files.hpp"
#include "sys/store/result_reader.hpp"

#include <iostream>

namespace bootbench::cli {

namespace {

namespace fs = std::filesystem;

std::string required(const Args& args, const char* name, const char* what) {
    auto v = args.value(name);
    if (!v)
        throw input_error(std::string("bootbench reproduce: --") + name + " " + what +
                          " is required (see 'bootbench help reproduce')");
    return *v;
}

// --exclude when given; else the exclusions the published README states.
std::vector<core::Exclusion> published_exclusions(const Args& args, const fs::path& dir) {
    std::vector<core::Exclusion> out;
    for (const auto& run : args.values("exclude"))
        out.push_back({run, "excluded with --exclude on the command line"});
    std::error_code ec;
    fs::path readme = dir / "README.md";
    if (out.empty() && fs::is_regular_file(readme, ec))
        out = core::published_exclusions(sys::read_text_file(readme), readme.filename().string());
    return out;
}

core::Report published_report(const Args& args, const fs::path& dir, const core::Report& fresh) {
    core::ReportInput in;
    in.runs = sys::read_results({dir}).runs;
    in.baseline = fresh.baseline;
    in.subject = fresh.subject;
    in.exclude = published_exclusions(args, dir);
    try {
        return core::build_report(in);
    } catch (const Error& e) {
        throw Error("published set " + dir.string() + ": " + e.what(), e.code());
    }
}

void print_set(const char* name, const fs::path& dir, const core::Report& r) {
    std::cout << name << dir.string() << ": " << r.subject << " vs " << r.baseline << ", runs "
              << core::runs_per_target(r) << "\n";
    for (const auto& t : r.targets)
        for (const auto& e : t.excluded)
            std::cout << "  excluded " << e.run << ": " << e.reason << "\n";
    for (const auto& w : r.warnings)
        std::cout << "  warning: " << w << "\n";
}

} // namespace

int cmd_reproduce(const Args& args) {
    if (!args.positional().empty())
        throw input_error(
            "bootbench reproduce: takes no positional arguments (see 'bootbench help reproduce')");
    fs::path published_dir = required(args, "published", "DIR");
    fs::path results_dir = required(args, "results", "DIR");
    sys::ReportRequest req;
    req.inputs = {results_dir};
    req.baseline = args.value("baseline").value_or("");
    req.subject = args.value("subject").value_or("");
    core::Report fresh = sys::load_report(req);
    core::Report published = published_report(args, published_dir, fresh);
    print_set("published ", published_dir, published);
    print_set("fresh     ", results_dir, fresh);
    for (const auto& d : core::environment_differences(published, fresh))
        std::cout << "not the same experiment: " << d << "\n";
    std::cout << "\n" << core::render_reproduction(core::compare_reproduction(published, fresh));
    return 0;
}

} // namespace bootbench::cli
