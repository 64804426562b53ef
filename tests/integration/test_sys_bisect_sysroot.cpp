// bisect's side of the sysroot with real libostree on throwaway sysroots: a
// ref's history (commit metadata pulled from a file:// remote), a commit's
// tree pulled, a commit deployed beside the host's own and removed at the end.
#include "../unit/catch.hpp"
#include "core/base/time.hpp"
#include "sandbox_fixture.hpp"
#include "sys/ostree/sandbox.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/store/files.hpp"

#include <cstdlib>
#include <functional>
#include <ostree.h>
#include <unistd.h>

using namespace bootbench;

namespace {

namespace fs = std::filesystem;

// A sandbox history of `builds` commits in a fresh folder, removed at the end.
struct History {
    explicit History(int builds)
        : dir(fresh_dir()), h(sys::build_sandbox_history(dir / "sysroot", builds)) {}
    ~History() {
        sys::remove_sandbox(h.sysroot);
        fs::remove_all(dir);
    }
    History(const History&) = delete;
    History& operator=(const History&) = delete;

    static fs::path fresh_dir() {
        std::string tmpl = (fs::temp_directory_path() / "bootbench-test-XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            throw std::runtime_error("mkdtemp failed");
        return tmpl;
    }
    std::string where() const { return "the ostree repo of " + h.sysroot.string(); }
    const std::string& c(int n) const { return h.commits.at(static_cast<size_t>(n)); }

    fs::path dir;
    sys::SandboxHistory h;
};

// The sandbox's repo opened on its own, as another process would see it.
struct Repo {
    explicit Repo(const fs::path& sysroot) {
        g_autoptr(GFile) path = g_file_new_for_path((sysroot / "ostree/repo").c_str());
        repo = ostree_repo_new(path);
        REQUIRE(ostree_repo_open(repo, nullptr, nullptr));
    }
    ~Repo() { g_object_unref(repo); }
    Repo(const Repo&) = delete;
    Repo& operator=(const Repo&) = delete;

    bool has(const std::string& csum) {
        g_autoptr(GVariant) v = nullptr;
        REQUIRE(ostree_repo_load_variant_if_exists(repo, OSTREE_OBJECT_TYPE_COMMIT, csum.c_str(),
                                                   &v, nullptr));
        return v != nullptr;
    }
    bool partial(const std::string& csum) {
        OstreeRepoCommitState state{};
        REQUIRE(ostree_repo_load_commit(repo, csum.c_str(), nullptr, &state, nullptr));
        return (state & OSTREE_REPO_COMMIT_STATE_PARTIAL) != 0;
    }
    std::string resolve(const std::string& refspec) {
        g_autofree char* rev = nullptr;
        REQUIRE(ostree_repo_resolve_rev(repo, refspec.c_str(), TRUE, &rev, nullptr));
        return rev ? rev : "";
    }
    std::string file_in(const std::string& csum, const char* rel) {
        g_autoptr(GFile) root = nullptr;
        REQUIRE(ostree_repo_read_commit(repo, csum.c_str(), &root, nullptr, nullptr, nullptr));
        g_autoptr(GFile) f = g_file_resolve_relative_path(root, rel);
        g_autofree char* text = nullptr;
        gsize len = 0;
        REQUIRE(g_file_load_contents(f, nullptr, &text, &len, nullptr, nullptr));
        return std::string(text, len);
    }
    OstreeRepo* repo = nullptr;
};

struct Thrown {
    int code = -1;
    std::string what;
};

Thrown thrown(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return {static_cast<int>(e.code()), e.what()};
    }
    return {};
}

std::string s12(const std::string& c) {
    return c.substr(0, 12);
}

} // namespace

TEST_CASE("history: a sandbox ref's builds oldest first, with subjects, versions and times",
          "[sandbox][bisect]") {
    History x(6);
    sys::Sysroot sr(x.h.sysroot);
    CHECK(x.h.refspec == "sandbox:bisect");
    auto hs = sr.history(x.h.refspec, x.c(1), ""); // bad: the head, after a metadata pull
    REQUIRE(hs.size() == 5);
    long long day_before = 0;
    for (size_t i = 0; i < hs.size(); ++i) {
        INFO(i);
        CHECK(hs[i].checksum == x.c(static_cast<int>(i) + 1));
        CHECK(hs[i].subject == "sandbox build " + std::to_string(i + 1));
        CHECK(hs[i].version == std::to_string(i + 1));
        auto t = core::parse_instant(hs[i].timestamp);
        REQUIRE(t);
        CHECK(t->utc_offset_s == 0);
        CHECK(hs[i].timestamp.substr(19) == "+00:00");
        if (i)
            CHECK(t->epoch_s - day_before == 86400);
        day_before = t->epoch_s;
    }
    // Prefixes, resolved against the walked history; whole checksums too.
    auto mid = sr.history(x.h.refspec, x.c(0).substr(0, 7), x.c(4).substr(0, 10));
    REQUIRE(mid.size() == 5);
    CHECK(mid.front().checksum == x.c(0));
    CHECK(mid.back().checksum == x.c(4));
    CHECK(mid.front().subject == "sandbox build 0");
    auto whole = sr.history(x.h.refspec, x.c(2), x.c(5));
    REQUIRE(whole.size() == 4);
    CHECK(whole.front().checksum == x.c(2));
    CHECK(whole.back().checksum == x.c(5));
}

