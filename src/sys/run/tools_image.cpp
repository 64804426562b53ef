#include "sys/run/tools_image.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "sys/store/files.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/store/user_lines.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <pwd.h>
#include <unistd.h>

namespace bootbench::sys {

namespace {

constexpr int kRemoveTries = 5;

// Runs a podman command to completion (bounded) and reads what it printed.
Captured podman(const std::vector<std::string>& args, double timeout_s) {
    std::vector<std::string> argv = {"podman"};
    argv.insert(argv.end(), args.begin(), args.end());
    return capture_process(argv, timeout_s);
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
    core::ToolsImage t;
    t.image = image;
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

// Root's store when this process is root (sudo), else this user's rootless one.
core::PodmanStore podman_store() {
    core::PodmanStore s;
    s.root = ::geteuid() == 0;
    if (!s.root) {
        const passwd* pw = ::getpwuid(::geteuid());
        s.user = pw ? pw->pw_name : "uid " + std::to_string(::geteuid());
    }
    Captured c = podman({"info", "--format", "{{.Store.GraphRoot}}"}, 60);
    if (c.status == 0)
        s.graph_root = core::printable(c.out.substr(0, c.out.find('\n')));
    return s;
}

} // namespace

core::ToolsImage resolve_tools_image(const std::string& image) {
    require_podman(image);
    core::PodmanStore store = podman_store();
    if (auto t = inspect(image)) {
        t->in_bench_cgroup = runs_without_cgroup();
        t->store = store;
        return *t;
    }
    throw input_error(core::not_in_store(store, image));
}

core::ToolsImage pull_tools_image(const std::string& image) {
    require_podman(image);
    if (auto t = inspect(image))
        return *t;
    say("pulling the tools image " + image);
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
