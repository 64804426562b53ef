#include "sandbox_fixture.hpp"

#include "sys/files.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace bootbench::test {

std::string fast_experiment(int runs, const std::string& extra) {
    return "[experiment]\nname = \"loop\"\nruns = " + std::to_string(runs) +
           "\nbaseline = \"a\"\n" + extra +
           "\n[[target]]\nname = \"a\"\nrefspec = \"sandbox:test/a\"\n"
           "\n[[target]]\nname = \"b\"\nimage = \"ostree-image-signed:docker://ghcr.io/x/b:stable\"\n"
           "\n[conditions]\nsettle_s = 0\nmax_start_temp_c = 200.0\ntemp_wait_timeout_s = 1\n"
           "\n[[bench]]\nkind = \"command\"\nname = \"echo\"\nargv = [\"/bin/sh\", \"-c\", \"echo 'value 42.5'\"]\n"
           "timeout_s = 30\n[[bench.metric]]\nkey = \"echo_value\"\nregex = 'value ([0-9.]+)'\n"
           "unit = \"x\"\nbetter = \"higher\"\n";
}

Sandbox::Sandbox(const std::string& experiment_toml)
    : experiment(core::parse_experiment(experiment_toml, "test.toml")), text(experiment_toml) {
    std::string tmpl = (fs::temp_directory_path() / "bootbench-test-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
        throw std::runtime_error("mkdtemp failed");
    dir = tmpl;
    layout = sys::build_sandbox(dir / "sysroot", experiment);
}

Sandbox::~Sandbox() {
    if (!std::getenv("KEEP_SANDBOX"))
        sys::remove_sandbox(dir / "sysroot"), fs::remove_all(dir);
}

sys::SandboxHost Sandbox::host() {
    return sys::SandboxHost(layout.sysroot, sys::emulated_boot_choice(layout.sysroot));
}

sys::StatePaths Sandbox::paths() { return sys::StatePaths{host().state_dir()}; }

core::State Sandbox::state() { return sys::load_state(paths().state()); }

void Sandbox::start() {
    sys::SandboxHost h = host();
    sys::StartOptions options;
    options.binary = BOOTBENCH_BIN;
    sys::start_experiment(h, experiment, text, layout.targets, clock, options);
}

sys::EmulatedBoot Sandbox::boot() { return sys::emulate_boot(layout.sysroot); }

int Sandbox::boot_until_done(int max_boots) {
    for (int n = 1; n <= max_boots; ++n) {
        sys::EmulatedBoot b = boot();
        if (!b.killed_by && !b.reboot_requested)
            return n;
    }
    throw std::runtime_error("no end after " + std::to_string(max_boots) + " boots");
}

std::map<std::string, std::string> Sandbox::result_files() {
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(results() / "runs", ec))
        if (f.path().extension() == ".json")
            out[f.path().stem().string()] = sys::read_text_file(f.path());
    return out;
}

std::string Sandbox::name_of(const fs::path& deployment_dir) {
    std::string leaf = deployment_dir.filename().string();
    for (const auto& [name, ref] : layout.targets)
        if (leaf == ref.checksum + "." + std::to_string(ref.serial))
            return name;
    return "host";
}

std::string Sandbox::booted_name() { return name_of(sys::emulated_boot_choice(layout.sysroot)); }

} // namespace bootbench::test
