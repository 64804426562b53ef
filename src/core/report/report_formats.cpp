#include "core/report/report_formats.hpp"

#include "core/report/render_hosts.hpp"
#include "core/report/render_html.hpp"
#include "core/report/render_json.hpp"
#include "core/report/render_markdown.hpp"
#include "core/report/render_svg.hpp"

namespace bootbench::core {

const std::vector<ReportFormat>& report_formats() {
    using B = const std::string&;
    static const std::vector<ReportFormat> formats = {
        {".md", [](const Report& r, B base) { return render_markdown(r, base + ".svg"); },
         [](const HostsReport& r, B base) { return render_hosts_markdown(r, base + ".svg"); }},
        {".json", [](const Report& r, B) { return render_json(r); },
         [](const HostsReport& r, B) { return render_hosts_json(r); }},
        {".svg", [](const Report& r, B) { return render_svg(r); },
         [](const HostsReport& r, B) { return render_hosts_svg(r); }},
        {".html", [](const Report& r, B) { return render_html(r); },
         [](const HostsReport& r, B) { return render_hosts_html(r); }},
    };
    return formats;
}

std::string summary_file_name() {
    return kReportBase + std::string(report_formats().front().suffix);
}

} // namespace bootbench::core
