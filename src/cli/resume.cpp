// bootbench resume: what the unit runs after every boot.
#include "cli/commands.hpp"
#include "sys/clock.hpp"
#include "sys/ostree/host.hpp"
#include "sys/orchestrator.hpp"

namespace bootbench::cli {

int cmd_resume(const Args& args) {
    args.expect_positional(0, "no arguments");
    auto host = sys::open_host(args.value("sysroot").value_or("/"));
    sys::RealClock clock;
    sys::resume_experiment(*host, clock);
    return 0;
}

} // namespace bootbench::cli
