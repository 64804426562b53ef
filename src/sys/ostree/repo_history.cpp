#include "sys/ostree/repo_history.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/base/time.hpp"
#include "sys/ostree/gerror.hpp"

#include <algorithm>
#include <optional>

#include <ostree.h>

namespace bootbench::sys {

namespace {

// Parents pulled per metadata pull: one request instead of one per commit.
constexpr int kMetadataDepth = 32;
// The longest history walked before bisect gives up looking for good.
constexpr size_t kMaxWalk = 5000;

std::string short_csum(const std::string& c) {
    return c.substr(0, 12);
}

} // namespace

std::string remote_names(OstreeRepo* repo) {
    guint n = 0;
    g_auto(GStrv) names = ostree_repo_remote_list(repo, &n);
    std::vector<std::string> out(names, names + n);
    return out.empty() ? "none" : core::join(out, ", ");
}

namespace {

bool is_hex_prefix(const std::string& s) {
    if (s.size() < 4 || s.size() > 64)
        return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

bool is_full_checksum(const std::string& s) {
    return s.size() == 64 && is_hex_prefix(s);
}

void check_commit_arg(const char* which, const std::string& value, const RefspecSource& src) {
    if (is_hex_prefix(value) || (value.empty() && std::string(which) == "bad"))
        return;
    throw input_error(std::string(which) + " '" + value + "' of refspec '" + src.refspec +
                      "' is not a commit checksum: give the checksum or a prefix of it of 4 to 64 "
                      "lowercase hex digits (see 'ostree log " +
                      src.refspec + "')");
}

// The commit variant; nullptr when the repo does not have it.
GVariant* load_commit_variant(OstreeRepo* repo, const std::string& csum) {
    GVariant* commit = nullptr;
    gcheck("Reading commit " + csum, [&](GError** e) {
        return ostree_repo_load_variant_if_exists(repo, OSTREE_OBJECT_TYPE_COMMIT, csum.c_str(),
                                                  &commit, e);
    });
    return commit;
}

core::CommitInfo commit_info(const std::string& csum, GVariant* commit) {
    core::CommitInfo info;
    info.checksum = csum;
    const char* subject = nullptr;
    g_variant_get_child(commit, 3, "&s", &subject);
    info.subject = subject ? subject : "";
    g_autoptr(GVariant) metadata = g_variant_get_child_value(commit, 0);
    const char* version = nullptr;
    if (g_variant_lookup(metadata, OSTREE_COMMIT_META_KEY_VERSION, "&s", &version) && version)
        info.version = version;
    info.timestamp =
        core::format_instant({static_cast<long long>(ostree_commit_get_timestamp(commit)), 0});
    return info;
}

// Walks a ref's history back from a start commit, one commit a step,
// pulling the metadata of the next chunk of parents where the repo lacks it.
class Walk {
  public:
    Walk(OstreeRepo* repo, const RefspecSource& src, const Puller& pull)
        : repo_(repo), src_(src), pull_(pull) {}

    // The commit's variant, its metadata pulled first if the repo lacks it.
    // `child`: the commit whose parent it is ("" for the start).
    GVariant* load(const std::string& csum, const std::string& child) {
        if (GVariant* c = load_commit_variant(repo_, csum))
            return c;
        if (src_.remote_configured)
            try_pull(csum, child);
        if (GVariant* c = load_commit_variant(repo_, csum))
            return c;
        throw missing(csum, child, "the pull did not bring it");
    }

    std::vector<core::CommitInfo> walked;

  private:
    void try_pull(const std::string& csum, const std::string& child) {
        try {
            pull_(
                {src_.remote,
                 {csum},
                 kMetadataDepth,
                 true,
                 "Pulling the metadata of commit " + csum + " from remote '" + src_.remote + "'"});
        } catch (const Error& e) {
            throw missing(csum, child, e.what());
        }
    }

    Error missing(const std::string& csum, const std::string& child,
                  const std::string& pull_error) const;

    OstreeRepo* repo_;
    const RefspecSource& src_;
    const Puller& pull_;
};

Error Walk::missing(const std::string& csum, const std::string& child,
                    const std::string& pull_error) const {
    std::string what =
        child.empty()
            ? "commit " + csum + " of refspec '" + src_.refspec + "' is not in " + src_.where
            : "the history of refspec '" + src_.refspec + "' is cut after " +
                  core::count_of(static_cast<long long>(walked.size()), "commit") + ": commit " +
                  short_csum(child) + " names parent " + csum + ", which is not in " + src_.where;
    if (!src_.remote_configured)
        return input_error(what + ", and " +
                           (src_.remote.empty()
                                ? "the refspec names no remote (REMOTE:REF)"
                                : "its remote '" + src_.remote + "' is not configured there") +
                           " to pull it from (remotes: " + remote_names(repo_) + ")");
    std::string fix = child.empty()
                          ? "check the checksum ('ostree log " + src_.refspec + "')"
                          : "the remote keeps only part of the history (a mirror pulled with a "
                            "depth): choose good among the commits it has ('ostree log " +
                                src_.refspec + "')";
    return input_error(what + " nor on remote '" + src_.remote + "' (" + pull_error + "); " + fix);
}

} // namespace

RefspecSource refspec_source(OstreeRepo* repo, const std::string& refspec,
                             const std::string& where) {
    RefspecSource src;
    src.refspec = refspec;
    src.where = where;
    g_autofree char* remote = nullptr;
    g_autofree char* ref = nullptr;
    GError* error = nullptr;
    if (!ostree_parse_refspec(refspec.c_str(), &remote, &ref, &error)) {
        std::string msg = error->message;
        g_error_free(error);
        throw input_error("refspec '" + refspec +
                          "' is not an ostree refspec (REMOTE:REF, e.g. "
                          "fedora:fedora/43/x86_64/silverblue): " +
                          msg);
    }
    src.remote = remote ? remote : "";
    src.ref = ref;
    g_autofree char* url = nullptr;
    src.remote_configured = remote && ostree_repo_remote_get_url(repo, remote, &url, nullptr);
    return src;
}

bool commit_complete(OstreeRepo* repo, const std::string& checksum) {
    g_autoptr(GVariant) commit = load_commit_variant(repo, checksum);
    if (!commit)
        return false;
    OstreeRepoCommitState state{};
    gcheck("Reading commit " + checksum, [&](GError** e) {
        return ostree_repo_load_commit(repo, checksum.c_str(), nullptr, &state, e);
    });
    return (state & OSTREE_REPO_COMMIT_STATE_PARTIAL) == 0;
}

void pull_from_remote(OstreeRepo* repo, const PullRequest& req) {
    std::vector<const char*> revs;
    for (const auto& r : req.revs)
        revs.push_back(r.c_str());
    revs.push_back(nullptr);
    g_autoptr(GVariantBuilder) b = g_variant_builder_new(G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(b, "{sv}", "refs", g_variant_new_strv(revs.data(), -1));
    int flags = req.commit_only ? OSTREE_REPO_PULL_FLAGS_COMMIT_ONLY : OSTREE_REPO_PULL_FLAGS_NONE;
    g_variant_builder_add(b, "{sv}", "flags", g_variant_new_int32(flags));
    g_variant_builder_add(b, "{sv}", "depth", g_variant_new_int32(req.depth));
    g_autoptr(GVariant) options = g_variant_ref_sink(g_variant_builder_end(b));
    gcheck(req.doing, [&](GError** e) {
        return ostree_repo_pull_with_options(repo, req.remote.c_str(), options, nullptr, nullptr,
                                             e);
    });
}

namespace {

// The commit the walk starts from: bad when it is a whole checksum, else
// the ref's head (after pulling its metadata from a configured remote).
std::string start_commit(OstreeRepo* repo, const RefspecSource& src, const std::string& bad,
                         const Puller& pull) {
    if (is_full_checksum(bad))
        return bad;
    if (src.remote_configured)
        pull({src.remote,
              {src.ref},
              kMetadataDepth,
              true,
              "Pulling the commit metadata of refspec '" + src.refspec + "' from remote '" +
                  src.remote + "'"});
    g_autofree char* head = nullptr;
    gcheck("Resolving refspec '" + src.refspec + "'", [&](GError** e) {
        return ostree_repo_resolve_rev(repo, src.refspec.c_str(), TRUE, &head, e);
    });
    if (head)
        return head;
    if (src.remote.empty())
        throw input_error(
            "refspec '" + src.refspec + "' is not in " + src.where +
            " and names no remote to pull it from (REMOTE:REF); the remotes here are: " +
            remote_names(repo));
    throw input_error("refspec '" + src.refspec + "' is not in " + src.where + " and its remote '" +
                      src.remote + "' is not configured there; the remotes here are: " +
                      remote_names(repo) + " (see 'ostree remote list')");
}

bool matches(const std::string& csum, const std::string& prefix) {
    return !prefix.empty() && csum.compare(0, prefix.size(), prefix) == 0;
}

// Where the walk met bad and good, as indexes into Walk::walked (newest first).
struct Found {
    std::optional<size_t> bad, good;
};

void refuse_swapped(const RefspecSource& src, const std::string& good, const std::string& bad) {
    throw input_error("good '" + good + "' is newer than bad '" + bad +
                      "' in the history of refspec '" + src.refspec +
                      "' (walking back from its head meets good first): swap them, good is "
                      "the older build");
}

void refuse_not_ancestor(const Walk& w, const RefspecSource& src, const std::string& good,
                         const std::string& bad, const std::string& why) {
    throw input_error(
        "walked " + core::count_of(static_cast<long long>(w.walked.size()), "commit") +
        " from bad '" + (bad.empty() ? "(the head)" : bad) + "' of refspec '" + src.refspec +
        "' back to " + short_csum(w.walked.back().checksum) + " (" + why +
        ") without meeting good '" + good +
        "'; good and bad must be one history: good an older commit of the same ref as bad "
        "(see 'ostree log " +
        src.refspec + "')");
}

// Walks back from `start` until good is met after bad.
Found walk_to_good(Walk& w, const RefspecSource& src, const std::string& start,
                   const std::string& good, const std::string& bad) {
    Found f;
    if (bad.empty() || is_full_checksum(bad))
        f.bad = 0;
    std::string csum = start, child;
    while (true) {
        g_autoptr(GVariant) commit = w.load(csum, child);
        w.walked.push_back(commit_info(csum, commit));
        size_t at = w.walked.size() - 1;
        if (!f.bad && matches(csum, bad))
            f.bad = at;
        if (f.bad && matches(csum, good)) {
            f.good = at;
            return f;
        }
        if (!f.bad && matches(csum, good))
            refuse_swapped(src, good, bad);
        g_autofree char* parent = ostree_commit_get_parent(commit);
        if (!parent)
            refuse_not_ancestor(w, src, good, bad, "the ref's first commit");
        if (w.walked.size() >= kMaxWalk)
            refuse_not_ancestor(w, src, good, bad, "the most bootbench walks");
        child = csum;
        csum = parent;
    }
}

// A prefix must name one commit of the history walked.
void check_unique(const Walk& w, size_t upto, const std::string& prefix, const char* which,
                  const RefspecSource& src) {
    std::string hits;
    int n = 0;
    for (size_t i = 0; i <= upto; ++i)
        if (matches(w.walked[i].checksum, prefix))
            hits += (n++ ? ", " : "") + short_csum(w.walked[i].checksum);
    if (n > 1)
        throw input_error(std::string(which) + " '" + prefix + "' matches " + std::to_string(n) +
                          " commits of refspec '" + src.refspec + "' (" + hits +
                          "): give more digits");
}

void check_enough(const Found& f, const RefspecSource& src, const std::string& good,
                  const std::string& bad) {
    long between = static_cast<long>(*f.good) - static_cast<long>(*f.bad) - 1;
    if (between >= 2)
        return;
    throw input_error("nothing to bisect: refspec '" + src.refspec + "' has " +
                      core::count_of(between < 0 ? 0 : between, "commit") + " between good '" +
                      good + "' and bad '" + (bad.empty() ? "(the head)" : bad) +
                      "'; bisect needs at least 2 (with fewer, "
                      "compare good and bad with 'bootbench start')");
}

} // namespace

std::vector<core::CommitInfo> commit_history(OstreeRepo* repo, const RefspecSource& src,
                                             const std::string& good, const std::string& bad,
                                             const Puller& pull) {
    check_commit_arg("good", good, src);
    check_commit_arg("bad", bad, src);
    Walk w(repo, src, pull);
    Found f = walk_to_good(w, src, start_commit(repo, src, bad, pull), good, bad);
    check_unique(w, *f.good, bad, "bad", src);
    check_unique(w, *f.good, good, "good", src);
    check_enough(f, src, good, bad);
    std::vector<core::CommitInfo> out(w.walked.begin() + static_cast<long>(*f.bad),
                                      w.walked.begin() + static_cast<long>(*f.good) + 1);
    std::reverse(out.begin(), out.end()); // oldest first
    return out;
}

} // namespace bootbench::sys
