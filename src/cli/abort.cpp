// bootbench abort: stop the experiment and put the machine back.
#include "cli/commands.hpp"
#include "sys/clock.hpp"
#include "sys/ostree/host.hpp"
#include "sys/orchestrator.hpp"

namespace bootbench::cli {

int cmd_abort(const Args& args) {
    args.expect_positional(0, "no arguments");
    auto host = host_of(args);
    sys::RealClock clock;
    sys::abort_experiment(*host, clock);
    return 0;
}

} // namespace bootbench::cli
