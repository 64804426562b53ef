#pragma once
// The built-in metric keys: each bench kind's (its descriptor's, in
// core/experiment/kinds) and the system's own.
#include "core/experiment/experiment.hpp"
#include "core/experiment/metric_info.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

const std::vector<MetricInfo>& metric_catalog();
std::optional<MetricInfo> find_metric(const std::string& key);

// The metrics a bench is expected to produce, with unit and direction.
std::vector<MetricSpec> expected_metrics(const Bench& bench);

// "sysbench_events" -> "sysbench_events_per_watt"
std::string per_watt_key(const std::string& metric);

} // namespace bootbench::core
