#pragma once
// `perf stat -x,` output, as perf writes it to its own file (-o): the bench's
// counters (`[[bench]] counters`). Pure: sys/run/perf_counters runs perf.
#include "core/result/bench_counters.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace bootbench::core {

// perf's CSV lines: "VALUE,UNIT,EVENT,RUN_TIME,PCT_RUNNING,METRIC,METRIC_UNIT",
// comments ("# started on ...") and blank lines skipped. A value of
// "<not supported>" (no such PMU event: most VMs) or "<not counted>" makes
// the event unavailable with that reason, as does an event `asked` for that
// perf printed no line for; "ipc" (instructions / cycles) is added when both
// were counted. Never throws: a line it cannot read is an unavailable event.
BenchCounters parse_perf_stat(std::string_view csv, const std::string& bench,
                              const std::vector<std::string>& asked);

} // namespace bootbench::core
