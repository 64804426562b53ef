#include "sys/run/bench_command.hpp"

#include "core/experiment/kinds/kinds.hpp"
#include "core/state/estimate.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::sys {

std::optional<ToolInfo> tool_for(core::BenchKind kind) {
    return core::bench_kind(kind).tool;
}

std::string not_installed_message(const ToolInfo& tool) {
    std::string debian = tool.debian.empty()
                             ? "it is not packaged in Debian 12: build it from source"
                             : "install it with 'apt install " + tool.debian + "' (Debian)";
    return tool.program + " is not installed: " + debian + " or 'dnf install " + tool.fedora +
           "' (Fedora)";
}

std::vector<std::string> bench_argv(const core::Bench& b, int nproc) {
    return core::bench_kind(b.kind).argv(b, nproc);
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
