#pragma once
// An ostree sysroot through libostree: list deployments, make one the
// default, pin, deploy a commit again with other kernel arguments, undeploy.
// Works the same on "/" and on a throwaway sysroot folder (the sandbox).
#include "core/deployment/deployment.hpp"
#include "core/base/error.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

typedef struct OstreeSysroot OstreeSysroot;
typedef struct _OstreeDeployment OstreeDeployment;

namespace bootbench::sys {

// An image's pull: an OS image's new layers, minutes on a slow line.
inline constexpr int kImagePullTimeoutS = 3600;

namespace fs = std::filesystem;

enum class StagedPolicy { refuse, drop };
// Whether writing a boot order also runs ostree_sysroot_cleanup (old boot
// versions, unlisted deployments, a prune of the whole repository).
enum class Postclean { no, yes };

class Clock;
struct PullRequest;

// How long a write waits for the sysroot lock while another process holds it
// (bootc holds it for a whole download): polled on `clock` every
// kLockPollS, at most `max_s`. No clock: wait as long as it takes.
struct LockWait {
    Clock* clock = nullptr;
    double max_s = 0;
};
inline constexpr double kLockPollS = 5;

// The lock stayed held past LockWait::max_s: nothing was written.
class SysrootLocked : public Error {
public:
    using Error::Error;
};

class Sysroot {
public:
    // Opens and loads the sysroot at `path` ("/" on a booted host).
    explicit Sysroot(const fs::path& path);
    ~Sysroot();
    Sysroot(const Sysroot&) = delete;
    Sysroot& operator=(const Sysroot&) = delete;

    const fs::path& path() const { return path_; }
    // Re-reads the deployments from disk (after another process changed them).
    void reload();
    // Bounds the wait for the lock of every later write; past the bound a
    // write throws bootbench::Error saying who holds it and that nothing changed.
    void set_lock_wait(LockWait wait) { lock_wait_ = wait; }

    std::vector<core::DeploymentInfo> deployments();
    // libostree's booted deployment; nullopt when this sysroot is not booted.
    std::optional<core::DeploymentInfo> booted();
    // The deployment that boots next: the first one that is not staged.
    core::DeploymentInfo default_deployment();
    bool has_staged();

    // Moves `ref` to the top of the boot order. Everything else keeps its place.
    // A pure reorder removes nothing, so it skips the cleanup: on a real
    // Fedora repository that prune alone takes seconds at every run.
    void set_default(const core::DeploymentRef& ref, StagedPolicy staged = StagedPolicy::refuse);
    void set_pinned(const core::DeploymentRef& ref, bool pinned);
    // Deploys `base`'s commit again with `kargs` appended to its kernel
    // arguments, placed last in the boot order and marked as bootbench's.
    core::DeploymentRef deploy_with_kargs(const core::DeploymentRef& base,
                                          const std::vector<std::string>& kargs,
                                          const std::string& target);
    // The commits of `refspec` from `good` to `bad`, oldest first (good
    // first, bad last); each may be a unique checksum prefix (4+ hex) of the
    // history walked, bad "" the ref's head after a metadata pull. Commit
    // metadata the repo lacks is pulled from the refspec's remote (commit
    // only). Bad input (not one history, fewer than 2 commits between,
    // a ref nowhere) throws bootbench::Error with exit 2.
    std::vector<core::CommitInfo> history(const std::string& refspec, const std::string& good,
                                          const std::string& bad);
    // Makes the commit's whole tree local (a no-op when it is): pulled from
    // the refspec's remote by checksum, which moves no ref.
    void pull_commit(const std::string& refspec, const std::string& commit);
    // Deploys `commit` (pulled first if need be) in base's stateroot with
    // base's kernel arguments, its origin `refspec`, placed last in the boot
    // order and marked as bootbench's (kargs-for = target), so the end of the
    // experiment removes it like a kernel-argument deployment.
    core::DeploymentRef deploy_commit(const core::DeploymentRef& base, const std::string& commit,
                                      const std::string& refspec, const std::string& target);
    // Throws bootbench::Error (exit 2) when ostree-container cannot list
    // this repo's images: an image bisection would fail at its first pull.
    void check_container_tool();
    // Imports an image (an ostree image reference pinned by digest) into the
    // repo with ostree-container, under the lock, within kImagePullTimeoutS;
    // returns its merge commit.
    // Throws bootbench::Error naming the image and what the command said.
    std::string pull_image(const std::string& imgref);
    // Drops the refs of images pull_image imported (their layers collected;
    // their commits go at the next cleanup once no deployment holds them).
    // Throws bootbench::Error with what the command said.
    void remove_images(const std::vector<std::string>& imgrefs);
    // Deploys an imported image's `commit` like deploy_commit, its origin
    // the image (container-image-reference), as rpm-ostree and bootc write it.
    core::DeploymentRef deploy_image(const core::DeploymentRef& base, const std::string& commit,
                                     const std::string& imgref, const std::string& target);
    // Removes a deployment (never the booted one).
    void undeploy(const core::DeploymentRef& ref);
    // What reorders left behind (old boot versions, the repository prune):
    // once, when the experiment ends.
    void cleanup();

    // <sysroot>/ostree/deploy/<stateroot>/deploy/<csum>.<serial>
    fs::path deployment_dir(const core::DeploymentRef& ref);
    // The kernel arguments of `ref`'s boot entry (its BLS "options"); "" when it has none.
    std::string kernel_options(const core::DeploymentRef& ref);
    // <sysroot>/ostree/deploy/<stateroot>/var
    fs::path stateroot_var(const std::string& stateroot) const;
    // Finds the deployment whose folder is `dir` (after resolving links).
    std::optional<core::DeploymentInfo> deployment_at(const fs::path& dir);

private:
    struct Marked;
    core::DeploymentRef deploy_marked(const core::DeploymentRef& base_ref, const Marked& what);
    OstreeDeployment* find(const core::DeploymentRef& ref);
    void write_order(std::vector<OstreeDeployment*> order, const std::string& doing, Postclean clean);
    void write_pin(OstreeDeployment* d, bool pinned, const std::string& doing);
    void pull_locked(const PullRequest& req);
    std::string run_container_tool(const std::vector<std::string>& argv, const std::string& doing);
    class Lock;

    fs::path path_;
    OstreeSysroot* sysroot_ = nullptr;
    LockWait lock_wait_;
};

} // namespace bootbench::sys
