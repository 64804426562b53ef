// Argument dispatch and the one top-level catch.
#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

#include <cstdio>
#include <exception>
#include <iostream>

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
            const cli::Command* c = args.size() > 1 ? cli::find_command(args[1]) : nullptr;
            std::cout << (c ? cli::help_text(*c) : cli::usage_text());
            return 0;
        }
        const cli::Command* c = cli::find_command(args[0]);
        if (!c)
            throw input_error("unknown command '" + args[0] + "'\n" + cli::usage_text());
        cli::Args parsed(c->name, {args.begin() + 1, args.end()}, c->options);
        return c->run(parsed);
    } catch (const Error& e) {
        std::cout.flush();
        std::fprintf(stderr, "bootbench: error: %s\n", core::printable(e.what(), core::LineBreaks::keep).c_str());
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        std::cout.flush();
        std::fprintf(stderr, "bootbench: internal error: %s\n", core::printable(e.what()).c_str());
        return 1;
    }
}
