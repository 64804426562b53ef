#include "sys/run/perf_counters.hpp"

#include "core/base/text.hpp"
#include "core/bench/perf_stat.hpp"
#include "sys/probe/probes.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/run/bench_command.hpp"
#include "sys/run/raw_output.hpp"

#include <system_error>

namespace bootbench::sys {

namespace {

constexpr double kCheckTimeoutS = 120; // a container's first start can be slow
constexpr const char* kUnavailable = "counters unavailable: ";

const ToolInfo kPerf{"perf", "linux-perf", "perf", false};

// The fix for a perf the kernel refused: its paranoid level, and how to lower it.
std::string paranoid_fix(const std::filesystem::path& probe_root) {
    auto level = read_probe(probe_root / "proc/sys/kernel/perf_event_paranoid");
    return "kernel.perf_event_paranoid is " +
           (level ? core::printable(*level) : std::string("unreadable")) +
           ": the unit runs as root, which any level allows; under another user set "
           "'sysctl kernel.perf_event_paranoid=1' or give perf CAP_PERFMON";
}

std::string why_failed(const Captured& c, const CountingPlace& at) {
    std::string said = core::printable(
        core::cap_text(core::last_line(c.err + "\n" + c.out), 300, "perf's message"));
    std::string what = "perf stat " + describe(c.ending) + (said.empty() ? "" : ": " + said);
    bool refused = c.err.find("paranoid") != std::string::npos ||
                   c.err.find("ermission") != std::string::npos ||
                   c.err.find("Access to performance monitoring") != std::string::npos;
    if (refused)
        return what + "; " + paranoid_fix(at.probe_root);
    if (at.tools && c.status == 127)
        return "perf is not in the tools image " + at.tools->image +
               ": add it to the image (containers/bench-tools/Containerfile has it)";
    return what + "; check the event names with 'perf list'";
}

} // namespace

std::vector<std::string> counted_argv(const std::vector<std::string>& events,
                                      const std::filesystem::path& file,
                                      const std::vector<std::string>& argv) {
    std::vector<std::string> out = {
        "perf", "stat", "-x,", "-o", file.string(), "-e", core::join(events, ","), "--"};
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

std::string counting_refused(const std::vector<std::string>& events, const CountingPlace& at) {
    // perf itself as the workload: a tools image may hold perf and nothing
    // else to run (no coreutils: the VM's has no sleep).
    std::vector<std::string> check = counted_argv(events, "/dev/null", {"perf", "version"});
    if (at.tools)
        check = core::container_argv(*at.tools, at.container, check);
    else if (!find_program("perf"))
        return kUnavailable + not_installed_message(kPerf);
    Captured c = capture_process(check, kCheckTimeoutS);
    if (c.status == 0)
        return "";
    return kUnavailable + why_failed(c, at);
}

core::BenchCounters read_counters(const std::filesystem::path& file, const std::string& bench,
                                  const std::vector<std::string>& events) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return {bench,
                {},
                {},
                std::string(kUnavailable) + "perf wrote no " + file.string() +
                    " (the bench did not start under it)"};
    return core::parse_perf_stat(read_raw_output(file), bench, events);
}

} // namespace bootbench::sys
