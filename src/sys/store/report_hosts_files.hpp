#pragma once
// Writes report.{md,json,svg,html} of a report across machines
// (core/report_hosts), beside save_report's one-machine files.
#include "core/report_hosts.hpp"
#include "sys/store/report_files.hpp"

#include <filesystem>

namespace bootbench::sys {

ReportPaths save_hosts_report(const core::HostsReport& report, const std::filesystem::path& out_prefix);

} // namespace bootbench::sys
