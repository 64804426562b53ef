#include "sys/store/report_files.hpp"

#include "core/error.hpp"
#include "core/render_html.hpp"
#include "core/render_json.hpp"
#include "core/render_markdown.hpp"
#include "core/render_svg.hpp"
#include "sys/store/files.hpp"
#include "sys/store/result_reader.hpp"

namespace bootbench::sys {

namespace {

fs::path with_suffix(const fs::path& prefix, const char* suffix) {
    fs::path p = prefix;
    p += suffix;
    return p;
}

} // namespace

ReportPaths save_report(const core::Report& report, const fs::path& out_prefix) {
    ReportPaths paths{with_suffix(out_prefix, ".md"), with_suffix(out_prefix, ".json"),
                      with_suffix(out_prefix, ".svg"), with_suffix(out_prefix, ".html")};
    try {
        if (out_prefix.has_parent_path())
            make_dirs(out_prefix.parent_path());
        write_file_atomic(paths.json, core::render_json(report));
        write_file_atomic(paths.svg, core::render_svg(report));
        write_file_atomic(paths.html, core::render_html(report));
        write_file_atomic(paths.markdown,
                          core::render_markdown(report, paths.svg.filename().string()));
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (choose another place with --out-prefix)", e.code());
    }
    return paths;
}

ReportPaths write_report_files(const ReportRequest& request) {
    fs::path prefix =
        request.out_prefix.empty() ? default_out_prefix(request.inputs) : request.out_prefix;
    return save_report(load_report(request), prefix);
}

} // namespace bootbench::sys
