#pragma once
// What a report knows of a metric key: unit, direction, label, source.
#include "core/experiment/bench.hpp"

#include <string>

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

} // namespace bootbench::core
