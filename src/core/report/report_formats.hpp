#pragma once
// The report formats: one line each in one table, its file's suffix and its
// renderers, for one machine (core/report/report) and across machines
// (core/report/report_hosts). sys/store/report_files writes them, the
// results folder knows their names, `report` says where they went.
#include "core/report/report.hpp"
#include "core/report/report_hosts.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

struct ReportFormat {
    const char* suffix; // ".md": the file is PREFIX.md
    // `base` is the file name of the prefix ("report"): a format may link to
    // the others beside it (the Markdown shows the SVG).
    std::string (*render)(const Report& report, const std::string& base);
    std::string (*render_hosts)(const HostsReport& report, const std::string& base);
};

// A results folder's report: PREFIX is <results>/report.
inline constexpr const char* kReportBase = "report";

// In the order `report` names them; the first (the Markdown summary, which
// links the others) is written last.
const std::vector<ReportFormat>& report_formats();

// "report.md": the summary's file name in a results folder.
std::string summary_file_name();

} // namespace bootbench::core