TEST_CASE("history walks past what one metadata pull brings (libostree's depth)",
          "[sandbox][bisect]") {
    History x(40); // one pull follows 32 parents
    sys::Sysroot sr(x.h.sysroot);
    auto hs = sr.history(x.h.refspec, x.c(0), "");
    REQUIRE(hs.size() == 40);
    for (size_t i = 0; i < hs.size(); ++i)
        CHECK(hs[i].checksum == x.c(static_cast<int>(i)));
    CHECK(hs.back().subject == "sandbox build 39");
}

TEST_CASE(
    "history: a refspec nowhere, good not an ancestor of bad, too few commits, not a checksum",
    "[sandbox][bisect]") {
    History x(5);
    sys::Sysroot sr(x.h.sysroot);
    auto nowhere = thrown([&] { sr.history("elsewhere:fedora/43/x86_64/silverblue", x.c(0), ""); });
    CHECK(nowhere.code == 2);
    CHECK(nowhere.what ==
          "refspec 'elsewhere:fedora/43/x86_64/silverblue' is not in " + x.where() +
              " and its remote 'elsewhere' is not configured there; the remotes here are: "
              "sandbox (see 'ostree remote list')");
    auto unrelated = thrown([&] { sr.history(x.h.refspec, "deadbeef", ""); });
    CHECK(unrelated.code == 2);
    CHECK(unrelated.what ==
          "walked 5 commits from bad '(the head)' of refspec 'sandbox:bisect' back to " +
              s12(x.c(0)) +
              " (the ref's first commit) without meeting good 'deadbeef'; good "
              "and bad must be one history: good an older commit of the same ref as bad "
              "(see 'ostree log sandbox:bisect')");
    auto swapped = thrown([&] { sr.history(x.h.refspec, x.c(4), x.c(1).substr(0, 8)); });
    CHECK(swapped.code == 2);
    CHECK(swapped.what ==
          "good '" + x.c(4) + "' is newer than bad '" + x.c(1).substr(0, 8) +
              "' in the history of refspec 'sandbox:bisect' (walking back from its head meets "
              "good first): swap them, good is the older build");
    auto one = thrown([&] { sr.history(x.h.refspec, x.c(1), x.c(3)); });
    CHECK(one.code == 2);
    CHECK(one.what == "nothing to bisect: refspec 'sandbox:bisect' has 1 commit between good '" +
                          x.c(1) + "' and bad '" + x.c(3) +
                          "'; bisect needs at least 2 (with fewer, compare good and "
                          "bad with 'bootbench start')");
    auto none = thrown([&] { sr.history(x.h.refspec, x.c(3), ""); });
    CHECK(none.what ==
          "nothing to bisect: refspec 'sandbox:bisect' has 0 commits between good '" + x.c(3) +
              "' and bad '(the head)'; bisect needs at least 2 (with fewer, compare good and bad "
              "with 'bootbench start')");
    auto word = thrown([&] { sr.history(x.h.refspec, "v42", ""); });
    CHECK(word.code == 2);
    CHECK(word.what ==
          "good 'v42' of refspec 'sandbox:bisect' is not a commit checksum: give the checksum or a "
          "prefix of it of 4 to 64 lowercase hex digits (see 'ostree log sandbox:bisect')");
}

TEST_CASE(
    "history: a remote whose history is cut names the commit, its missing parent and the remote",
    "[sandbox][bisect]") {
    History x(6);
    // The remote lacks build 1, as a mirror pulled with a depth does.
    const std::string& gone = x.c(1);
    fs::remove(sys::sandbox_remote(x.h.sysroot) / "objects" / gone.substr(0, 2) /
               (gone.substr(2) + ".commit"));
    sys::Sysroot sr(x.h.sysroot);
    auto cut = thrown([&] { sr.history(x.h.refspec, x.c(0), ""); });
    CHECK(cut.code == 2);
    std::string head = "the history of refspec 'sandbox:bisect' is cut after 4 commits: commit " +
                       s12(x.c(2)) + " names parent " + gone + ", which is not in " + x.where() +
                       " nor on remote 'sandbox' (Pulling the metadata of commit " + gone +
                       " from remote 'sandbox': ";
    std::string tail =
        "); the remote keeps only part of the history (a mirror pulled with a depth): choose good "
        "among the commits it has ('ostree log sandbox:bisect')";
    INFO(cut.what);
    CHECK(cut.what.rfind(head, 0) == 0);
    CHECK(cut.what.size() > head.size() + tail.size());
    CHECK(cut.what.substr(cut.what.size() - tail.size()) == tail);
    // What the remote still has is a history to bisect.
    CHECK(sr.history(x.h.refspec, x.c(2), "").size() == 4);
}

