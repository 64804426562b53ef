#pragma once
// What `report` prints after writing the files, and `simulate` at its end:
// exclusions, flagged outliers, failed runs, warnings, one verdict per metric.
#include "core/report/report.hpp"

namespace bootbench::cli {

void print_report_summary(const core::Report& r);

} // namespace bootbench::cli
