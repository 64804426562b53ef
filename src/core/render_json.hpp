#pragma once
// report.json, schema "bootbench-report/1": the report for scripts. Pure.
#include "core/report.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::core {

nlohmann::json report_to_json(const Report& report);
// report_to_json, indented, with a final newline.
std::string render_json(const Report& report);

} // namespace bootbench::core
