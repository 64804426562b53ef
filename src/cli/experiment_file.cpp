#include "cli/experiment_file.hpp"

#include "core/error.hpp"
#include "sys/files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace bootbench::cli {

core::Experiment load_experiment(const std::string& path) {
    std::ifstream probe(path);
    if (!probe)
        throw input_error("cannot read experiment file " + path + ": " + std::strerror(errno));
    return core::parse_experiment(sys::read_text_file(path), path);
}

core::Experiment quick_version(core::Experiment e) {
    e.conditions.settle_s = 0;
    e.conditions.temp_wait_timeout_s = std::min(e.conditions.temp_wait_timeout_s, 10);
    for (auto& b : e.benches) {
        if (b.kind == core::BenchKind::perf_sched_pipe)
            b.loops = std::max(1000, b.loops / 50);
        if (b.kind == core::BenchKind::perf_sched_messaging)
            b.loops = std::max(10, b.loops / 20);
        if (b.kind == core::BenchKind::sysbench_threads || b.kind == core::BenchKind::schbench)
            b.runtime_s = std::min(b.runtime_s, 3);
    }
    return e;
}

} // namespace bootbench::cli
