#pragma once
// Which machine a run ran on, without naming it: a digest of the machine's
// /etc/machine-id with the experiment's name (two experiments of one machine
// cannot be linked by it, and the machine-id itself never leaves the host).
#include <filesystem>
#include <optional>
#include <string>

namespace bootbench::sys {

// Hex digits of the id kept in results: 64 bits tell a lab's machines apart.
inline constexpr size_t kMachineIdDigits = 16;

// The first kMachineIdDigits hex digits of SHA-256("bootbench-machine\n" +
// machine-id + "\n" + experiment); nullopt when the file is missing or empty.
std::optional<std::string> machine_id(const std::filesystem::path& machine_id_file,
                                      const std::string& experiment);

// A new random machine-id (32 hex digits, as systemd writes it), for the
// emulated machine of a sandbox.
std::string random_machine_id();

} // namespace bootbench::sys
