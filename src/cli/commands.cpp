#include "cli/commands.hpp"

#include <map>

namespace bootbench::cli {

namespace {

const OptionSpec kSysroot{"sysroot", Arity::value, "the ostree sysroot (default /)"};
const OptionSpec kJson{"json", Arity::flag, "print JSON for scripts"};
const OptionSpec kKeptSandbox{"sandbox", Arity::value, "a sandbox kept by simulate --sandbox, instead of this machine"};

} // namespace

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {
        {"plan", "FILE", "print the run order, the targets as resolved here, and the time it takes",
         {kSysroot, {"quick", Arity::flag, "scale run times down, as simulate --quick does"},
          {"from", Arity::value, "a pilot's results folder: propose runs and repeat from its variance"}},
         cmd_plan},
        {"doctor", "[FILE]",
         "check this host for an overnight experiment: ok / warn / fail, each with its fix",
         {{"root", Arity::value, "read /proc, /sys, /run, /var, /boot under this folder (default /)"},
          kJson},
         cmd_doctor},
        {"simulate", "FILE",
         "run the whole experiment on a throwaway sandbox sysroot, with real benchmarks",
         {{"quick", Arity::flag, "scale run times down (settle 0 s, short benches)"},
          {"sandbox", Arity::value, "build the sandbox in this new folder and keep it"},
          {"results", Arity::value, "copy the results here (default results/<experiment>)"},
          {"verbose", Arity::flag, "print every boot's details (conditions, bench commands), not one line a run"}},
         cmd_simulate},
        {"start", "FILE", "start the experiment on this machine: pin, install the unit, reboot",
         {kSysroot,
          {"dry-run", Arity::flag, "print what would change, change nothing"},
          {"drop-staged", Arity::flag, "start even though a staged update would be dropped"},
          {"no-reboot", Arity::flag, "prepare everything but do not reboot"}},
         cmd_start},
        {"bisect", "FILE",
         "find the build of a ref's history that made this machine slower: plan, then run unattended",
         {kSysroot,
          {"dry-run", Arity::flag, "print the builds and the plan, change nothing"},
          {"drop-staged", Arity::flag, "start even though a staged update would be dropped"},
          {"no-reboot", Arity::flag, "prepare everything but do not reboot"}},
         cmd_bisect},
        {"resume", "", "run by the unit after each boot: measure, record, switch, reboot",
         {kSysroot}, cmd_resume},
        {"status", "", "which run is next, how many are done, where the results are",
         {kSysroot, kKeptSandbox, kJson}, cmd_status},
        {"abort", "", "stop the experiment and put the machine back; results are kept",
         {kSysroot, kKeptSandbox}, cmd_abort},
        {"run-suite", "FILE --target NAME", "run the benchmark suite once on this boot and store the result",
         {{"target", Arity::value, "the target this boot represents (required)"},
          {"out", Arity::value, "results folder (default results/EXPERIMENT)"},
          {"quick", Arity::flag, "scale run times down, as simulate --quick does"}},
         cmd_run_suite},
        {"report", "[RESULTS_DIR | FILE...]",
         "write report.{md,json,svg,html}: medians, ratios, intervals, outliers, warnings",
         {{"baseline", Arity::value, "the target the others are compared with"},
          {"subject", Arity::value, "the target compared (default: the first other one)"},
          {"exclude", Arity::repeated, "leave this run out (repeatable); the reason is printed"},
          {"title", Arity::value, "the report's title"},
          {"out-prefix", Arity::value, "write PATH.md, PATH.json... (default RESULTS_DIR/report)"}},
         cmd_report},
        {"reproduce", "--published DIR --results DIR",
         "check whether fresh results reproduce a published set's ratios",
         {{"published", Arity::value, "folder of published margine-bench-kernel/1 files"},
          {"results", Arity::value, "the fresh results folder"},
          {"exclude", Arity::repeated,
           "leave this published run out, repeatable (default: as DIR/README.md states)"},
          {"baseline", Arity::value, "the baseline target (default: the results' experiment file)"},
          {"subject", Arity::value, "the subject target (default: the first other one)"}},
         cmd_reproduce},
    };
    return table;
}

const Command* find_command(const std::string& name) {
    for (const auto& c : commands())
        if (name == c.name)
            return &c;
    return nullptr;
}

namespace {

// What an option's value is, as help shows it: `--sysroot PATH`.
std::string value_name(const std::string& option) {
    static const std::map<std::string, std::string> names = {
        {"sysroot", "PATH"},    {"sandbox", "DIR"},   {"root", "DIR"},   {"results", "DIR"},      {"published", "DIR"},
        {"out", "DIR"},         {"target", "NAME"},   {"baseline", "TARGET"},  {"subject", "TARGET"},
        {"exclude", "RUN_ID"},  {"title", "TEXT"},    {"out-prefix", "PATH"}};
    auto it = names.find(option);
    return it == names.end() ? "VALUE" : it->second;
}

} // namespace

std::string usage_text() {
    std::string s = "usage: bootbench COMMAND [ARGS]\n\ncommands:\n";
    for (const auto& c : commands()) {
        std::string head = std::string("  ") + c.name;
        head.resize(14, ' ');
        s += head + c.description + "\n";
    }
    s += "\n'bootbench help COMMAND' or 'bootbench COMMAND --help' shows a command's options;\n"
         "'bootbench --version' prints the version.\n";
    return s;
}

std::string help_text(const Command& c) {
    std::string s = std::string("usage: bootbench ") + c.name + " [OPTIONS] " + c.synopsis + "\n" +
                    c.description + "\n";
    if (!c.options.empty())
        s += "\noptions:\n";
    for (const auto& o : c.options) {
        std::string head = "  --" + o.name + (o.arity == Arity::flag ? "" : " " + value_name(o.name));
        head.resize(24, ' ');
        s += head + o.help + "\n";
    }
    return s;
}

} // namespace bootbench::cli
