#pragma once
// `[[bench]] counters`: the bench's command under `perf stat -x, -o FILE`
// (perf's own file, so the bench's output that its kind parses stays its
// own), on the host or in the tools image, and perf's counts read back.
// Counting never fails a run: what perf cannot do is recorded in the result.
#include "core/image/tools_image.hpp"
#include "core/result/bench_counters.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::sys {

// perf stat -x, -o FILE -e EVENTS -- ARGV
std::vector<std::string> counted_argv(const std::vector<std::string>& events,
                                      const std::filesystem::path& file,
                                      const std::vector<std::string>& argv);

// Where perf runs for a bench: the host, or the tools image.
struct CountingPlace {
    const core::ToolsImage* tools = nullptr; // null: the host's perf
    std::string container;                   // the check's container name, with tools
    std::filesystem::path probe_root = "/";  // where perf_event_paranoid is read
};

// "" when perf can count `events` here: `perf stat` of `perf version`, once per
// bench and run. Else "counters unavailable: WHAT: FIX", and the bench runs
// without perf.
std::string counting_refused(const std::vector<std::string>& events, const CountingPlace& at);

// The counts perf wrote to `file` (parsed by core/bench/perf_stat); a file
// perf never wrote is the failure, naming it.
core::BenchCounters read_counters(const std::filesystem::path& file, const std::string& bench,
                                  const std::vector<std::string>& events);

} // namespace bootbench::sys
