// The experiment file: parse and validate, then plan its runs and the quick
// rehearsal of it, as `plan` does with a file a user wrote; and the same
// text read as a bisect file.
#include "core/bisect/bisect_config.hpp"
#include "core/experiment/experiment.hpp"
#include "core/state/plan.hpp"
#include "fuzz_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    bootbench::fuzz::expect_value_or_error([&] {
        auto e = bootbench::core::parse_experiment(bootbench::fuzz::text_of(data, size), "fuzz.toml");
        (void)bootbench::core::plan_runs(e);
        (void)bootbench::core::plan_runs(bootbench::core::quick_version(e));
    });
    bootbench::fuzz::expect_value_or_error([&] {
        (void)bootbench::core::parse_bisect(bootbench::fuzz::text_of(data, size), "fuzz.toml");
    });
    return 0;
}
