#pragma once
// report.json, schema "bootbench-report/1": the report for scripts. Pure.
// metrics[].targets[NAME].values follows targets[].runs of that target, one
// value per run, null where the run lacks the metric.
#include "core/report/report.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::core {

nlohmann::json report_to_json(const Report& report);
// report_to_json, indented, with a final newline.
std::string render_json(const Report& report);

} // namespace bootbench::core
