#pragma once
// The built-in metric keys: the ones published results use today, so that
// published files and bootbench's results compare directly.
#include "core/experiment/experiment.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

// Where a metric comes from: a bench's output (the published files have
// these), or the system after the settle time (core/bench/host_metrics).
enum class MetricFrom { bench, system };

struct MetricInfo {
    std::string key;
    std::string unit;
    Better better;
    std::string label; // what a reader sees in a report
    MetricFrom from;
};

const std::vector<MetricInfo>& metric_catalog();
std::optional<MetricInfo> find_metric(const std::string& key);

// The metrics a bench is expected to produce, with unit and direction.
std::vector<MetricSpec> expected_metrics(const Bench& bench);

// "sysbench_events" -> "sysbench_events_per_watt"
std::string per_watt_key(const std::string& metric);

} // namespace bootbench::core
