#include "sys/store/report_hosts_files.hpp"

#include "core/error.hpp"
#include "core/render_hosts.hpp"
#include "sys/store/files.hpp"

namespace bootbench::sys {

namespace {

fs::path with_suffix(const fs::path& prefix, const char* suffix) {
    fs::path p = prefix;
    p += suffix;
    return p;
}

} // namespace

ReportPaths save_hosts_report(const core::HostsReport& report, const fs::path& out_prefix) {
    ReportPaths paths{with_suffix(out_prefix, ".md"), with_suffix(out_prefix, ".json"),
                      with_suffix(out_prefix, ".svg"), with_suffix(out_prefix, ".html")};
    try {
        if (out_prefix.has_parent_path())
            make_dirs(out_prefix.parent_path());
        write_file_atomic(paths.json, core::render_hosts_json(report));
        write_file_atomic(paths.svg, core::render_hosts_svg(report));
        write_file_atomic(paths.html, core::render_hosts_html(report));
        write_file_atomic(paths.markdown,
                          core::render_hosts_markdown(report, paths.svg.filename().string()));
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (choose another place with --out-prefix)", e.code());
    }
    return paths;
}

} // namespace bootbench::sys
