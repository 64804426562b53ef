#include "sys/ostree/binary_loads.hpp"

#include "core/host/loader_check.hpp"
#include "core/deployment/resolve.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/process/subprocess.hpp"

#include <algorithm>
#include <elf.h>
#include <link.h>
#include <map>
#include <optional>
#include <vector>

namespace bootbench::sys {

namespace {

constexpr int kMaxLinks = 40; // as the kernel's ELOOP bound
constexpr double kLoaderTimeoutS = 60;

int find_interp(dl_phdr_info* info, size_t, void* out) {
    for (int i = 0; i < info->dlpi_phnum; ++i)
        if (info->dlpi_phdr[i].p_type == PT_INTERP) {
            *static_cast<std::string*>(out) = reinterpret_cast<const char*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
            return 1;
        }
    return 1; // the first object is the program itself
}

// The folders the deployment's libraries are in: the loader's own folder
// (usr/lib64 on Fedora, usr/lib/x86_64-linux-gnu on Debian), then usr/lib64
// and usr/lib where they exist.
std::string library_path(const fs::path& root, const fs::path& loader) {
    std::vector<fs::path> dirs = {loader.parent_path()};
    for (const char* d : {"usr/lib64", "usr/lib"})
        if (auto p = path_in_tree(root, fs::path("/") / d); p && std::find(dirs.begin(), dirs.end(), *p) == dirs.end())
            dirs.push_back(*p);
    std::string out;
    for (const auto& d : dirs)
        out += (out.empty() ? "" : ":") + d.string();
    return out;
}

// /usr/bin/env (not looked up on PATH) so that no LD_PRELOAD of the caller's reaches the loader, and every
// symbol is bound when the binary loads (LD_BIND_NOW), not when first called.
std::vector<std::string> loader_argv(const fs::path& loader, const std::string& libs,
                                     std::vector<std::string> rest) {
    std::vector<std::string> argv = {"/usr/bin/env", "-u", "LD_PRELOAD", "-u", "LD_LIBRARY_PATH", "LD_BIND_NOW=1",
                                     loader.string(), "--inhibit-cache", "--library-path", libs};
    argv.insert(argv.end(), rest.begin(), rest.end());
    return argv;
}

std::string refused(const Captured& c, const std::string& doing) {
    std::string why = core::loader_refusal(c.err);
    if (!why.empty())
        return why;
    return c.status == 0 ? "" : doing + (c.status < 0 ? " did not finish" : " exited with " + std::to_string(c.status));
}

} // namespace

std::string program_interpreter() {
    std::string interp;
    dl_iterate_phdr(find_interp, &interp);
    return interp;
}

std::optional<fs::path> path_in_tree(const fs::path& root, const fs::path& path) {
    fs::path at = root, rest = path.relative_path();
    std::vector<fs::path> todo(rest.begin(), rest.end());
    std::reverse(todo.begin(), todo.end());
    for (int links = 0; !todo.empty();) {
        fs::path part = todo.back();
        todo.pop_back();
        if (part == "." || part.empty())
            continue;
        if (part == "..") {
            at = at == root ? root : at.parent_path();
            continue;
        }
        std::error_code ec;
        fs::path next = at / part;
        if (!fs::is_symlink(next, ec)) {
            if (!fs::exists(next, ec))
                return std::nullopt;
            at = next;
            continue;
        }
        if (++links > kMaxLinks)
            return std::nullopt;
        fs::path target = fs::read_symlink(next, ec);
        if (target.is_absolute())
            at = root;
        fs::path relative = target.relative_path();
        std::vector<fs::path> parts(relative.begin(), relative.end());
        todo.insert(todo.end(), parts.rbegin(), parts.rend());
    }
    return at;
}

std::string binary_load_problem(const fs::path& deployment, const fs::path& binary) {
    std::string interp = program_interpreter();
    auto loader = path_in_tree(deployment, interp);
    if (!loader) {
        if (fs::exists(deployment / "usr/share/bootbench-sandbox"))
            return "";
        return "there is no " + interp + " (the loader this binary names)";
    }
    std::string libs = library_path(deployment, *loader);
    Captured list = capture_process(loader_argv(*loader, libs, {"--list", binary.string()}), kLoaderTimeoutS);
    if (std::string why = refused(list, interp + " --list"); !why.empty())
        return why;
    if (std::string why = core::library_outside(core::parse_loader_list(list.out), deployment.string()); !why.empty())
        return why;
    Captured run = capture_process(loader_argv(*loader, libs, {binary.string(), "--version"}), kLoaderTimeoutS);
    return refused(run, "bootbench --version");
}

std::vector<std::string> binary_load_refusals(Sysroot& sysroot, const core::Experiment& e,
                                              const fs::path& binary) {
    auto deployments = sysroot.deployments();
    std::map<std::string, std::string> checked; // deployment folder -> problem
    std::vector<std::string> out;
    for (const auto& t : e.targets) {
        core::Resolution r = core::resolve_target(t, deployments);
        if (!r.deployment)
            continue;
        std::string dir = sysroot.deployment_dir(r.deployment->ref).string();
        if (!checked.count(dir))
            checked[dir] = binary_load_problem(dir, binary);
        if (!checked[dir].empty())
            out.push_back(core::binary_load_message(t.name, core::describe(r.deployment->ref), checked[dir]));
    }
    return out;
}

fs::path running_binary() {
    std::error_code ec;
    return fs::read_symlink("/proc/self/exe", ec);
}

} // namespace bootbench::sys
