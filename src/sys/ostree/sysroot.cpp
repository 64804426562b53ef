#include "sys/ostree/sysroot.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/image/container_pull.hpp"
#include "sys/clock.hpp"
#include "sys/ostree/gerror.hpp"
#include "sys/ostree/layering.hpp"
#include "sys/ostree/repo_history.hpp"
#include "sys/process/subprocess.hpp"
#include "sys/store/files.hpp"
#include "sys/store/user_lines.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <fcntl.h>
#include <sys/stat.h>

#include <ostree.h>

namespace bootbench::sys {

namespace {

std::string keyfile_string(GKeyFile* kf, const char* group, const char* key) {
    if (!kf)
        return "";
    g_autofree char* v = g_key_file_get_string(kf, group, key, nullptr);
    return v ? v : "";
}

// The commit's metadata (a{sv}); nullptr when the commit is not in the repo.
GVariant* commit_metadata(OstreeRepo* repo, const char* csum) {
    g_autoptr(GVariant) commit = nullptr;
    if (!ostree_repo_load_variant(repo, OSTREE_OBJECT_TYPE_COMMIT, csum, &commit, nullptr))
        return nullptr;
    return g_variant_get_child_value(commit, 0);
}

std::string meta_string(GVariant* metadata, const char* key) {
    const char* value = nullptr;
    return metadata && g_variant_lookup(metadata, key, "&s", &value) && value ? value : "";
}

// The image's digest: on the commit, or for a commit rpm-ostree layered
// packages on (which has none of its own), on its parent, the image's commit.
std::string image_digest(OstreeRepo* repo, const char* csum, GVariant* metadata, bool layered) {
    std::string digest = meta_string(metadata, "ostree.manifest-digest");
    if (!digest.empty() || !layered)
        return digest;
    g_autoptr(GVariant) commit = nullptr;
    if (!ostree_repo_load_variant(repo, OSTREE_OBJECT_TYPE_COMMIT, csum, &commit, nullptr))
        return "";
    g_autofree char* parent = ostree_commit_get_parent(commit);
    g_autoptr(GVariant) parent_metadata = parent ? commit_metadata(repo, parent) : nullptr;
    return meta_string(parent_metadata, "ostree.manifest-digest");
}

core::DeploymentRef ref_of(OstreeDeployment* d) {
    return {ostree_deployment_get_osname(d), ostree_deployment_get_csum(d),
            ostree_deployment_get_deployserial(d)};
}

GPtrArray* deployment_list(OstreeSysroot* s) { return ostree_sysroot_get_deployments(s); }

OstreeRepo* sysroot_repo(OstreeSysroot* s, const fs::path& path) {
    OstreeRepo* repo = nullptr;
    gcheck("Opening the repo of " + path.string(),
           [&](GError** e) { return ostree_sysroot_get_repo(s, &repo, nullptr, e); });
    return repo;
}

std::string repo_where(const fs::path& path) { return "the ostree repo of " + path.string(); }

// Where ostree-container is told the repo is.
std::string repo_dir(const fs::path& path) { return (path / "ostree/repo").string(); }

// The base's kernel arguments without ostree= (libostree adds its own),
// then `extra`.
char** kernel_argv(OstreeDeployment* base, const std::vector<std::string>& extra) {
    OstreeBootconfigParser* bc = ostree_deployment_get_bootconfig(base);
    const char* options = bc ? ostree_bootconfig_parser_get(bc, "options") : nullptr;
    g_autoptr(OstreeKernelArgs) ka = ostree_kernel_args_from_string(options ? options : "");
    ostree_kernel_args_delete_key_entry(ka, "ostree", nullptr);
    for (const auto& k : extra)
        ostree_kernel_args_append(ka, k.c_str());
    return ostree_kernel_args_to_strv(ka);
}

// A copy of the deployment's origin (an empty one when it has none), comments kept.
GKeyFile* origin_copy(OstreeDeployment* d) {
    GKeyFile* copy = g_key_file_new();
    GKeyFile* origin = ostree_deployment_get_origin(d);
    g_autofree char* text = origin ? g_key_file_to_data(origin, nullptr, nullptr) : nullptr;
    g_key_file_load_from_data(copy, text ? text : "", static_cast<gsize>(-1), G_KEY_FILE_KEEP_COMMENTS, nullptr);
    return copy;
}

// The origin rpm-ostree and bootc write for an image's deployment.
GKeyFile* image_origin(const std::string& imgref) {
    GKeyFile* origin = g_key_file_new();
    g_key_file_set_string(origin, "origin", "container-image-reference", imgref.c_str());
    return origin;
}

} // namespace

// Holds the sysroot lock (ostree/lock) for one write, and reloads first so
// that the deployments written are the current ones. With a LockWait, a
// lock another process holds is tried again every kLockPollS up to the bound.
class Sysroot::Lock {
public:
    explicit Lock(Sysroot& s) : s_(s.sysroot_) {
        if (s.lock_wait_.clock)
            wait_for(s.path_, s.lock_wait_);
        else
            gcheck("Locking the ostree sysroot", [&](GError** e) { return ostree_sysroot_lock(s_, e); });
        gcheck("Reloading the ostree sysroot",
               [&](GError** e) { return ostree_sysroot_load_if_changed(s_, nullptr, nullptr, e); });
    }
    ~Lock() { ostree_sysroot_unlock(s_); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

private:
    bool try_lock() {
        gboolean acquired = FALSE;
        gcheck("Locking the ostree sysroot", [&](GError** e) { return ostree_sysroot_try_lock(s_, &acquired, e); });
        return acquired;
    }
    void wait_for(const fs::path& path, const LockWait& w);

    OstreeSysroot* s_;
};

namespace {

std::string whole_seconds(double s) { return std::to_string(static_cast<long long>(s)) + " s"; }

} // namespace

void Sysroot::Lock::wait_for(const fs::path& path, const LockWait& w) {
    double start = w.clock->monotonic_s();
    bool waited = false;
    while (!try_lock()) {
        double so_far = w.clock->monotonic_s() - start;
        if (so_far >= w.max_s)
            throw SysrootLocked("the ostree sysroot " + path.string() + " stayed locked by another process for " +
                        whole_seconds(so_far) + " (an update: bootc, rpm-ostree; see 'journalctl -b'); " +
                        "nothing was changed, the next boot tries again");
        if (!waited)
            say("the ostree sysroot " + path.string() + " is locked by another process (an update: bootc, " +
                "rpm-ostree); waiting up to " + whole_seconds(w.max_s));
        waited = true;
        w.clock->sleep_s(kLockPollS);
    }
    if (waited)
        say("got the ostree sysroot lock after " + whole_seconds(w.clock->monotonic_s() - start));
}

namespace {

// libostree's cleanup prints the space a prune freed with g_print ("TODO
// remove printf in library", ostree-sysroot-cleanup.c): bootbench's prunes
// (a bisection's builds, deployments made for kernel arguments) would put it
// on a person's terminal and into the run's journal. GLib has nothing else
// to print there; its warnings go through g_log, untouched.
void quiet_library_prints() {
    static std::once_flag once;
    std::call_once(once, [] { g_set_print_handler([](const char*) {}); });
}

} // namespace

Sysroot::Sysroot(const fs::path& path) : path_(path) {
    quiet_library_prints();
    g_autoptr(GFile) file = g_file_new_for_path(path.c_str());
    sysroot_ = ostree_sysroot_new(file);
    std::string doing = "Opening the ostree sysroot " + path.string();
    if (path == "/") // Fedora mounts /sysroot read-only: writes need a private namespace
        gcheck(doing, [&](GError** e) {
            return ostree_sysroot_initialize_with_mount_namespace(sysroot_, nullptr, e);
        });
    gcheck(doing, [&](GError** e) { return ostree_sysroot_load(sysroot_, nullptr, e); });
}

Sysroot::~Sysroot() {
    if (sysroot_)
        g_object_unref(sysroot_);
}

void Sysroot::reload() {
    gcheck("Reloading the ostree sysroot " + path_.string(),
           [&](GError** e) { return ostree_sysroot_load_if_changed(sysroot_, nullptr, nullptr, e); });
}

std::vector<core::DeploymentInfo> Sysroot::deployments() {
    g_autoptr(OstreeRepo) repo = sysroot_repo(sysroot_, path_);
    OstreeDeployment* booted = ostree_sysroot_get_booted_deployment(sysroot_);
    g_autoptr(GPtrArray) list = deployment_list(sysroot_);
    std::vector<core::DeploymentInfo> out;
    for (guint i = 0; i < list->len; ++i) {
        auto* d = static_cast<OstreeDeployment*>(list->pdata[i]);
        GKeyFile* origin = ostree_deployment_get_origin(d);
        core::DeploymentInfo info;
        info.ref = ref_of(d);
        info.index = static_cast<int>(i);
        info.refspec = keyfile_string(origin, "origin", "refspec");
        info.image = keyfile_string(origin, "origin", "container-image-reference");
        info.kargs_for = keyfile_string(origin, "bootbench", "kargs-for");
        g_autoptr(GVariant) metadata = commit_metadata(repo, ostree_deployment_get_csum(d));
        info.version = meta_string(metadata, "version");
        info.layering = layering_of(metadata);
        info.image_digest = image_digest(repo, ostree_deployment_get_csum(d), metadata, info.layering.layered);
        info.bootcsum = ostree_deployment_get_bootcsum(d);
        info.bootserial = ostree_deployment_get_bootserial(d);
        info.pinned = ostree_deployment_is_pinned(d);
        info.staged = ostree_deployment_is_staged(d);
        info.booted = booted && ostree_deployment_equal(booted, d);
        out.push_back(std::move(info));
    }
    return out;
}

std::optional<core::DeploymentInfo> Sysroot::booted() {
    for (auto& d : deployments())
        if (d.booted)
            return d;
    return std::nullopt;
}

core::DeploymentInfo Sysroot::default_deployment() {
    for (auto& d : deployments())
        if (!d.staged)
            return d;
    throw Error("the ostree sysroot " + path_.string() + " has no deployment");
}

bool Sysroot::has_staged() { return ostree_sysroot_get_staged_deployment(sysroot_) != nullptr; }

OstreeDeployment* Sysroot::find(const core::DeploymentRef& ref) {
    g_autoptr(GPtrArray) list = deployment_list(sysroot_);
    for (guint i = 0; i < list->len; ++i) {
        auto* d = static_cast<OstreeDeployment*>(list->pdata[i]);
        if (ref_of(d) == ref)
            return d;
    }
    throw Error("deployment " + core::describe(ref) + " is not in the sysroot " + path_.string() +
                " any more (removed by an update or cleanup?); deployments now:\n" +
                core::describe_all(deployments()));
}

void Sysroot::write_order(std::vector<OstreeDeployment*> order, const std::string& doing, Postclean clean) {
    g_autoptr(GPtrArray) arr = g_ptr_array_new_with_free_func(g_object_unref);
    for (auto* d : order)
        g_ptr_array_add(arr, g_object_ref(d));
    OstreeSysrootWriteDeploymentsOpts opts{};
    opts.do_postclean = clean == Postclean::yes;
    gcheck(doing, [&](GError** e) {
        return ostree_sysroot_write_deployments_with_options(sysroot_, arr, &opts, nullptr, e);
    });
    reload();
}

void Sysroot::set_default(const core::DeploymentRef& ref, StagedPolicy staged) {
    Lock lock(*this);
    OstreeDeployment* target = find(ref);
    if (has_staged() && staged == StagedPolicy::refuse)
        throw Error("a staged update is waiting in " + path_.string() +
                    "; making another deployment the default would drop it. Let it finish "
                    "(reboot) or start with --drop-staged");
    std::vector<OstreeDeployment*> order{target};
    g_autoptr(GPtrArray) list = deployment_list(sysroot_);
    for (guint i = 0; i < list->len; ++i) {
        auto* d = static_cast<OstreeDeployment*>(list->pdata[i]);
        if (d != target && !ostree_deployment_is_staged(d))
            order.push_back(d);
    }
    write_order(order, "Making " + core::describe(ref) + " the default deployment", Postclean::no);
}

void Sysroot::set_pinned(const core::DeploymentRef& ref, bool pinned) {
    Lock lock(*this);
    OstreeDeployment* d = find(ref);
    if (ostree_deployment_is_pinned(d) == static_cast<gboolean>(pinned))
        return;
    std::string doing = (pinned ? "Pinning " : "Unpinning ") + core::describe(ref);
    if (path_ == "/")
        gcheck(doing, [&](GError** e) { return ostree_sysroot_deployment_set_pinned(sysroot_, d, pinned, e); });
    else
        write_pin(d, pinned, doing);
    reload();
}

// What ostree_sysroot_deployment_set_pinned writes, without its SELinux
// label: libostree labels the origin file with the policy "/" names
// (ostree_sysroot_write_origin_file builds its OstreeSePolicy from "/"
// whatever the sysroot), so on a sysroot that is not the running machine's
// (the sandbox) the host's /etc/selinux/config would decide, and one that
// names a policy not installed fails every pin.
void Sysroot::write_pin(OstreeDeployment* d, bool pinned, const std::string& doing) {
    if (ostree_deployment_is_staged(d))
        throw Error(doing + ": a staged deployment cannot be pinned");
    g_autoptr(GKeyFile) origin = origin_copy(d);
    if (pinned)
        g_key_file_set_boolean(origin, OSTREE_ORIGIN_TRANSIENT_GROUP, "pinned", TRUE);
    else
        g_key_file_remove_key(origin, OSTREE_ORIGIN_TRANSIENT_GROUP, "pinned", nullptr);
    g_autofree char* data = g_key_file_to_data(origin, nullptr, nullptr);
    fs::path dir = deployment_dir(ref_of(d));
    write_file_atomic(dir.parent_path() / (dir.filename().string() + ".origin"), data ? data : "");
    // As libostree does after writing an origin: readers reload on a newer mtime.
    if (::utimensat(AT_FDCWD, (path_ / "ostree" / "deploy").c_str(), nullptr, 0) != 0)
        throw Error(doing + ": cannot update the time of " + (path_ / "ostree" / "deploy").string() + ": " +
                    std::strerror(errno));
}

// Everything a deployment bootbench makes differs in: the commit ("" for
// base's), the origin's refspec ("" for a copy of base's origin), kernel
// arguments appended to base's; each is marked [bootbench] kargs-for=target.
struct Sysroot::Marked {
    std::string commit;
    std::string refspec;
    std::string image; // the origin's container-image-reference instead of a refspec
    std::vector<std::string> kargs;
    std::string target;
    std::string doing;
};

core::DeploymentRef Sysroot::deploy_with_kargs(const core::DeploymentRef& base_ref,
                                               const std::vector<std::string>& kargs,
                                               const std::string& target) {
    return deploy_marked(base_ref, {"", "", "", kargs, target,
                                    "Deploying " + core::describe(base_ref) +
                                        " again with kernel arguments for target '" + target + "'"});
}

core::DeploymentRef Sysroot::deploy_commit(const core::DeploymentRef& base, const std::string& commit,
                                           const std::string& refspec, const std::string& target) {
    pull_commit(refspec, commit);
    return deploy_marked(base, {commit, refspec, "", {}, target,
                                "Deploying commit " + commit + " of refspec '" + refspec + "' beside " +
                                    core::describe(base) + " for '" + target + "'"});
}

core::DeploymentRef Sysroot::deploy_marked(const core::DeploymentRef& base_ref, const Marked& what) {
    Lock lock(*this);
    OstreeDeployment* base = find(base_ref);
    g_auto(GStrv) argv = kernel_argv(base, what.kargs);
    g_autoptr(GKeyFile) origin = !what.image.empty()     ? image_origin(what.image)
                                 : what.refspec.empty() ? origin_copy(base)
                                                        : ostree_sysroot_origin_new_from_refspec(sysroot_, what.refspec.c_str());
    g_key_file_set_string(origin, "bootbench", "kargs-for", what.target.c_str());
    const char* csum = what.commit.empty() ? ostree_deployment_get_csum(base) : what.commit.c_str();
    OstreeSysrootDeployTreeOpts opts{};
    opts.override_kernel_argv = argv;
    g_autoptr(OstreeDeployment) fresh = nullptr;
    gcheck(what.doing, [&](GError** e) {
        return ostree_sysroot_deploy_tree_with_options(sysroot_, ostree_deployment_get_osname(base), csum, origin,
                                                       base, &opts, &fresh, nullptr, e);
    });
    core::DeploymentRef fresh_ref = ref_of(fresh);
    std::vector<OstreeDeployment*> order;
    g_autoptr(GPtrArray) list = deployment_list(sysroot_);
    for (guint i = 0; i < list->len; ++i)
        order.push_back(static_cast<OstreeDeployment*>(list->pdata[i]));
    order.push_back(fresh);
    write_order(order, what.doing, Postclean::yes);
    return fresh_ref;
}

std::vector<core::CommitInfo> Sysroot::history(const std::string& refspec, const std::string& good,
                                               const std::string& bad) {
    g_autoptr(OstreeRepo) repo = sysroot_repo(sysroot_, path_);
    RefspecSource src = refspec_source(repo, refspec, repo_where(path_));
    return commit_history(repo, src, good, bad, [&](const PullRequest& req) { pull_locked(req); });
}

void Sysroot::pull_commit(const std::string& refspec, const std::string& commit) {
    gcheck("Pulling commit '" + commit + "' of refspec '" + refspec + "'",
           [&](GError** e) { return ostree_validate_checksum_string(commit.c_str(), e); });
    g_autoptr(OstreeRepo) repo = sysroot_repo(sysroot_, path_);
    if (commit_complete(repo, commit))
        return;
    RefspecSource src = refspec_source(repo, refspec, repo_where(path_));
    std::string what = "commit " + commit + " of refspec '" + refspec + "'";
    if (!src.remote_configured)
        throw Error(what + " is not wholly in " + src.where + " and its remote '" + src.remote +
                    "' is not configured there to pull it from; the remotes here are: " + remote_names(repo));
    pull_locked({src.remote, {commit}, 0, false, "Pulling " + what + " from remote '" + src.remote + "'"});
    g_autoptr(OstreeRepo) after = sysroot_repo(sysroot_, path_);
    if (!commit_complete(after, commit))
        throw Error("pulled " + what + " from remote '" + src.remote + "', yet its tree is still partial in " +
                    src.where);
}

// ostree-container on this sysroot's repo, under the lock: a booted host's
// /sysroot is writable under it, for the child too. Its stdout; throws
// naming `doing` and the command's last words when it fails.
std::string Sysroot::run_container_tool(const std::vector<std::string>& argv, const std::string& doing) {
    Captured c;
    {
        Lock lock(*this);
        c = capture_process(argv, kImagePullTimeoutS);
    }
    if (c.status != 0)
        throw Error(doing + " failed (" + describe(c.ending) + "): " + core::printable(core::last_line(c.err)) +
                    (c.status == 127 ? "; that command comes with rpm-ostree and bootc" : ""));
    return c.out;
}

void Sysroot::check_container_tool() {
    Captured c = capture_process(core::container_list_argv(repo_dir(path_)), 60);
    if (c.status != 0)
        throw input_error("bisect over an image's builds imports each with ostree-container ('ostree container', "
                          "which rpm-ostree and bootc install), but 'ostree container image list' failed here (" +
                          describe(c.ending) + "): " + core::printable(core::last_line(c.err)));
}

std::string Sysroot::pull_image(const std::string& imgref) {
    std::string doing = "pulling the image " + imgref + " into " + repo_where(path_) + " (ostree container image pull)";
    std::string out = run_container_tool(core::container_pull_argv(repo_dir(path_), imgref), doing);
    auto commit = core::pulled_commit(out);
    g_autoptr(OstreeRepo) repo = sysroot_repo(sysroot_, path_);
    if (!commit || !commit_complete(repo, *commit))
        throw Error(doing + ": its output names no commit that is whole in the repo (" +
                    core::printable(core::last_line(out)) + ")");
    return *commit;
}

void Sysroot::remove_images(const std::vector<std::string>& imgrefs) {
    if (!imgrefs.empty())
        run_container_tool(core::container_remove_argv(repo_dir(path_), imgrefs),
                           "removing " + core::count_of(static_cast<long long>(imgrefs.size()), "image") + " from " +
                               repo_where(path_) + " (ostree container image remove)");
}

core::DeploymentRef Sysroot::deploy_image(const core::DeploymentRef& base, const std::string& commit,
                                          const std::string& imgref, const std::string& target) {
    return deploy_marked(base, {commit, "", imgref, {}, target,
                                "Deploying the image " + imgref + " (commit " + commit + ") beside " +
                                    core::describe(base) + " for '" + target + "'"});
}

// A pull writes into the repo: under the sysroot lock, which on a booted
// host also remounts /sysroot read-write in this process's namespace.
void Sysroot::pull_locked(const PullRequest& req) {
    Lock lock(*this);
    g_autoptr(OstreeRepo) repo = sysroot_repo(sysroot_, path_);
    pull_from_remote(repo, req);
}

void Sysroot::undeploy(const core::DeploymentRef& ref) {
    Lock lock(*this);
    OstreeDeployment* victim = find(ref);
    OstreeDeployment* booted = ostree_sysroot_get_booted_deployment(sysroot_);
    if (booted && ostree_deployment_equal(booted, victim))
        throw Error("will not remove " + core::describe(ref) + ": it is the booted deployment");
    std::vector<OstreeDeployment*> order;
    g_autoptr(GPtrArray) list = deployment_list(sysroot_);
    for (guint i = 0; i < list->len; ++i)
        if (list->pdata[i] != victim)
            order.push_back(static_cast<OstreeDeployment*>(list->pdata[i]));
    write_order(order, "Removing deployment " + core::describe(ref), Postclean::yes);
}

void Sysroot::cleanup() {
    Lock lock(*this);
    gcheck("Cleaning up the sysroot " + path_.string(),
           [&](GError** e) { return ostree_sysroot_cleanup(sysroot_, nullptr, e); });
}

fs::path Sysroot::deployment_dir(const core::DeploymentRef& ref) {
    g_autoptr(GFile) rel = ostree_sysroot_get_deployment_directory(sysroot_, find(ref));
    g_autofree char* p = g_file_get_path(rel);
    return fs::path(p);
}

std::string Sysroot::kernel_options(const core::DeploymentRef& ref) {
    OstreeBootconfigParser* bc = ostree_deployment_get_bootconfig(find(ref));
    const char* options = bc ? ostree_bootconfig_parser_get(bc, "options") : nullptr;
    return options ? options : "";
}

fs::path Sysroot::stateroot_var(const std::string& stateroot) const {
    return path_ / "ostree" / "deploy" / stateroot / "var";
}

std::optional<core::DeploymentInfo> Sysroot::deployment_at(const fs::path& dir) {
    std::error_code ec;
    fs::path want = fs::canonical(dir, ec);
    if (ec)
        return std::nullopt;
    for (auto& d : deployments()) {
        fs::path have = fs::canonical(deployment_dir(d.ref), ec);
        if (!ec && have == want)
            return d;
    }
    return std::nullopt;
}

} // namespace bootbench::sys
