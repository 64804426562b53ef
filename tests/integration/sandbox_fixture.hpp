#pragma once
// A sandbox sysroot for one test: built with libostree, booted with the
// emulated bootloader, running the real bootbench binary at every boot.
#include "core/experiment/experiment.hpp"
#include "core/state/state.hpp"
#include "sys/clock.hpp"
#include "sys/ostree/host.hpp"
#include "sys/orchestrator.hpp"
#include "sys/ostree/sandbox.hpp"
#include "sys/store/state_store.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::test {

namespace fs = std::filesystem;

// Two targets, `runs` each, and a suite of one fast `command` bench.
// `extra_experiment_keys` go into [experiment]; `target_b_keys` into b's table.
std::string fast_experiment(int runs, const std::string& extra_experiment_keys = "",
                            const std::string& target_b_keys = "",
                            const std::string& bench = "");

struct CliResult {
    int status = -1;
    std::string out, err;
};
// Runs the bootbench binary under test with `args`.
CliResult run_cli(const std::vector<std::string>& args);

// Variables set in this process's environment for one scope (what the
// sandbox's emulated boots inherit), the old values put back at its end.
class ScopedEnv {
public:
    explicit ScopedEnv(const std::map<std::string, std::string>& vars);
    ~ScopedEnv();
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> old_;
};

// A bisect file named `name` whose one `command` bench reads the booted
// build's number from its tree (usr/share/bootbench/sandbox-build) and
// measures work_done 15% lower from build `slow_from` on, in 3% noise;
// `bisect_keys` go into [bisect].
std::string sandbox_bisect_file(const std::string& name, int slow_from, const std::string& bisect_keys);

class Sandbox;
// Every deployment of the sandbox: no unit left in any /etc.
bool no_units_left(Sandbox& sb);
// `bootbench ARGS` as run on the sandbox's booted deployment (the one its
// emulated bootloader picks now), with tests/integration/standin_bootc.sh as
// `bootc` first on PATH (its calls in <dir>/bootc-calls) and `env` set.
CliResult run_on_sandbox(Sandbox& sb, const std::vector<std::string>& args,
                         const std::map<std::string, std::string>& env = {});

// Paths, sizes, modes and link targets of everything under `root`.
std::string tree_listing(const fs::path& root);

class Sandbox {
public:
    explicit Sandbox(const std::string& experiment_toml);
    ~Sandbox();
    Sandbox(const Sandbox&) = delete;
    Sandbox& operator=(const Sandbox&) = delete;

    void start(const nlohmann::json& images = nlohmann::json::object());
    sys::EmulatedBoot boot(); // one emulated boot
    // Boots until no reboot is asked for; returns the number of boots.
    int boot_until_done(int max_boots = 40);

    sys::SandboxHost host();
    sys::StatePaths paths();
    core::State state();
    fs::path results() { return paths().results(experiment.name); }
    std::map<std::string, std::string> result_files(); // run id -> content
    std::string booted_name(); // which target (or "host") the bootloader picks now
    std::string name_of(const fs::path& deployment_dir);

    core::Experiment experiment;
    std::string text;
    fs::path dir;
    sys::SandboxLayout layout;
    sys::RealClock clock;
};

} // namespace bootbench::test
