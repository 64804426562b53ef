#include "cli/quiet.hpp"

#include "core/error.hpp"
#include "core/quiet.hpp"
#include "sys/quiet_units.hpp"

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

std::string updaters_warning(const core::Experiment& e) {
    std::vector<std::string> wanted = core::stop_units_of(e.conditions.stop_units);
    try {
        auto left = core::updaters_left_running(wanted, listed_here(wanted));
        std::string names;
        for (const auto& u : left)
            names += (names.empty() ? "" : ", ") + u;
        return left.empty() ? "" : "warning: " + names + " can stage an update during the experiment "
                                   "(not in [conditions] stop_units); start drops a staged update it finds";
    } catch (const Error&) {
        return "";
    }
}

} // namespace bootbench::cli
