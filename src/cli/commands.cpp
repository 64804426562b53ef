#include "cli/commands.hpp"

namespace bootbench::cli {

namespace {

const OptionSpec kSysroot{"sysroot", Arity::value, "the ostree sysroot (default /)"};
const OptionSpec kJson{"json", Arity::flag, "print JSON for scripts"};

} // namespace

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {
        {"plan", "FILE", "print the run order, the targets as resolved here, and the time it takes",
         {kSysroot, {"quick", Arity::flag, "scale run times down, as simulate --quick does"}},
         cmd_plan},
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

std::string usage_text() {
    std::string s = "usage: bootbench COMMAND [ARGS]\n\ncommands:\n";
    for (const auto& c : commands()) {
        std::string head = std::string("  ") + c.name;
        head.resize(14, ' ');
        s += head + c.description + "\n";
    }
    s += "\n'bootbench help COMMAND' shows a command's options.\n";
    return s;
}

std::string help_text(const Command& c) {
    std::string s = std::string("usage: bootbench ") + c.name + " [OPTIONS] " + c.synopsis + "\n" +
                    c.description + "\n";
    if (!c.options.empty())
        s += "\noptions:\n";
    for (const auto& o : c.options) {
        std::string head = "  --" + o.name + (o.arity == Arity::flag ? "" : " VALUE");
        head.resize(22, ' ');
        s += head + o.help + "\n";
    }
    return s;
}

} // namespace bootbench::cli
