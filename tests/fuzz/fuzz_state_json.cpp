// state.json as every boot's `resume`, `status` and `abort` load it; a
// loaded state must be writable again (it is saved at the next step).
#include "core/state/state.hpp"
#include "fuzz_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace bootbench;
    fuzz::expect_value_or_error([&] {
        auto j = fuzz::parse_json(fuzz::text_of(data, size), "state.json");
        (void)core::to_json(core::state_from_json(j, "state.json")).dump();
    });
    return 0;
}
