// A result file, as `report` and `status` read it: bootbench-run/1 or a
// published margine-bench-kernel/1 file; what is read must be writable again.
#include "core/report/published.hpp"
#include "core/result/run_result.hpp"
#include "fuzz_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace bootbench;
    fuzz::expect_value_or_error([&] {
        auto j = fuzz::parse_json(fuzz::text_of(data, size), "fuzz.json");
        (void)core::to_json(core::run_result_from_json(j, "fuzz.json")).dump();
    });
    fuzz::expect_value_or_error([&] {
        auto j = fuzz::parse_json(fuzz::text_of(data, size), "fuzz.json");
        (void)core::to_json(core::run_from_published(j, "fuzz", "fuzz.json")).dump();
    });
    return 0;
}
