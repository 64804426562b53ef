#pragma once
// The built-in metric keys: the ones published results use today, so that
// published files and bootbench's results compare directly.
#include "core/experiment.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

struct MetricInfo {
    std::string key;
    std::string unit;
    Better better;
    std::string label; // what a reader sees in a report
};

const std::vector<MetricInfo>& metric_catalog();
std::optional<MetricInfo> find_metric(const std::string& key);

} // namespace bootbench::core
