#pragma once
// Writes report.{md,json,svg,html} (core/report/report_formats) for a results folder, or for results from
// several machines (core/report/report_hosts). Used at the end of an experiment, by
// `abort`, and by `bootbench report`.
#include "core/report/report.hpp"
#include "core/report/report_hosts.hpp"
#include "sys/store/result_reader.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace bootbench::sys {

// One file per format (core/report/report_formats), in its table's order.
struct ReportPaths {
    std::vector<std::filesystem::path> files;
    const std::filesystem::path& markdown() const { return files.front(); }
};

// Throws bootbench::Error naming the file when an input cannot be read.
ReportPaths write_report_files(const ReportRequest& request);

// Renders and writes OUT_PREFIX.{md,json,svg,html}, every format; an error says to choose
// another place with --out-prefix.
ReportPaths save_report(const core::Report& report, const std::filesystem::path& out_prefix);
ReportPaths save_hosts_report(const core::HostsReport& report, const std::filesystem::path& out_prefix);

} // namespace bootbench::sys
