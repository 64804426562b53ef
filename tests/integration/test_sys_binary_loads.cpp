// start and plan load bootbench with each target deployment's own loader and
// libraries: a deployment that lacks a library, or has an older libstdc++
// without a symbol version the binary needs, is refused before anything changes.
#include "../unit/catch.hpp"
#include "helpers.hpp"
#include "sandbox_fixture.hpp"

#include "core/host/loader_check.hpp"
#include "core/state/state.hpp"
#include "sys/ostree/binary_loads.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/store/files.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sstream>
#include <sys/ioctl.h>
#include <unistd.h>

using namespace bootbench;
using namespace bootbench::test;
using testing::TempDir;

namespace {

// The deployment root is immutable (libostree sets it where it can): clear
// it to add the /lib64 link every usr-merged tree has.
void add_root_link(const fs::path& deployment, const std::string& name, const std::string& target) {
    int fd = ::open(deployment.c_str(), O_RDONLY | O_DIRECTORY);
    int flags = 0;
    if (fd >= 0 && ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_IMMUTABLE_FL)) {
        flags &= ~FS_IMMUTABLE_FL;
        ::ioctl(fd, FS_IOC_SETFLAGS, &flags);
    }
    if (fd >= 0)
        ::close(fd);
    fs::create_directory_symlink(target, deployment / name);
}

// What this machine's loader resolves for bootbench: library name -> path.
std::vector<core::LoadedLibrary> host_libraries() {
    sys::Captured c = sys::capture_process({sys::program_interpreter(), "--list", BOOTBENCH_BIN}, 60);
    REQUIRE(c.status == 0);
    return core::parse_loader_list(c.out);
}

// A usr-merged deployment with this machine's loader and bootbench's
// libraries in usr/lib64, except `left_out`.
void give_libraries(const fs::path& deployment, const std::string& left_out) {
    fs::path lib = deployment / "usr/lib64";
    fs::create_directories(lib);
    add_root_link(deployment, "lib64", "usr/lib64");
    fs::path interp = sys::program_interpreter();
    fs::copy_file(fs::canonical(interp), lib / interp.filename());
    for (const auto& l : host_libraries())
        if (l.name != left_out)
            fs::copy_file(fs::canonical(l.path), lib / l.name);
}

// The symbol versions bootbench needs from `library` (readelf -V, the test's
// own reading; the check itself asks the loader).
std::vector<std::string> needed_versions(const std::string& library) {
    sys::Captured c = sys::capture_process({"readelf", "--version-info", "--wide", BOOTBENCH_BIN}, 60);
    REQUIRE(c.status == 0);
    std::vector<std::string> out;
    std::istringstream in(c.out);
    bool in_library = false;
    for (std::string line, word; std::getline(in, line);) {
        if (line.find("File: ") != std::string::npos)
            in_library = line.find("File: " + library) != std::string::npos;
        size_t name = line.find("Name: ");
        if (in_library && name != std::string::npos) {
            std::istringstream(line.substr(name + 6)) >> word;
            out.push_back(word);
        }
    }
    return out;
}

// An "older" libstdc++.so.6: every version bootbench needs but `missing`,
// built with a version script (one dummy symbol per version).
void older_libstdcxx(const fs::path& dir, const std::vector<std::string>& versions, const std::string& missing) {
    std::string script, source;
    for (size_t i = 0; i < versions.size(); ++i) {
        if (versions[i] == missing)
            continue;
        script += versions[i] + " { global: stub_" + std::to_string(i) + "; };\n";
        source += "extern \"C\" int stub_" + std::to_string(i) + "() { return 0; }\n";
    }
    sys::write_file_atomic(dir / "stub.map", script);
    sys::write_file_atomic(dir / "stub.cpp", source);
    fs::path so = dir / "libstdc++.so.6";
    sys::Captured c = sys::capture_process({TEST_CXX, "-shared", "-fPIC", "-nostdlib", "-Wl,-soname,libstdc++.so.6",
                                            "-Wl,--version-script=" + (dir / "stub.map").string(),
                                            "-o", so.string(), (dir / "stub.cpp").string()}, 120);
    INFO(c.err);
    REQUIRE(c.status == 0);
}

std::string refusal(const Sandbox& sb, const std::string& problem) {
    return "bootbench: error: " +
           core::binary_load_message("b", core::describe(sb.layout.targets.at("b")), problem) +
           "\nnothing was changed\n";
}

