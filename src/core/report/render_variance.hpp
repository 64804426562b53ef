#pragma once
// The "Iterations inside a boot" section, the same words in every format:
// per metric and target, the variance inside and between boots and the
// boots x iterations advised for +-2% at 95% (core/stats/variance). Pure.
#include "core/report/report.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bootbench::core {

// One line per metric and target with a split; empty when no bench ran
// more than once per boot.
std::vector<std::string> variance_lines(const Report& report);
// What the advice assumed a boot and an iteration cost, and where from.
std::string variance_costs_line(const Report& report);
// How the split and the advice are computed, in one paragraph.
std::string variance_method_text();
// The metric's "variance" array for report.json (empty: none).
nlohmann::json variance_json(const MetricReport& m);
// The report's "boot_cost" object for report.json.
nlohmann::json boot_cost_json(const BootCost& c);

} // namespace bootbench::core
