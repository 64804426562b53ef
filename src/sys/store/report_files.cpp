#include "sys/store/report_files.hpp"

#include "core/base/error.hpp"
#include "core/report/render_hosts.hpp"
#include "core/report/render_html.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_svg.hpp"
#include "sys/store/files.hpp"

#include <functional>

namespace bootbench::sys {

namespace {

fs::path with_suffix(const fs::path& prefix, const char* suffix) {
    fs::path p = prefix;
    p += suffix;
    return p;
}

struct ReportTexts {
    std::string markdown, json, svg, html;
};

// The four files of a report; `render` is given the SVG's file name, which
// the Markdown links to.
ReportPaths save_texts(const fs::path& out_prefix, const std::function<ReportTexts(const std::string&)>& render) {
    ReportPaths paths{with_suffix(out_prefix, ".md"), with_suffix(out_prefix, ".json"),
                      with_suffix(out_prefix, ".svg"), with_suffix(out_prefix, ".html")};
    try {
        if (out_prefix.has_parent_path())
            make_dirs(out_prefix.parent_path());
        ReportTexts t = render(paths.svg.filename().string());
        write_file_atomic(paths.json, t.json);
        write_file_atomic(paths.svg, t.svg);
        write_file_atomic(paths.html, t.html);
        write_file_atomic(paths.markdown, t.markdown);
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (choose another place with --out-prefix)", e.code());
    }
    return paths;
}

} // namespace

ReportPaths save_report(const core::Report& report, const fs::path& out_prefix) {
    return save_texts(out_prefix, [&](const std::string& svg_name) {
        return ReportTexts{core::render_markdown(report, svg_name), core::render_json(report),
                           core::render_svg(report), core::render_html(report)};
    });
}

ReportPaths save_hosts_report(const core::HostsReport& report, const fs::path& out_prefix) {
    return save_texts(out_prefix, [&](const std::string& svg_name) {
        return ReportTexts{core::render_hosts_markdown(report, svg_name), core::render_hosts_json(report),
                           core::render_hosts_svg(report), core::render_hosts_html(report)};
    });
}

ReportPaths write_report_files(const ReportRequest& request) {
    fs::path prefix =
        request.out_prefix.empty() ? default_out_prefix(request.inputs) : request.out_prefix;
    return save_report(load_report(request), prefix);
}

} // namespace bootbench::sys
