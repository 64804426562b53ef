#include "sandbox_fixture.hpp"
#include "helpers.hpp"

#include "sys/ostree/unit_install.hpp"
#include "sys/store/files.hpp"

#include <cstdlib>
#include <optional>
#include <unistd.h>
#include <nlohmann/json.hpp>

namespace bootbench::test {

std::string fast_experiment(int runs, const std::string& extra, const std::string& target_b_keys,
                            const std::string& bench) {
    std::string suite = bench.empty() ? "echo 'value 42.5'" : bench;
    return "[experiment]\nname = \"loop\"\nruns = " + std::to_string(runs) +
           "\nbaseline = \"a\"\n" + extra +
           "\n[[target]]\nname = \"a\"\nrefspec = \"sandbox:test/a\"\n"
           "\n[[target]]\nname = \"b\"\nimage = \"ostree-image-signed:docker://ghcr.io/x/b:stable\"\n" +
           target_b_keys +
           "\n[conditions]\nsettle_s = 0\nmax_start_temp_c = 200.0\ntemp_wait_timeout_s = 1\n"
           "\n[[bench]]\nkind = \"command\"\nname = \"echo\"\nargv = [\"/bin/sh\", \"-c\", \"" + suite + "\"]\n"
           "timeout_s = 2\n[[bench.metric]]\nkey = \"echo_value\"\nregex = 'value ([0-9.]+)'\n"
           "unit = \"x\"\nbetter = \"higher\"\n";
}

CliResult run_cli(const std::vector<std::string>& args) {
    fs::path out = fs::temp_directory_path() / ("bootbench-cli-out-" + std::to_string(::getpid()));
    fs::path err = out.string() + ".err";
    std::vector<std::string> argv = {BOOTBENCH_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    sys::Ending ending = testing::run_program(argv, out, err);
    CliResult r;
    r.status = ending.end == sys::ProcessEnd::exited ? ending.exit_status : -1;
    r.out = sys::read_text_file(out);
    r.err = sys::read_text_file(err);
    fs::remove(out);
    fs::remove(err);
    return r;
}

ScopedEnv::ScopedEnv(const std::map<std::string, std::string>& vars) {
    for (const auto& [name, value] : vars) {
        const char* old = std::getenv(name.c_str());
        old_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
        ::setenv(name.c_str(), value.c_str(), 1);
    }
}

ScopedEnv::~ScopedEnv() {
    for (const auto& [name, value] : old_)
        value ? ::setenv(name.c_str(), value->c_str(), 1) : ::unsetenv(name.c_str());
}

std::string sandbox_bisect_file(const std::string& name, int slow_from, const std::string& bisect_keys) {
    std::string script = "n=$(cat \"$BOOTBENCH_SANDBOX_BOOTED/usr/share/bootbench/sandbox-build\"); "
                         "r=$(od -An -N2 -tu2 /dev/urandom); echo \"value $(( 1000 - (n >= " +
                         std::to_string(slow_from) + ") * 150 + r % 30 ))\"";
    return "[experiment]\nname = \"" + name + "\"\n"
           "\n[conditions]\nsettle_s = 0\nmax_start_temp_c = 200.0\ntemp_wait_timeout_s = 1\n"
           "\n[[bench]]\nkind = \"command\"\nname = \"work\"\nargv = [\"/bin/sh\", \"-c\", '" + script +
           "']\ntimeout_s = 5\n[[bench.metric]]\nkey = \"work_done\"\nregex = 'value ([0-9.]+)'\n"
           "unit = \"ops\"\nbetter = \"higher\"\n\n[bisect]\n" + bisect_keys;
}

CliResult run_on_sandbox(Sandbox& sb, const std::vector<std::string>& args,
                         const std::map<std::string, std::string>& env) {
    fs::path bin = sb.dir / "bin";
    fs::create_directories(bin);
    if (!fs::exists(fs::symlink_status(bin / "bootc")))
        fs::create_symlink(STANDIN_BOOTC, bin / "bootc");
    std::map<std::string, std::string> vars = {
        {sys::kSandboxEnv, sb.layout.sysroot.string()},
        {sys::kSandboxBootedEnv, sys::emulated_boot_choice(sb.layout.sysroot).string()},
        {"PATH", bin.string() + ":" + std::getenv("PATH")},
        {"STANDIN_CALLS", (sb.dir / "bootc-calls").string()}};
    for (const auto& [name, value] : env)
        vars[name] = value;
    ScopedEnv scoped(vars);
    return run_cli(args);
}

std::string tree_listing(const fs::path& root) {
    std::string s;
    for (const auto& e : fs::recursive_directory_iterator(root, fs::directory_options::none)) {
        auto st = fs::symlink_status(e.path());
        s += e.path().lexically_relative(root).string() + " " + std::to_string(static_cast<int>(st.type())) + " " +
             std::to_string(static_cast<unsigned>(st.permissions()));
        if (fs::is_symlink(st))
            s += " -> " + fs::read_symlink(e.path()).string();
        else if (fs::is_regular_file(st))
            s += " " + std::to_string(fs::file_size(e.path())) + " " +
                 std::to_string(fs::last_write_time(e.path()).time_since_epoch().count());
        s += "\n";
    }
    return s;
}

bool no_units_left(Sandbox& sb) {
    sys::SandboxHost h = sb.host();
    for (const auto& d : h.sysroot().deployments())
        if (sys::unit_installed(h.etc_dir(d.ref)))
            return false;
    return true;
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

void Sandbox::start(const nlohmann::json& images) {
    sys::SandboxHost h = host();
    sys::StartOptions options;
    options.binary = BOOTBENCH_BIN;
    options.images = images;
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
