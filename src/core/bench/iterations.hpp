#pragma once
// A bench run `repeat` times in one boot: its iterations folded into one
// record and one value per metric (the median of its iterations), with every
// iteration's value kept beside it. Pure: the suite runs, this folds.
#include "core/bench/parsers.hpp"
#include "core/result/run_result.hpp"

#include <optional>
#include <vector>

namespace bootbench::core {

struct BenchIteration {
    BenchRecord record;
    BenchMetrics metrics;
    std::optional<double> freq_mhz{}; // average CPU frequency while it ran (sys/run/cpu_freq)
    std::optional<BenchCounters> counters{}; // with `counters` (sys/run/perf_counters)
};

// The iterations in the order they ran (at least one; the suite stops at the
// first that did not end ok). One iteration comes back unchanged. Otherwise:
// wall_s summed, `iterations` counted; each metric's value the median of the
// iterations that gave it, all of them in Metric::iterations; a metric is
// missing only when no iteration gave it; the record's status and reason
// are the failing iteration's ("iteration 2 of 3: ..."); the CPU frequency
// the mean of the iterations that sampled one; the counters folded as the
// metrics are (each event's median, every value in its iterations; an event
// unavailable only when no iteration counted it).
BenchIteration fold_iterations(std::vector<BenchIteration> done, int planned);

// The log stem of iteration `index` (1-based): the bench's name for the
// first, so a single iteration's files are named as before; "name.iter-2"...
std::string iteration_stem(const std::string& bench, int index);

} // namespace bootbench::core
