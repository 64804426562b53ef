// What a benchmark prints, through the parser of each bench kind and a
// command bench's metric regexes; the first byte picks the kind. The
// published README's exclusion sentences are outside text too, and so is
// perf stat's file (`counters`).
#include "core/bench/parsers.hpp"
#include "core/bench/perf_stat.hpp"
#include "core/report/published.hpp"
#include "fuzz_contract.hpp"

#include <iterator>

namespace {

using namespace bootbench;

core::Bench command_bench() {
    core::Bench b;
    b.kind = core::BenchKind::command;
    b.name = "cmd";
    b.metrics = {{"took", "took ([0-9]+)", "ms", core::Better::lower, {}},
                 {"rate", "rate: *([0-9.eE+-]+) ops/s", "ops/s", core::Better::higher, {}},
                 // backtracks catastrophically on a line of a's: must give up, not hang
                 {"slow", "(a|a)*b([0-9])", "", core::Better::lower, {}}};
    return b;
}

// Every kind, in the order of its name table: 0 perf-sched-pipe ... 4 command, 5 perf-bench-futex.
core::Bench bench_for(uint8_t selector) {
    core::BenchKind kind = core::kBenchKindNames[selector % std::size(core::kBenchKindNames)].second;
    if (kind == core::BenchKind::command)
        return command_bench();
    core::Bench b;
    b.kind = kind;
    b.name = core::to_string(b.kind);
    return b;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0)
        return 0;
    std::string out = fuzz::text_of(data + 1, size - 1);
    fuzz::expect_value_or_error([&] {
        core::Bench b = bench_for(data[0]);
        (void)core::collect_metrics(b, out, "", "fuzz.stdout");
    });
    fuzz::expect_value_or_error([&] { (void)core::published_exclusions(out, "README.md"); });
    fuzz::expect_value_or_error([&] { (void)core::parse_perf_stat(out, "b", {"cycles", "instructions"}); });
    return 0;
}
