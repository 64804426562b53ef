// Issue 34 item 5: a sandbox never consults the SELinux configuration of the
// machine that simulates it. libostree's ostree_sysroot_deployment_set_pinned
// labels the origin file it writes with the policy that "/" names
// (ostree_sysroot_write_origin_file: ostree_sepolicy_new("/")), whatever the
// sysroot; bootbench writes a sandbox's pin itself, as libostree does.
#include "../unit/catch.hpp"
#include "sandbox_fixture.hpp"
#include "sys/ostree/sysroot.hpp"
#include "sys/store/files.hpp"

#include <glib.h>
#include <sys/stat.h>

using namespace bootbench;
using namespace bootbench::test;

namespace {

std::string origin_of(Sandbox& sb, const core::DeploymentRef& ref) {
    fs::path dir = sb.host().sysroot().deployment_dir(ref);
    return sys::read_text_file(dir.parent_path() / (dir.filename().string() + ".origin"));
}

struct timespec mtime_of(const fs::path& p) {
    struct stat st {};
    REQUIRE(::stat(p.c_str(), &st) == 0);
    return st.st_mtim;
}

bool later(const struct timespec& a, const struct timespec& b) {
    return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

} // namespace

TEST_CASE("a sandbox's pin is libostree's key in the origin, every other key kept, the sysroot's mtime bumped",
          "[sandbox][pin]") {
    Sandbox sb(fast_experiment(1));
    core::DeploymentRef ref = sb.layout.targets.at("a");
    std::string before = origin_of(sb, ref);
    REQUIRE(before.find("refspec=") != std::string::npos);
    fs::path deploy = sb.layout.sysroot / "ostree" / "deploy";
    struct timespec stamp = mtime_of(deploy);
    sys::Sysroot s(sb.layout.sysroot);
    s.set_pinned(ref, true);
    sys::Sysroot fresh_reader(sb.layout.sysroot);
    std::string pinned = origin_of(sb, ref);
    CHECK(pinned.find("[libostree-transient]\npinned=true\n") != std::string::npos);
    CHECK(pinned.find(before.substr(0, before.find_last_not_of('\n') + 1)) == 0);
    CHECK(later(mtime_of(deploy), stamp));
    // the sysroot object (reloaded) and a fresh reader both see it
    for (sys::Sysroot* reader : {&s, &fresh_reader})
        for (const auto& d : reader->deployments())
            CHECK(d.pinned == (d.ref == ref));
    s.set_pinned(ref, false);
    CHECK(origin_of(sb, ref).find("pinned") == std::string::npos);
    CHECK(origin_of(sb, ref).find("refspec=") != std::string::npos);
}

// Run by tests/integration/with_host_selinux_config.sh: /etc/selinux is then a
// private tmpfs holding what Debian's policycoreutils writes without a
// policy. Before the fix: "bootbench: error: Pinning sandbox/<csum>.0: With
// policy root '/etc/selinux/default': selabel_open(SELABEL_CTX_FILE): No such
// file or directory".
TEST_CASE("simulate runs where the host's /etc/selinux/config names a policy that is not installed",
          "[.host-selinux]") {
    REQUIRE(sys::read_text_file("/etc/selinux/config") == "SELINUX=permissive\nSELINUXTYPE=default\n");
    REQUIRE_FALSE(fs::exists("/etc/selinux/default"));
    Sandbox sb(fast_experiment(1));
    fs::path exp = sb.dir / "exp.toml", dir = sb.dir / "results";
    sys::write_file_atomic(exp, sb.text);
    CliResult r = run_cli({"simulate", "--results", dir.string(), exp.string()});
    INFO(r.err);
    CHECK(r.err.find("selabel_open") == std::string::npos);
    CHECK(r.status == 0);
    CHECK(fs::exists(dir / "report.md"));
}
