#include "sys/run/bench_command.hpp"

#include "core/state/estimate.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::sys {

std::optional<ToolInfo> tool_for(core::BenchKind kind) {
    switch (kind) {
    case core::BenchKind::perf_sched_pipe:
    case core::BenchKind::perf_sched_messaging:
        return ToolInfo{"perf", "linux-perf", "perf", false};
    case core::BenchKind::sysbench_threads:
        return ToolInfo{"sysbench", "sysbench", "sysbench", false};
    case core::BenchKind::schbench:
        return ToolInfo{"schbench", "", "schbench", true};
    case core::BenchKind::command:
        return std::nullopt;
    }
    return std::nullopt;
}

std::string not_installed_message(const ToolInfo& tool) {
    std::string debian = tool.debian.empty()
                             ? "it is not packaged in Debian 12: build it from source"
                             : "install it with 'apt install " + tool.debian + "' (Debian)";
    return tool.program + " is not installed: " + debian + " or 'dnf install " + tool.fedora +
           "' (Fedora)";
}

std::vector<std::string> bench_argv(const core::Bench& b, int nproc) {
    auto s = [](int v) { return std::to_string(v); };
    switch (b.kind) {
    case core::BenchKind::perf_sched_pipe:
        return {"perf", "bench", "sched", "pipe", "-l", s(b.loops)};
    case core::BenchKind::perf_sched_messaging:
        return {"perf", "bench", "sched", "messaging", "-g", s(b.groups), "-l", s(b.loops)};
    case core::BenchKind::sysbench_threads:
        return {"sysbench",
                "threads",
                "--threads=" + s(b.threads > 0 ? b.threads : nproc),
                "--time=" + s(b.runtime_s),
                "--thread-yields=1000",
                "--thread-locks=8",
                "run"};
    case core::BenchKind::schbench: {
        std::vector<std::string> argv = {"schbench"};
        if (b.message_threads > 0)
            argv.insert(argv.end(), {"-m", s(b.message_threads)});
        if (b.threads > 0)
            argv.insert(argv.end(), {"-t", s(b.threads)});
        argv.insert(argv.end(), {"-r", s(b.runtime_s)});
        return argv;
    }
    case core::BenchKind::command:
        return b.argv;
    }
    return {};
}

double bench_timeout_s(const core::Bench& b) {
    if (b.timeout_s > 0)
        return b.timeout_s;
    return std::ceil(core::estimate_bench_seconds(b) * 5 + 60);
}

std::vector<std::string> load_argv(const core::Load& load, int nproc, double limit_s) {
    int workers = 0;
    switch (load.kind) {
    case core::Load::Kind::none:
        workers = 0;
        break;
    case core::Load::Kind::half:
        workers = std::max(1, nproc / 2);
        break;
    case core::Load::Kind::all:
        workers = nproc;
        break;
    case core::Load::Kind::count:
        workers = load.count;
        break;
    }
    if (workers <= 0)
        return {};
    return {"stress-ng", "--cpu", std::to_string(workers), "--timeout",
            std::to_string(static_cast<long>(std::ceil(limit_s))) + "s"};
}

} // namespace bootbench::sys
