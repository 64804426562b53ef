#include "sys/ostree/host_writes.hpp"

#include "core/base/error.hpp"
#include "core/host/exec_label.hpp"
#include "sys/probe/probes.hpp"
#include "sys/ostree/gerror.hpp"
#include "sys/store/user_lines.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <ostree.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace bootbench::sys {

namespace fs = std::filesystem;

namespace {

// Whether `path` is on a read-only mount; nullopt when it cannot be looked at.
std::optional<bool> read_only(const char* path) {
    struct statvfs st{};
    if (::statvfs(path, &st) != 0)
        return std::nullopt;
    return (st.f_flag & ST_RDONLY) != 0;
}

void enter_private_namespace() {
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) != 0)
        throw Error(std::string("cannot enter a private mount namespace to write into other "
                                "deployments: ") + std::strerror(errno));
    if (::mount(nullptr, "/sysroot", nullptr, MS_REMOUNT | MS_BIND, nullptr) != 0 &&
        ::mount(nullptr, "/sysroot", nullptr, MS_REMOUNT | MS_RELATIME, nullptr) != 0)
        throw Error(std::string("cannot remount /sysroot read-write in a private mount namespace: ") +
                    std::strerror(errno));
}

} // namespace

// The system's view of /sysroot is PID 1's (/proc/1/root); ours may already
// be a private namespace where it is writable (libostree enters one for its
// own writes, ostree_sysroot_initialize_with_mount_namespace).
void make_sysroot_writable_privately() {
    static bool said = false;
    if (!read_only("/proc/1/root/sysroot").value_or(read_only("/sysroot").value_or(false)))
        return;
    if (read_only("/sysroot").value_or(false))
        enter_private_namespace();
    if (!said) // once per process: on a read-only sysroot this is the only way in
        say("/sysroot is read-only: writing into other deployments from a private mount namespace");
    said = true;
}

void label_in_deployment(const fs::path& deployment_dir, const std::vector<std::string>& files) {
    if (::access("/sys/fs/selinux/enforce", F_OK) != 0)
        return; // SELinux is off: nothing to label
    int dfd = ::open(deployment_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        throw Error("cannot open " + deployment_dir.string() + ": " + std::strerror(errno));
    GError* error = nullptr;
    g_autoptr(OstreeSePolicy) policy = ostree_sepolicy_new_at(dfd, nullptr, &error);
    ::close(dfd);
    if (!policy)
        throw_gerror(error, "Loading the SELinux policy of " + deployment_dir.string());
    if (!ostree_sepolicy_get_name(policy))
        return; // the deployment has no policy
    for (const auto& f : files) {
        g_autoptr(GFile) target = g_file_new_for_path((deployment_dir / fs::path(f).relative_path()).c_str());
        gcheck("Labelling " + f + " in " + deployment_dir.string(), [&](GError** e) {
            return ostree_sepolicy_restorecon(policy, f.c_str(), nullptr, target,
                                              OSTREE_SEPOLICY_RESTORECON_FLAGS_ALLOW_NOLABEL, nullptr,
                                              nullptr, e);
        });
    }
}

void apply_exec_label(const fs::path& file, const std::string& label) {
    if (!label.empty() &&
        ::setxattr(file.c_str(), "security.selinux", label.c_str(), label.size() + 1, 0) != 0)
        throw Error("cannot label " + file.string() + " " + label + ": " + std::strerror(errno) +
                    "; nothing else was changed");
    std::string problem = core::exec_label_problem(file.string(), selinux_label(file));
    if (!problem.empty())
        throw Error(problem + " (the label read back after start set " +
                    (label.empty() ? std::string("none: the policy has none for it") : label) +
                    "); nothing else was changed. See 'ls -Z " + file.string() + "' and 'matchpathcon " +
                    file.string() + "' (it should say " + core::kExecType + ")");
}

void label_executable(const fs::path& file) {
    if (::access("/sys/fs/selinux/enforce", F_OK) != 0)
        return; // SELinux is off: nothing refuses to run it
    GError* error = nullptr;
    g_autoptr(GFile) root = g_file_new_for_path("/");
    g_autoptr(OstreeSePolicy) policy = ostree_sepolicy_new(root, nullptr, &error);
    if (!policy)
        throw_gerror(error, "Loading the SELinux policy of the booted deployment");
    g_autofree char* label = nullptr;
    if (ostree_sepolicy_get_name(policy))
        gcheck("Looking up the SELinux label of " + file.string(), [&](GError** e) {
            return ostree_sepolicy_get_label(policy, file.c_str(), S_IFREG | 0755, &label, nullptr, e);
        });
    apply_exec_label(file, label ? label : "");
}

} // namespace bootbench::sys