TEST_CASE(
    "history pulls commit metadata only; pull_commit pulls one commit's tree and moves no ref",
    "[sandbox][bisect]") {
    History x(4);
    Repo before(x.h.sysroot);
    CHECK_FALSE(before.partial(x.c(0))); // the host's own build, whole
    CHECK_FALSE(before.has(x.c(2)));
    CHECK(before.resolve(x.h.refspec) == x.c(0));
    sys::Sysroot sr(x.h.sysroot);
    sr.history(x.h.refspec, x.c(0), "");
    Repo metadata(x.h.sysroot);
    CHECK(metadata.has(x.c(2)));
    CHECK(metadata.partial(x.c(2)));
    CHECK(metadata.resolve(x.h.refspec) ==
          x.c(3)); // the remote's head, as 'ostree pull --commit-metadata-only'
    sr.pull_commit(x.h.refspec, x.c(2));
    Repo pulled(x.h.sysroot);
    CHECK_FALSE(pulled.partial(x.c(2)));
    CHECK(pulled.partial(x.c(1)));
    CHECK(pulled.file_in(x.c(2), "usr/share/bootbench/sandbox-build") == "2\n");
    CHECK(pulled.resolve(x.h.refspec) == x.c(3));
    // Whole already: nothing to pull, no remote needed.
    CHECK_NOTHROW(sr.pull_commit("elsewhere:x", x.c(0)));
    auto no_remote = thrown([&] { sr.pull_commit("elsewhere:x", x.c(1)); });
    CHECK(no_remote.what ==
          "commit " + x.c(1) + " of refspec 'elsewhere:x' is not wholly in " + x.where() +
              " and its remote 'elsewhere' is not configured there to pull it from; the remotes "
              "here are: sandbox");
    std::string absent(64, '0');
    auto not_there = thrown([&] { sr.pull_commit(x.h.refspec, absent); });
    INFO(not_there.what);
    CHECK(not_there.what.rfind("Pulling commit " + absent +
                                   " of refspec 'sandbox:bisect' from remote 'sandbox': ",
                               0) == 0);
}

TEST_CASE("deploy_commit: a build beside the host's own, booted by the emulated bootloader",
          "[sandbox][bisect]") {
    History x(4);
    sys::Sysroot sr(x.h.sysroot);
    auto d = sr.deploy_commit(x.h.host_default, x.c(2), x.h.refspec, "bisect-step");
    auto ds = sr.deployments();
    REQUIRE(ds.size() == 2);
    CHECK(ds[0].ref == x.h.host_default); // not the default
    CHECK(ds[1].ref == d);
    CHECK(d.checksum == x.c(2));
    CHECK(ds[1].kargs_for == "bisect-step");
    CHECK(ds[1].refspec == x.h.refspec);
    CHECK(ds[1].version == "2");
    CHECK(sys::emulated_boot_choice(x.h.sysroot) ==
          fs::canonical(sr.deployment_dir(x.h.host_default)));
    sr.set_default(d);
    sys::EmulatedBoot boot = sys::emulate_boot(x.h.sysroot);
    CHECK(boot.booted_dir == fs::canonical(sr.deployment_dir(d)));
    CHECK(sys::read_text_file(boot.booted_dir / "usr/share/bootbench/sandbox-build") == "2\n");
    // The base's kernel arguments, each once, in both entries.
    std::string entries;
    for (const auto& f : fs::directory_iterator(x.h.sysroot / "boot/loader/entries"))
        entries += sys::read_text_file(f.path());
    INFO(entries);
    size_t n = 0;
    for (size_t at = entries.find("root=LABEL=sandbox rw quiet ostree="); at != std::string::npos;
         at = entries.find("root=LABEL=sandbox rw quiet ostree=", at + 1))
        ++n;
    CHECK(n == 2);
}

TEST_CASE("a deployment made by deploy_commit goes with the end of the experiment",
          "[sandbox][bisect]") {
    test::Sandbox sb(test::fast_experiment(1));
    const core::DeploymentRef a = sb.layout.targets.at("a");
    core::DeploymentRef made;
    {
        sys::SandboxHost h = sb.host();
        made = h.sysroot().deploy_commit(sb.layout.host_default, a.checksum, "bootbench-sandbox/a",
                                         "bisect-step");
        REQUIRE(h.sysroot().deployments().size() == 4);
    }
    sb.start();
    sb.boot_until_done();
    REQUIRE(sb.state().phase == core::Phase::finished);
    auto ds = sb.host().sysroot().deployments();
    CHECK(ds.size() == 3);
    for (const auto& d : ds) {
        CHECK_FALSE(d.ref == made);
        CHECK(d.kargs_for.empty());
    }
}
