#include "cli/commands.hpp"
#include "core/base/error.hpp"
#include "sys/ostree/host.hpp"

namespace bootbench::cli {

std::unique_ptr<sys::Host> host_of(const Args& args) {
    auto sandbox = args.value("sandbox");
    if (sandbox && args.value("sysroot"))
        throw input_error("--sandbox and --sysroot name two machines: give one");
    if (sandbox)
        return sys::open_sandbox_host(*sandbox);
    return sys::open_host(args.value("sysroot").value_or("/"));
}

} // namespace bootbench::cli
