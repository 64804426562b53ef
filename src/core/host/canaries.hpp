#pragma once
// Noise canaries: what happened on the machine while the benches ran that
// can make a run's figures noisy. Recorded per run, shown in the report,
// never a reason to drop a run.
//   - kernel log records at warning level or worse (from /dev/kmsg, whose
//     records read "prio,seq,ts_usec,flags[,...];text", level = prio & 7);
//   - the change of the CPUs' thermal throttle counters across the suite;
//   - a suspend during the benches (CLOCK_BOOTTIME ran ahead of
//     CLOCK_MONOTONIC, which stops while the machine sleeps);
//   - update services (what a stopped timer triggers) that were already
//     running when the boot stopped them.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bootbench::core {

inline constexpr int kWarningLevel = 4; // KERN_WARNING: 0 emerg ... 4 warning ... 7 debug
inline constexpr size_t kMaxKernelLines = 20;
inline constexpr size_t kMaxKernelLineBytes = 300;

struct KernelLine {
    int level = 0;
    std::string text;
};

struct KernelLog {
    std::vector<KernelLine> lines; // the first kMaxKernelLines, each capped
    size_t total = 0;              // every warning or worse, also those not kept
    std::string problem;           // why the log could not be read; "" when it was
};

// Throttle counter file (relative path) -> count.
using ThrottleCounts = std::map<std::string, long long>;

struct Throttling {
    long long core = 0;    // summed over CPUs
    long long package = 0; // the largest change of one CPU (each CPU of a package shows it)
    std::string problem;   // why no counter could be read ("" when some were)
};

struct Canaries {
    KernelLog kernel_log;
    Throttling throttling;
    double suspended_s = 0;                   // time asleep during the benches
    std::vector<std::string> updates_running; // units stopped while active
};

// Seconds asleep between two readings of (CLOCK_BOOTTIME - CLOCK_MONOTONIC);
// below a second is clock noise, not a suspend.
double suspended_between(double sleep_offset_before_s, double sleep_offset_after_s);

// One record; nullopt for a continuation line (" KEY=value") or one that is
// not a record.
std::optional<KernelLine> parse_kmsg_record(std::string_view record);

// Adds the warnings and worse among `records` (records separated by
// newlines, as read() returns them) to `log`, keeping the caps.
void add_kmsg_records(KernelLog& log, std::string_view records);

// The counters' change; a counter that is not in both is skipped.
Throttling throttle_change(const ThrottleCounts& before, const ThrottleCounts& after);

// "3 kernel warnings during the benches (first: <4> text); core throttling
// 12 times; the machine was suspended for 912 s during the benches;
// uupd.service was running at this boot (...)"; "" when nothing happened.
std::string canary_text(const Canaries& c);

nlohmann::json to_json(const Canaries& c);
// Throws bootbench::Error naming `where` for a malformed object.
Canaries canaries_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
