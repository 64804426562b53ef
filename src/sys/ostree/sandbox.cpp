#include "sys/ostree/sandbox.hpp"
#include "sys/probe/machine_id.hpp"
#include "sys/probe/probes.hpp"

#include "core/deployment/bls.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/gerror.hpp"
#include "sys/ostree/repo_history.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/ostree/unit_install.hpp"
#include "unit_text.hpp"

#include <cerrno>
#include <cstring>
#include <memory>

#include <fcntl.h>
#include <linux/fs.h>
#include <ostree.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace bootbench::sys {

namespace {

// A root filesystem tree for one commit: enough for libostree to deploy it
// (a kernel and initramfs under usr/lib/modules) and for a test to tell the
// targets apart (usr/share/bootbench-sandbox/name).
void write_tree(const fs::path& root, const std::string& name, const std::string& kver,
                const std::string& machine) {
    fs::path mod = root / "usr/lib/modules" / kver;
    make_dirs(mod);
    make_dirs(root / "usr/etc/systemd/system");
    make_dirs(root / "usr/share/bootbench-sandbox");
    write_file_atomic(mod / "vmlinuz", "bootbench sandbox kernel " + kver + "\n");
    write_file_atomic(mod / "initramfs.img", "bootbench sandbox initramfs " + kver + "\n");
    write_file_atomic(root / "usr/lib/os-release",
                      "NAME=\"bootbench sandbox\"\nID=bootbench-sandbox\nVERSION_ID=" + name + "\n");
    write_file_atomic(root / "usr/etc/hostname", "sandbox\n");
    write_file_atomic(root / "usr/etc/machine-id", machine + "\n");
    write_file_atomic(root / "usr/share/bootbench-sandbox/name", name + "\n");
}

// One commit of a sandbox tree: its ref in the repo, metadata "version",
// parent ("" none), subject, and time (seconds since the epoch; 0 now).
struct CommitSpec {
    std::string ref, version, parent, subject;
    guint64 time = 0;
};

std::string commit_tree(OstreeRepo* repo, const fs::path& tree, const CommitSpec& c) {
    std::string doing = "Committing the sandbox tree for " + c.ref;
    gcheck(doing, [&](GError** e) { return ostree_repo_prepare_transaction(repo, nullptr, nullptr, e); });
    g_autoptr(OstreeMutableTree) mtree = ostree_mutable_tree_new();
    g_autoptr(GFile) dir = g_file_new_for_path(tree.c_str());
    gcheck(doing, [&](GError** e) {
        return ostree_repo_write_directory_to_mtree(repo, dir, mtree, nullptr, nullptr, e);
    });
    g_autoptr(GFile) root = nullptr;
    gcheck(doing, [&](GError** e) { return ostree_repo_write_mtree(repo, mtree, &root, nullptr, e); });
    g_autoptr(GVariantBuilder) meta = g_variant_builder_new(G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(meta, "{sv}", OSTREE_COMMIT_META_KEY_VERSION, g_variant_new_string(c.version.c_str()));
    g_autoptr(GVariant) metadata = g_variant_ref_sink(g_variant_builder_end(meta));
    g_autofree char* checksum = nullptr;
    guint64 time = c.time ? c.time : static_cast<guint64>(g_get_real_time() / G_USEC_PER_SEC);
    gcheck(doing, [&](GError** e) {
        return ostree_repo_write_commit_with_time(repo, c.parent.empty() ? nullptr : c.parent.c_str(),
                                                  c.subject.empty() ? nullptr : c.subject.c_str(), nullptr,
                                                  metadata, OSTREE_REPO_FILE(root), time, &checksum, nullptr, e);
    });
    ostree_repo_transaction_set_ref(repo, nullptr, c.ref.c_str(), checksum);
    gcheck(doing, [&](GError** e) { return ostree_repo_commit_transaction(repo, nullptr, nullptr, e); });
    return checksum;
}

// The origin a real host would have for this selector, so that the same
// resolution rules see the same thing in the sandbox.
GKeyFile* origin_for(OstreeSysroot* s, const core::Target* t, const std::string& local_ref) {
    if (t && t->selector.kind == core::SelectorKind::image) {
        GKeyFile* kf = g_key_file_new();
        g_key_file_set_string(kf, "origin", "container-image-reference", t->selector.value.c_str());
        return kf;
    }
    bool refspec = t && t->selector.kind == core::SelectorKind::refspec;
    return ostree_sysroot_origin_new_from_refspec(s, refspec ? t->selector.value.c_str() : local_ref.c_str());
}

core::DeploymentRef deploy(OstreeSysroot* s, const std::string& csum, GKeyFile* origin,
                           const std::string& name) {
    std::string doing = "Deploying sandbox commit for " + name;
    OstreeDeployment* merge = ostree_sysroot_get_merge_deployment(s, kSandboxStateroot);
    const char* kargs[] = {"root=LABEL=sandbox", "rw", "quiet", nullptr};
    g_autoptr(OstreeDeployment) d = nullptr;
    gcheck(doing, [&](GError** e) {
        return ostree_sysroot_deploy_tree(s, kSandboxStateroot, csum.c_str(), origin, merge,
                                          const_cast<char**>(kargs), &d, nullptr, e);
    });
    gcheck(doing, [&](GError** e) {
        return ostree_sysroot_simple_write_deployment(
            s, kSandboxStateroot, d, merge, OSTREE_SYSROOT_SIMPLE_WRITE_DEPLOYMENT_FLAGS_RETAIN,
            nullptr, e);
    });
    gcheck(doing, [&](GError** e) { return ostree_sysroot_load(s, nullptr, e); });
    return {ostree_deployment_get_osname(d), ostree_deployment_get_csum(d),
            ostree_deployment_get_deployserial(d)};
}

void init_sysroot(OstreeSysroot* s, OstreeRepo** repo) {
    gcheck("Initialising the sandbox sysroot",
           [&](GError** e) { return ostree_sysroot_ensure_initialized(s, nullptr, e); });
    gcheck("Loading the sandbox sysroot", [&](GError** e) { return ostree_sysroot_load(s, nullptr, e); });
    gcheck("Opening the sandbox repo", [&](GError** e) { return ostree_sysroot_get_repo(s, repo, nullptr, e); });
    g_autoptr(GKeyFile) config = ostree_repo_copy_config(*repo);
    g_key_file_set_string(config, "sysroot", "bootloader", "none"); // BLS entries only
    gcheck("Configuring the sandbox repo", [&](GError** e) { return ostree_repo_write_config(*repo, config, e); });
    gcheck("Creating the sandbox stateroot", [&](GError** e) {
        return ostree_sysroot_init_osname(s, kSandboxStateroot, nullptr, e);
    });
}

// What every sandbox build starts from: an empty folder made a sysroot with
// its repo and stateroot, the running kernel's release and the emulated
// machine's own id (the same in every deployment), a folder for trees.
class SandboxBuild {
public:
    explicit SandboxBuild(const fs::path& dir) {
        make_dirs(dir);
        if (!fs::is_empty(dir))
            throw Error("the sandbox folder " + dir.string() + " is not empty; give an empty or new folder");
        sysroot = fs::canonical(dir);
        g_autoptr(GFile) path = g_file_new_for_path(sysroot.c_str());
        owned_s.reset(ostree_sysroot_new(path));
        s = owned_s.get();
        init_sysroot(s, &repo);
        owned_repo.reset(repo);
        trees = sysroot / "tmp-trees";
    }

    void finish() {
        fs::remove_all(trees);
        make_dirs(sysroot / "run");
    }

    fs::path sysroot, trees;
    std::unique_ptr<OstreeSysroot, void (*)(gpointer)> owned_s{nullptr, g_object_unref};
    std::unique_ptr<OstreeRepo, void (*)(gpointer)> owned_repo{nullptr, g_object_unref};
    OstreeSysroot* s = nullptr;
    OstreeRepo* repo = nullptr;
    std::string kver = kernel_release();
    std::string machine = random_machine_id();
};

} // namespace

SandboxLayout build_sandbox(const fs::path& dir, const core::Experiment& e) {
    SandboxBuild b(dir);
    SandboxLayout out;
    out.sysroot = b.sysroot;
    // Targets first, the host's own deployment last: it ends up the default.
    std::vector<const core::Target*> order;
    for (const auto& t : e.targets)
        order.push_back(&t);
    order.push_back(nullptr);
    for (const core::Target* t : order) {
        std::string name = t ? t->name : "host";
        std::string ref = "bootbench-sandbox/" + name;
        write_tree(b.trees / name, name, b.kver, b.machine);
        std::string csum = commit_tree(b.repo, b.trees / name, {ref, "sandbox-" + name, "", "", 0});
        g_autoptr(GKeyFile) origin = origin_for(b.s, t, ref);
        core::DeploymentRef d = deploy(b.s, csum, origin, name);
        (t ? out.targets[name] : out.host_default) = d;
    }
    b.finish();
    return out;
}

namespace {

constexpr const char* kHistoryRef = "bisect";

// The sandbox's remote: an archive repo (as a server has) configured in the
// sandbox's repo as remote "sandbox" at its file:// URL.
OstreeRepo* make_remote(SandboxBuild& b) {
    fs::path path = sandbox_remote(b.sysroot);
    g_autoptr(GFile) file = g_file_new_for_path(path.c_str());
    g_autoptr(OstreeRepo) remote = ostree_repo_new(file);
    gcheck("Creating the sandbox's remote repo " + path.string(),
           [&](GError** e) { return ostree_repo_create(remote, OSTREE_REPO_MODE_ARCHIVE, nullptr, e); });
    g_autoptr(GVariantBuilder) opts = g_variant_builder_new(G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(opts, "{sv}", "gpg-verify", g_variant_new_boolean(FALSE));
    g_autoptr(GVariant) options = g_variant_ref_sink(g_variant_builder_end(opts));
    std::string url = "file://" + path.string();
    gcheck("Configuring remote '" + std::string(kSandboxRemote) + "' at " + url, [&](GError** e) {
        return ostree_repo_remote_add(b.repo, kSandboxRemote, url.c_str(), options, nullptr, e);
    });
    return static_cast<OstreeRepo*>(g_steal_pointer(&remote));
}

// Build n: its tree tells the builds apart (usr/share/bootbench/sandbox-build).
std::string commit_build(SandboxBuild& b, OstreeRepo* remote, int n, const std::string& parent, guint64 time) {
    std::string name = "build-" + std::to_string(n);
    write_tree(b.trees / name, name, b.kver, b.machine);
    make_dirs(b.trees / name / "usr/share/bootbench");
    write_file_atomic(b.trees / name / "usr/share/bootbench/sandbox-build", std::to_string(n) + "\n");
    return commit_tree(remote, b.trees / name,
                       {kHistoryRef, std::to_string(n), parent, "sandbox build " + std::to_string(n), time});
}

// The host has build 0 as it would after an upgrade to it: pulled whole,
// the remote-tracking ref at it.
void pull_first(SandboxBuild& b, const SandboxHistory& h) {
    pull_from_remote(b.repo, {kSandboxRemote, {h.commits.front()}, 0, false, "Pulling sandbox build 0"});
    gcheck("Setting " + h.refspec + " to sandbox build 0", [&](GError** e) {
        return ostree_repo_set_ref_immediate(b.repo, kSandboxRemote, kHistoryRef, h.commits.front().c_str(),
                                             nullptr, e);
    });
}

} // namespace

SandboxHistory build_sandbox_history(const fs::path& dir, int builds) {
    if (builds < 1)
        throw Error("a sandbox history needs at least one build, not " + std::to_string(builds));
    SandboxBuild b(dir);
    SandboxHistory out{b.sysroot, {}, std::string(kSandboxRemote) + ":" + kHistoryRef, {}};
    g_autoptr(OstreeRepo) remote = make_remote(b);
    // A build a day, the last one today: timestamps as an image's builds have.
    auto now = static_cast<guint64>(g_get_real_time() / G_USEC_PER_SEC);
    for (int n = 0; n < builds; ++n)
        out.commits.push_back(commit_build(b, remote, n, n ? out.commits.back() : "",
                                           now - static_cast<guint64>(builds - 1 - n) * 86400));
    pull_first(b, out);
    g_autoptr(GKeyFile) origin = ostree_sysroot_origin_new_from_refspec(b.s, out.refspec.c_str());
    out.host_default = deploy(b.s, out.commits.front(), origin, "host");
    b.finish();
    return out;
}

fs::path emulated_boot_choice(const fs::path& sysroot) {
    fs::path entries_dir = sysroot / "boot/loader/entries";
    std::vector<core::BlsEntry> entries;
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(entries_dir, ec))
        if (f.path().extension() == ".conf")
            entries.push_back(core::parse_bls_entry(read_text_file(f.path()), f.path().filename()));
    auto chosen = core::default_entry(entries);
    if (!chosen)
        throw Error("the emulated bootloader found no boot entries in " + entries_dir.string());
    std::string ostree = core::ostree_karg(chosen->options);
    if (ostree.empty())
        throw Error("boot entry " + chosen->file + " has no ostree= argument: " + chosen->options);
    fs::path target = fs::canonical(sysroot / fs::path(ostree).relative_path(), ec);
    if (ec)
        throw Error("boot entry " + chosen->file + ": " + ostree + " does not resolve under " +
                    sysroot.string() + ": " + ec.message());
    return target;
}

void remove_sandbox(const fs::path& dir) {
    std::error_code ec;
    fs::path deploy_root = dir / "ostree/deploy" / kSandboxStateroot / "deploy";
    for (const auto& d : fs::directory_iterator(deploy_root, ec)) {
        int fd = ::open(d.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
            continue;
        int flags = 0;
        if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_IMMUTABLE_FL)) {
            flags &= ~FS_IMMUTABLE_FL;
            ::ioctl(fd, FS_IOC_SETFLAGS, &flags);
        }
        ::close(fd);
    }
    fs::remove_all(dir, ec);
    if (ec)
        throw Error("cannot remove the sandbox " + dir.string() + ": " + ec.message());
}

} // namespace bootbench::sys

