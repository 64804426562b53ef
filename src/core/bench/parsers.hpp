#pragma once
// A bench's output as metrics. Each kind's parser is its descriptor's
// (core/experiment/kinds): pure functions from the text a tool printed to
// the numbers it reported. They never throw on odd input:
// a value that is absent, truncated or not a finite number is simply not
// returned, and the caller records it as missing with a reason.
#include "core/experiment/experiment.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/base/number.hpp"
#include "core/result/run_result.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bootbench::core {

// The bench's kind's parser (core/experiment/kinds).
ParsedOutput parse_bench_output(const Bench& bench, std::string_view out);

struct BenchMetrics {
    std::vector<Metric> metrics;
    std::vector<MissingMetric> missing;
};

// Turns a bench's output into metrics; every expected metric that the
// output lacks is missing, with a reason that names the bench and `log_hint`
// (where the raw output is). When `failure` is not empty the bench did not
// complete and every expected metric is missing with that reason.
BenchMetrics collect_metrics(const Bench& bench, std::string_view out, const std::string& failure,
                             const std::string& log_hint);

} // namespace bootbench::core
