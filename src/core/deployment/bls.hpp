#pragma once
// Boot Loader Specification entries as libostree writes them, and the choice
// a bootloader makes among them: the emulated bootloader of the sandbox.
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

struct BlsEntry {
    std::string file; // entry file name, for messages
    std::string title;
    std::string version;
    std::string linux_path;
    std::string initrd;
    std::string options;
};

// Parses "key value" lines; unknown keys are ignored as bootloaders do.
BlsEntry parse_bls_entry(const std::string& text, const std::string& file);

// The entry a BLS bootloader boots by default: the highest version
// (compared as numbers when both are numbers).
std::optional<BlsEntry> default_entry(const std::vector<BlsEntry>& entries);

// The value of `ostree=` in a kernel command line, "" when absent.
std::string ostree_karg(const std::string& options);

} // namespace bootbench::core