namespace bootbench::sys {

namespace {

std::vector<std::string> exec_start(const fs::path& unit_file) {
    std::vector<std::string> argv = exec_start_argv(read_text_file(unit_file));
    if (argv.empty())
        throw Error(unit_file.string() + " has no ExecStart=");
    return argv;
}

// /var/... lives in the stateroot's var; anything else in the deployment.
fs::path map_into_boot(const fs::path& booted_dir, const std::string& path) {
    if (path.rfind("/var/", 0) == 0)
        return booted_dir.parent_path().parent_path() / "var" / path.substr(5);
    return booted_dir / fs::path(path).relative_path();
}

} // namespace

EmulatedBoot emulate_boot(const fs::path& sysroot, const InterruptWatch* watch) {
    EmulatedBoot boot;
    std::error_code ec;
    fs::remove(reboot_request(sysroot), ec);
    boot.booted_dir = emulated_boot_choice(sysroot);
    fs::path etc = boot.booted_dir / "etc";
    boot.unit_enabled = unit_installed(etc);
    if (!boot.unit_enabled)
        return boot;
    std::vector<std::string> argv = exec_start(etc / "systemd/system" / kResumeUnitName);
    argv[0] = map_into_boot(boot.booted_dir, argv[0]).string();
    Ending ended = run_attached(
        argv, {{kSandboxEnv, sysroot.string()}, {kSandboxBootedEnv, boot.booted_dir.string()}}, watch,
        &boot.interrupted_by);
    boot.exit_status = ended.end == ProcessEnd::exited ? ended.exit_status : -1;
    boot.killed_by = ended.end == ProcessEnd::signaled ? ended.signal : 0;
    boot.reboot_requested = fs::exists(reboot_request(sysroot), ec);
    return boot;
}

} // namespace bootbench::sys
