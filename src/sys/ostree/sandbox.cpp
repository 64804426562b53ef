#include "sys/ostree/sandbox.hpp"
#include "sys/probe/machine_id.hpp"
#include "sys/probe/probes.hpp"

#include "core/deployment/bls.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/gerror.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/ostree/unit_install.hpp"
#include "unit_text.hpp"

#include <cerrno>
#include <cstring>

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

std::string commit_tree(OstreeRepo* repo, const fs::path& tree, const std::string& ref,
                        const std::string& version) {
    std::string doing = "Committing the sandbox tree for " + ref;
    gcheck(doing, [&](GError** e) { return ostree_repo_prepare_transaction(repo, nullptr, nullptr, e); });
    g_autoptr(OstreeMutableTree) mtree = ostree_mutable_tree_new();
    g_autoptr(GFile) dir = g_file_new_for_path(tree.c_str());
    gcheck(doing, [&](GError** e) {
        return ostree_repo_write_directory_to_mtree(repo, dir, mtree, nullptr, nullptr, e);
    });
    g_autoptr(GFile) root = nullptr;
    gcheck(doing, [&](GError** e) { return ostree_repo_write_mtree(repo, mtree, &root, nullptr, e); });
    g_autoptr(GVariantBuilder) meta = g_variant_builder_new(G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(meta, "{sv}", "version", g_variant_new_string(version.c_str()));
    g_autoptr(GVariant) metadata = g_variant_ref_sink(g_variant_builder_end(meta));
    g_autofree char* checksum = nullptr;
    gcheck(doing, [&](GError** e) {
        return ostree_repo_write_commit(repo, nullptr, ref.c_str(), nullptr, metadata,
                                        OSTREE_REPO_FILE(root), &checksum, nullptr, e);
    });
    ostree_repo_transaction_set_ref(repo, nullptr, ref.c_str(), checksum);
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

} // namespace

SandboxLayout build_sandbox(const fs::path& dir, const core::Experiment& e) {
    make_dirs(dir);
    if (!fs::is_empty(dir))
        throw Error("the sandbox folder " + dir.string() + " is not empty; give an empty or new folder");
    SandboxLayout out;
    out.sysroot = fs::canonical(dir);
    g_autoptr(GFile) path = g_file_new_for_path(out.sysroot.c_str());
    g_autoptr(OstreeSysroot) s = ostree_sysroot_new(path);
    g_autoptr(OstreeRepo) repo = nullptr;
    init_sysroot(s, &repo);
    fs::path trees = out.sysroot / "tmp-trees";
    std::string kver = kernel_release();
    std::string machine = random_machine_id(); // the emulated machine's own, in every deployment
    // Targets first, the host's own deployment last: it ends up the default.
    std::vector<const core::Target*> order;
    for (const auto& t : e.targets)
        order.push_back(&t);
    order.push_back(nullptr);
    for (const core::Target* t : order) {
        std::string name = t ? t->name : "host";
        std::string ref = "bootbench-sandbox/" + name;
        write_tree(trees / name, name, kver, machine);
        std::string csum = commit_tree(repo, trees / name, ref, "sandbox-" + name);
        g_autoptr(GKeyFile) origin = origin_for(s, t, ref);
        core::DeploymentRef d = deploy(s, csum, origin, name);
        (t ? out.targets[name] : out.host_default) = d;
    }
    fs::remove_all(trees);
    make_dirs(out.sysroot / "run");
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
