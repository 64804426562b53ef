#pragma once
// Where an experiment lives on disk, and the state file's load and save.
//
//   <state_dir>/state.json          the State, written atomically after every step
//   <state_dir>/state.initial.json  the State as start wrote it (abort's fallback)
//   <state_dir>/experiment.toml     the experiment file, as started
//   <var>/usrlocal/bin/bootbench-resume  the binary the unit runs: /var/usrlocal is
//                                   /usr/local, labelled bin_t, which systemd may run
//   <state_dir>/bin/bootbench       where versions before it was (var_lib_t: refused
//                                   by SELinux); an experiment they started runs it,
//                                   and it is left in place
//   <state_dir>/results/<name>/     runs/<run>.json, runs/<run>/ raw logs, log, report.*
//   <state_dir>/staging.json        what start pinned while it staged targets (core/deployment/staging_pins)
#include "core/deployment/staging_pins.hpp"
#include "core/state/state.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace bootbench::sys {

namespace fs = std::filesystem;

struct StatePaths {
    fs::path dir;
    fs::path state() const { return dir / "state.json"; }
    fs::path initial_state() const { return dir / "state.initial.json"; }
    fs::path experiment() const { return dir / "experiment.toml"; }
    // dir is <var>/lib/bootbench; the unit's ExecStart names the same file.
    fs::path binary() const { return dir.parent_path().parent_path() / "usrlocal/bin/bootbench-resume"; }
    fs::path legacy_binary() const { return dir / "bin" / "bootbench"; }
    fs::path lock() const { return dir / "lock"; }
    fs::path staging() const { return dir / "staging.json"; }
    fs::path results(const std::string& experiment) const { return dir / "results" / experiment; }
};

// Throws bootbench::Error with the file's path and how to recover when the
// file is unreadable, truncated or not a valid state.
core::State load_state(const fs::path& file);
// nullopt when there is no state file (no experiment was started here).
std::optional<core::State> load_state_if_present(const fs::path& file);
void save_state(const fs::path& file, const core::State& s);

// nullopt when no staging is under way; throws naming the file when damaged.
std::optional<core::StagingPins> load_staging_pins(const fs::path& file);
void save_staging_pins(const fs::path& file, const core::StagingPins& p);

} // namespace bootbench::sys
