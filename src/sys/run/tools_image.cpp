#include "sys/run/tools_image.hpp"

#include "core/error.hpp"
#include "core/text.hpp"
#include "sys/store/files.hpp"
#include "sys/process/subprocess.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace bootbench::sys {

namespace {

constexpr int kRemoveTries = 5;

struct Captured {
    int status = -1; // exit status, -1 when it did not exit by itself in time
    std::string out, err;
};

// Runs a podman command to completion (bounded) and reads what it printed.
Captured podman(const std::vector<std::string>& args, double timeout_s) {
    std::string pattern = (fs::temp_directory_path() / "bootbench-podman-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        throw Error("cannot create a temporary folder for podman's output");
    fs::path dir = pattern;
    std::vector<std::string> argv = {"podman"};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessOutcome o = run_process({argv, dir / "out", dir / "err", timeout_s});
    Captured c{o.end == ProcessEnd::exited ? o.exit_status : -1, read_text_file(dir / "out"),
               read_text_file(dir / "err")};
    std::error_code ec;
    fs::remove_all(dir, ec);
    return c;
}

void require_podman(const std::string& image) {
    if (!find_program("podman"))
        throw input_error("[tools] image = \"" + image + "\" needs podman, which is not installed here: " +
                          "'apt install podman' (Debian) or 'dnf install podman' (Fedora; Fedora Atomic "
                          "images ship it), or set image = \"host\"");
}

std::optional<core::ToolsImage> inspect(const std::string& image) {
    Captured c = podman({"image", "inspect", "--format", "{{.Id}} {{.Digest}}", image}, 60);
    if (c.status != 0)
        return std::nullopt;
    std::istringstream words(c.out);
    core::ToolsImage t{image, "", ""};
    words >> t.id >> t.digest;
    if (t.id.empty())
        return std::nullopt;
    return t;
}

// Whether podman can run a container without a cgroup of its own: crun on
// cgroup v2 (runc refuses "NoCgroups", and crun refuses cgroup v1).
bool runs_without_cgroup() {
    Captured c = podman({"info", "--format", "{{.Host.OCIRuntime.Name}} {{.Host.CgroupsVersion}}"}, 60);
    std::istringstream words(c.out);
    std::string runtime, version;
    words >> runtime >> version;
    return c.status == 0 && runtime == "crun" && version == "v2";
}

} // namespace

core::ToolsImage resolve_tools_image(const std::string& image) {
    require_podman(image);
    if (auto t = inspect(image)) {
        t->in_bench_cgroup = runs_without_cgroup();
        return *t;
    }
    throw input_error("the tools image " + image + " is not in podman's local store: 'podman pull " + image +
                      "', or build it ('podman build -t " + image +
                      " containers/bench-tools'); start pulls it by itself");
}

core::ToolsImage pull_tools_image(const std::string& image) {
    require_podman(image);
    if (auto t = inspect(image))
        return *t;
    std::fprintf(stderr, "bootbench: pulling the tools image %s\n", image.c_str());
    Captured c = podman({"pull", "--quiet", image}, 1800);
    if (c.status != 0)
        throw input_error("cannot pull the tools image " + image + ": " +
                          core::printable(core::cap_text(c.err, 400, "podman's answer")) +
                          "; nothing on this machine was changed");
    return resolve_tools_image(image);
}

// On a loaded machine podman may give up waiting for conmon's exit file
// ("could not be stopped: timed out waiting for file /run/libpod/exits/..."):
// the container is dead by then or soon, and the next try removes it.
std::string remove_container(const std::string& name) {
    std::string err;
    for (int attempt = 1; attempt <= kRemoveTries; ++attempt) {
        if (attempt > 1)
            ::sleep(1);
        Captured c = podman({"rm", "--force", "--ignore", "--time", "2", name}, 60);
        if (c.status == 0)
            return "";
        err = core::printable(c.err);
    }
    return "podman rm --force " + name + " failed " + std::to_string(kRemoveTries) + " times: " + err;
}

} // namespace bootbench::sys
