#pragma once
// A ref's commit history in an ostree repo, for bisect: walked back through
// the parents from bad to good, commit metadata pulled from the refspec's
// remote where the repo lacks it (a Fedora host has only its deployed
// commits), and one commit's whole tree pulled before it is deployed.
#include "core/deployment/deployment.hpp"

#include <functional>
#include <string>
#include <vector>

typedef struct OstreeRepo OstreeRepo;

namespace bootbench::sys {

// One pull from a remote: commits (checksums, which move no ref) or refs
// (which move refs/remotes/<remote>/<ref> to the remote's commit).
struct PullRequest {
    std::string remote;
    std::vector<std::string> revs;
    int depth = 0;           // parents to follow (libostree's "depth")
    bool commit_only = true; // OSTREE_REPO_PULL_FLAGS_COMMIT_ONLY: metadata, no tree
    std::string doing;       // what the error message says was being done
};
// Runs a pull; the Sysroot holds its lock around it (which is what makes
// /sysroot writable on a booted host).
using Puller = std::function<void(const PullRequest&)>;

// Where a refspec's commits come from: its remote, if that is configured.
struct RefspecSource {
    std::string refspec, remote, ref;
    bool remote_configured = false;
    std::string where; // "the ostree repo of /sysroot", for messages
};
RefspecSource refspec_source(OstreeRepo* repo, const std::string& refspec,
                             const std::string& where);

// The commits from `good` to `bad`, oldest first (good first, bad last);
// bad "" is the ref's head after a metadata pull. Throws bootbench::Error
// (exit 2 for the user's input) naming the refspec, the commits and the repo.
std::vector<core::CommitInfo> commit_history(OstreeRepo* repo, const RefspecSource& src,
                                             const std::string& good, const std::string& bad,
                                             const Puller& pull);

// The repo's remotes, "a, b" ("none" when it has none), for messages.
std::string remote_names(OstreeRepo* repo);

// Whether the repo has the commit and all of its tree (not commit-only).
bool commit_complete(OstreeRepo* repo, const std::string& checksum);

// libostree's pull with `req`'s options, its progress quiet.
void pull_from_remote(OstreeRepo* repo, const PullRequest& req);

} // namespace bootbench::sys
