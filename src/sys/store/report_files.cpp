#include "sys/store/report_files.hpp"

#include "core/base/error.hpp"
#include "core/report/report_formats.hpp"
#include "sys/store/files.hpp"

#include <functional>

namespace bootbench::sys {

namespace {

fs::path with_suffix(const fs::path& prefix, const char* suffix) {
    fs::path p = prefix;
    p += suffix;
    return p;
}

// Every format's file; `render` gives a format's text for the prefix's file
// name. All are rendered before any is written; the first (the Markdown,
// which links the SVG) is written last.
ReportPaths save_texts(const fs::path& out_prefix,
                       const std::function<std::string(const core::ReportFormat&, const std::string&)>& render) {
    const auto& formats = core::report_formats();
    ReportPaths paths;
    for (const auto& f : formats)
        paths.files.push_back(with_suffix(out_prefix, f.suffix));
    try {
        if (out_prefix.has_parent_path())
            make_dirs(out_prefix.parent_path());
        std::vector<std::string> texts;
        for (const auto& f : formats)
            texts.push_back(render(f, out_prefix.filename().string()));
        for (size_t i = 1; i < texts.size(); ++i)
            write_file_atomic(paths.files[i], texts[i]);
        write_file_atomic(paths.files[0], texts[0]);
    } catch (const Error& e) {
        throw Error(std::string(e.what()) + " (choose another place with --out-prefix)", e.code());
    }
    return paths;
}

} // namespace

ReportPaths save_report(const core::Report& report, const fs::path& out_prefix) {
    return save_texts(out_prefix, [&](const core::ReportFormat& f, const std::string& base) {
        return f.render(report, base);
    });
}

ReportPaths save_hosts_report(const core::HostsReport& report, const fs::path& out_prefix) {
    return save_texts(out_prefix, [&](const core::ReportFormat& f, const std::string& base) {
        return f.render_hosts(report, base);
    });
}

ReportPaths write_report_files(const ReportRequest& request) {
    fs::path prefix =
        request.out_prefix.empty() ? default_out_prefix(request.inputs) : request.out_prefix;
    return save_report(load_report(request), prefix);
}

} // namespace bootbench::sys
