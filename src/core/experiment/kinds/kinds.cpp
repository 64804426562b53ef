#include "core/experiment/kinds/kinds.hpp"

#include "core/base/error.hpp"

#include <iterator>
#include <string>

namespace bootbench::core {

namespace {

// The table: one line per kind.
const BenchKindInfo* const kKinds[] = {
    &kPerfSchedPipe, &kPerfSchedMessaging, &kSysbenchThreads, &kSchbench, &kCommand, &kPerfBenchFutex,
};
static_assert(std::size(kKinds) == std::size(kBenchKindNames), "every BenchKind has its line in kKinds");

} // namespace

void same_on_every_machine(std::vector<std::string>&, int) {}

const BenchKindInfo& bench_kind(BenchKind kind) {
    for (const BenchKindInfo* k : kKinds)
        if (k->kind == kind)
            return *k;
    throw Error(std::string("bench kind ") + name_of(kBenchKindNames, kind) + " has no line in the table of kinds");
}

} // namespace bootbench::core
