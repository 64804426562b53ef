#pragma once
// The subcommand table: one entry per verb, one file per subcommand.
#include "cli/args.hpp"
#include "core/experiment/experiment.hpp"

#include <memory>

#include <string>
#include <vector>

namespace bootbench::sys {
class Host;
}

namespace bootbench::cli {

struct Command {
    const char* name;
    const char* synopsis;    // arguments, for help
    const char* description; // one line
    std::vector<OptionSpec> options;
    int (*run)(const Args& args);
};

const std::vector<Command>& commands();
const Command* find_command(const std::string& name);
std::string usage_text();
std::string help_text(const Command& c);

// The machine `status` and `abort` look at: --sandbox DIR, --sysroot PATH or /.
std::unique_ptr<sys::Host> host_of(const Args& args);

// One function per subcommand, each in its own file.
int cmd_plan(const Args& args);
// plan --from PILOT_DIR: runs and repeat for `e` from a pilot's results (plan_from.cpp).
int plan_from(const std::string& pilot_dir, const core::Experiment& e);
int cmd_doctor(const Args& args);
int cmd_start(const Args& args);
int cmd_bisect(const Args& args);
int cmd_resume(const Args& args);
int cmd_status(const Args& args);
int cmd_abort(const Args& args);
int cmd_simulate(const Args& args);
int cmd_run_suite(const Args& args);
int cmd_report(const Args& args);
int cmd_reproduce(const Args& args);

} // namespace bootbench::cli