void check_refused(const Sandbox& sb, const fs::path& file, const std::string& problem) {
    std::string before = tree_listing(sb.layout.sysroot);
    // --no-reboot: were the check to let it through, start would not reboot this machine.
    CliResult start = run_cli({"start", "--no-reboot", "--sysroot", sb.layout.sysroot.string(), file.string()});
    INFO(start.out);
    CHECK(start.status == 2);
    CHECK(start.err == refusal(sb, problem));
    CliResult plan = run_cli({"plan", "--sysroot", sb.layout.sysroot.string(), file.string()});
    INFO(plan.out + plan.err);
    CHECK(plan.status == 2);
    CHECK(plan.out.empty());
    CHECK(plan.err == refusal(sb, problem));
    CHECK(tree_listing(sb.layout.sysroot) == before);
}

} // namespace

TEST_CASE("a target whose deployment lacks a library bootbench needs is refused", "[loader]") {
    Sandbox sb(fast_experiment(1));
    fs::path b = sys::Sysroot(sb.layout.sysroot).deployment_dir(sb.layout.targets.at("b"));
    std::string host_curl;
    for (const auto& l : host_libraries())
        if (l.name == "libcurl.so.4")
            host_curl = l.path;
    REQUIRE(!host_curl.empty());
    give_libraries(b, "libcurl.so.4");
    fs::path file = sb.dir / "exp.toml";
    sys::write_file_atomic(file, sb.text);
    // The deployment's loader falls back to its built-in folders, this machine's:
    // where it found the library there, the check says so.
    check_refused(sb, file, "libcurl.so.4 is missing (the loader found only this machine's " + host_curl + ")");
}

TEST_CASE("a target whose libstdc++ lacks a symbol version bootbench needs is refused", "[loader]") {
    Sandbox sb(fast_experiment(1));
    fs::path b = sys::Sysroot(sb.layout.sysroot).deployment_dir(sb.layout.targets.at("b"));
    std::vector<std::string> versions = needed_versions("libstdc++.so.6");
    REQUIRE(versions.size() > 1);
    std::string missing = versions.back();
    give_libraries(b, "libstdc++.so.6");
    older_libstdcxx(b / "usr/lib64", versions, missing);
    fs::path file = sb.dir / "exp.toml";
    sys::write_file_atomic(file, sb.text);
    check_refused(sb, file, "libstdc++.so.6 has no symbol version " + missing);
}

TEST_CASE("a target whose deployment has every library bootbench needs is not refused", "[loader]") {
    Sandbox sb(fast_experiment(1));
    fs::path b = sys::Sysroot(sb.layout.sysroot).deployment_dir(sb.layout.targets.at("b"));
    give_libraries(b, "");
    CHECK(sys::binary_load_problem(b, BOOTBENCH_BIN).empty());
    fs::path file = sb.dir / "exp.toml";
    sys::write_file_atomic(file, sb.text);
    CliResult dry = run_cli({"start", "--dry-run", "--sysroot", sb.layout.sysroot.string(), file.string()});
    INFO(dry.err);
    CHECK(dry.status == 0);
    CHECK(dry.out.find("dry run: nothing is changed") != std::string::npos);
}

TEST_CASE("a deployment's loader is found through its own links, never this machine's", "[loader]") {
    TempDir dir;
    fs::path root = dir.path();
    fs::create_directories(root / "usr/lib/x86_64-linux-gnu");
    sys::write_file_atomic(root / "usr/lib/x86_64-linux-gnu/ld.so", "");
    fs::create_directory_symlink("usr/lib64", root / "lib64");
    fs::create_directories(root / "usr/lib64");
    fs::create_symlink("/lib/x86_64-linux-gnu/ld.so", root / "usr/lib64/ld.so"); // absolute: from the tree's /
    fs::create_directory_symlink("usr/lib", root / "lib");
    CHECK(sys::path_in_tree(root, "/lib64/ld.so") == root / "usr/lib/x86_64-linux-gnu/ld.so");
    CHECK(sys::path_in_tree(root, "/lib64/../../../etc") == std::nullopt); // stays in the tree: no etc there
    fs::create_symlink("loop", root / "loop");
    CHECK(sys::path_in_tree(root, "/loop/x") == std::nullopt);
}
