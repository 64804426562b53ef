// Argument dispatch and the one top-level catch.
#include "cli/commands.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "sys/store/user_lines.hpp"

#include <exception>
#include <iostream>

namespace {

// `bootbench plan --help` and `-h` anywhere after the command ask for its help.
bool asks_for_help(const std::vector<std::string>& args) {
    for (size_t i = 1; i < args.size() && args[i] != "--"; ++i)
        if (args[i] == "--help" || args[i] == "-h")
            return true;
    return false;
}

const bootbench::cli::Command& command_named(const std::string& name) {
    const bootbench::cli::Command* c = bootbench::cli::find_command(name);
    if (!c)
        throw bootbench::input_error("unknown command '" + name + "'\n" + bootbench::cli::usage_text());
    return *c;
}

} // namespace

int main(int argc, char** argv) {
    using namespace bootbench;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << cli::usage_text();
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::cout << "bootbench " << BOOTBENCH_VERSION << "\n";
        return 0;
    }
    try {
        if (args[0] == "help") {
            std::cout << (args.size() > 1 ? cli::help_text(command_named(args[1])) : cli::usage_text());
            return 0;
        }
        const cli::Command& c = command_named(args[0]);
        if (asks_for_help(args)) {
            std::cout << cli::help_text(c);
            return 0;
        }
        cli::Args parsed(c.name, {args.begin() + 1, args.end()}, c.options);
        return c.run(parsed);
    } catch (const Error& e) {
        std::cout.flush();
        sys::say("error: " + core::printable(e.what(), core::LineBreaks::keep));
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        std::cout.flush();
        sys::say("internal error: " + core::printable(e.what()));
        return 1;
    }
}
