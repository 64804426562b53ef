// state.json as every boot's `resume`, `status` and `abort` load it; a
// loaded state must be writable again (it is saved at the next step). The
// same text as a bisection's state: loaded, written, and its next run
// recorded.
#include "core/bisect/bisect_state.hpp"
#include "core/state/state.hpp"
#include "fuzz_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace bootbench;
    fuzz::expect_value_or_error([&] {
        auto j = fuzz::parse_json(fuzz::text_of(data, size), "state.json");
        (void)core::to_json(core::state_from_json(j, "state.json")).dump();
    });
    fuzz::expect_value_or_error([&] {
        auto j = fuzz::parse_json(fuzz::text_of(data, size), "bisect.json");
        core::BisectState s = core::bisect_state_from_json(j, "bisect.json");
        (void)core::to_json(s).dump();
        core::BisectAction a = core::next_action(s);
        if (!a.done)
            (void)core::next_action(core::record_run(s, a.order.front(), 100));
    });
    return 0;
}
