// bootbench simulate FILE: the whole experiment on a throwaway sandbox
// sysroot: real libostree deployments, the real unit in each, real
// benchmarks on this kernel, reboots emulated from the BLS entries.
#include "cli/commands.hpp"
#include "cli/experiment_file.hpp"
#include "core/error.hpp"
#include "core/plan.hpp"
#include "sys/clock.hpp"
#include "sys/files.hpp"
#include "sys/host.hpp"
#include "sys/images.hpp"
#include "sys/orchestrator.hpp"
#include "sys/results_folder.hpp"
#include "sys/sandbox.hpp"

#include <cstdlib>
#include <iostream>

namespace bootbench::cli {

namespace {

namespace fs = std::filesystem;

// Removes the temporary sandbox on every way out, unless the user named it.
class SandboxDir {
public:
    explicit SandboxDir(const std::optional<std::string>& given) : keep_(given.has_value()) {
        if (given) {
            path_ = *given;
            return;
        }
        std::string tmpl = (fs::temp_directory_path() / "bootbench-sandbox-XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            throw Error("cannot create a temporary sandbox folder in " + fs::temp_directory_path().string());
        path_ = tmpl;
    }
    ~SandboxDir() {
        if (!keep_) {
            try {
                sys::remove_sandbox(path_);
            } catch (const std::exception& e) {
                std::cerr << "bootbench: warning: " << e.what() << "\n";
            }
        }
    }
    SandboxDir(const SandboxDir&) = delete;
    SandboxDir& operator=(const SandboxDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
    bool keep_;
};

std::string name_of(const sys::SandboxLayout& layout, const fs::path& booted) {
    std::string leaf = booted.filename().string();
    for (const auto& [name, ref] : layout.targets)
        if (leaf == ref.checksum + "." + std::to_string(ref.serial))
            return name;
    return "host";
}

// Boots until no reboot is asked for. A process killed by a signal is a
// crash or power loss: the machine comes back and boots again.
void boot_until_done(const sys::SandboxLayout& layout, size_t max_boots) {
    for (size_t n = 1;; ++n) {
        if (n > max_boots)
            throw Error("the experiment did not finish within " + std::to_string(max_boots) +
                        " boots; the sandbox is kept for inspection");
        std::cerr << "--- boot " << n << ": " << name_of(layout, sys::emulated_boot_choice(layout.sysroot))
                  << "\n";
        sys::EmulatedBoot b = sys::emulate_boot(layout.sysroot);
        if (!b.unit_enabled)
            std::cerr << "--- boot " << n << ": no bootbench unit in this deployment\n";
        if (b.killed_by)
            std::cerr << "--- boot " << n << " ended by signal " << b.killed_by << ": power cycle\n";
        else if (b.exit_status != 0 && !b.reboot_requested)
            throw Error("boot " + std::to_string(n) + ": bootbench resume failed (exit " +
                        std::to_string(b.exit_status) + ") and asked for no reboot; the machine would sit here");
        if (!b.killed_by && !b.reboot_requested)
            return;
    }
}

} // namespace

int cmd_simulate(const Args& args) {
    args.expect_positional(1, "one experiment file");
    const std::string& file = args.positional()[0];
    ExperimentFile f = read_experiment_file(file);
    // The file's text is kept as written: the state carries `quick` to every boot.
    core::Experiment e = args.flag("quick") ? core::quick_version(f.experiment) : f.experiment;
    fs::path results = args.value("results").value_or((fs::path("results") / e.name).string());
    sys::check_results_destination(results); // before the experiment, not after an hour of it
    SandboxDir dir(args.value("sandbox"));
    std::cerr << "bootbench: building the sandbox sysroot in " << dir.path().string() << "\n";
    sys::SandboxLayout layout = sys::build_sandbox(dir.path(), e);
    sys::RealClock clock;
    {
        sys::StartOptions options;
        options.images = sys::resolve_images(e, std::cerr, sys::DigestPolicy::best_effort);
        sys::SandboxHost host(layout.sysroot, sys::emulated_boot_choice(layout.sysroot));
        sys::start_experiment(host, e, f.text, layout.targets, clock, options);
    }
    size_t runs = core::plan_runs(e).size();
    boot_until_done(layout, runs * static_cast<size_t>(e.max_attempts + 1) + 4);
    fs::path booted = sys::emulated_boot_choice(layout.sysroot);
    sys::SandboxHost host(layout.sysroot, booted);
    if (!(host.booted().ref == layout.host_default))
        throw Error("the experiment ended but the sandbox boots " + booted.string() +
                    ", not the original default deployment");
    sys::install_results_folder(sys::StatePaths{host.state_dir()}.results(e.name), results);
    std::cout << "experiment " << e.name << " finished on the sandbox; the machine boots its original "
              << "default again.\nreport: " << (results / "report.md").string() << "\n"
              << "        " << (results / "report.json").string() << "\n";
    return 0;
}

} // namespace bootbench::cli
