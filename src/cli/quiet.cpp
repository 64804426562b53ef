#include "cli/quiet.hpp"

#include "core/base/error.hpp"
#include "core/host/quiet.hpp"
#include "sys/probe/quiet_units.hpp"

namespace bootbench::cli {

namespace {

std::vector<std::string> listed_here(const std::vector<std::string>& wanted) {
    std::vector<std::string> ask = wanted;
    ask.insert(ask.end(), core::automatic_updaters().begin(), core::automatic_updaters().end());
    return sys::SystemctlUnits().listed(ask);
}

} // namespace

std::string quiet_plan(const core::Experiment& e) {
    std::vector<std::string> wanted = core::stop_units_of(e.conditions.stop_units);
    try {
        return core::quiet_plan_text(wanted, listed_here(wanted));
    } catch (const Error& err) {
        return std::string("quiet machine: cannot list this host's units: ") + err.what() + "\n";
    }
}

} // namespace bootbench::cli
