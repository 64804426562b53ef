#pragma once
// What `report` prints for results from several machines: each machine's
// summary (print_report_summary), then the pooled verdicts and warnings.
#include "core/report/report_hosts.hpp"

namespace bootbench::cli {

void print_hosts_summary(const core::HostsReport& r);

} // namespace bootbench::cli
