#pragma once
// What to run for each kind of bench, and which package provides the tool
// (each kind's descriptor: core/experiment/kinds).
#include "core/experiment/bench_kind.hpp"
#include "core/experiment/experiment.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::sys {

using ToolInfo = core::BenchTool;

// The tool a built-in bench needs; nullopt for a command bench.
std::optional<ToolInfo> tool_for(core::BenchKind kind);

// "perf is not installed: install it with 'apt install linux-perf' (Debian)
// or 'dnf install perf' (Fedora)".
std::string not_installed_message(const ToolInfo& tool);

// The command line of a bench; `nproc` is the machine's CPU count.
std::vector<std::string> bench_argv(const core::Bench& bench, int nproc);

// The bench's time limit: its own timeout_s, or a generous multiple of how
// long it is expected to take.
double bench_timeout_s(const core::Bench& bench);

// The stress-ng command line for the background load, or empty for none.
// `limit_s` bounds its life even if bootbench itself is killed.
std::vector<std::string> load_argv(const core::Load& load, int nproc, double limit_s);

} // namespace bootbench::sys
