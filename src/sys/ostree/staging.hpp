#pragma once
// Adding a target that is not deployed yet, through the system's own tool:
// `bootc switch --retain` where bootc is installed, else `rpm-ostree rebase`.
// Both stage the new deployment: it becomes a deployment at the next boot.
#include "core/experiment.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::sys {

// The command that stages `t`, or nullopt (with `why`) when neither tool can.
std::optional<std::vector<std::string>> staging_command(const core::Target& t, std::string& why);

// Runs it with the terminal attached; throws bootbench::Error when it fails.
void run_staging(const std::vector<std::string>& argv);

std::string shell_words(const std::vector<std::string>& argv);

} // namespace bootbench::sys
