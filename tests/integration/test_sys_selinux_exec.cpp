// Issue 28 items 1 and 9 on a sandbox: the binary the unit runs is where
// Fedora's policy labels it bin_t (/var/usrlocal/bin), an experiment started
// by a version that ran it from /var/lib still resumes, the label start sets
// is read back, and a target with a transient /etc is refused.
#include "../unit/catch.hpp"
#include "../unit/error_of.hpp"
#include "sandbox_fixture.hpp"
#include "sys/ostree/host_writes.hpp"
#include "sys/ostree/unit_install.hpp"
#include "sys/probe/probes.hpp"
#include "sys/store/files.hpp"

#include <cerrno>
#include <cstring>
#include <sys/xattr.h>

using namespace bootbench;
using namespace bootbench::test;

namespace {

std::string exec_start_of(const fs::path& etc) {
    return sys::exec_start_argv(sys::read_text_file(sys::unit_file(etc))).at(0);
}

// What a version before this one left: every unit runs <state>/bin/bootbench.
void make_units_old(Sandbox& sb) {
    sys::SandboxHost h = sb.host();
    for (const auto& d : h.sysroot().deployments()) {
        fs::path unit = sys::unit_file(h.etc_dir(d.ref));
        std::string text = sys::read_text_file(unit);
        const std::string now = "ExecStart=/var/usrlocal/bin/bootbench-resume resume";
        REQUIRE(text.find(now) != std::string::npos);
        text.replace(text.find(now), now.size(), "ExecStart=/var/lib/bootbench/bin/bootbench resume");
        sys::write_file_atomic(unit, text);
    }
    fs::create_directories(sb.paths().legacy_binary().parent_path());
    fs::rename(sb.paths().binary(), sb.paths().legacy_binary());
}

} // namespace

TEST_CASE("the unit runs bootbench's own copy in /var/usrlocal/bin, removed at the end", "[selinux]") {
    Sandbox sb(fast_experiment(1));
    sb.start();
    sys::SandboxHost h = sb.host();
    fs::path var = sb.layout.sysroot / "ostree/deploy/sandbox/var";
    CHECK(sb.paths().binary() == var / "usrlocal/bin/bootbench-resume");
    for (const auto& d : h.sysroot().deployments())
        CHECK(exec_start_of(h.etc_dir(d.ref)) == "/var/usrlocal/bin/bootbench-resume");
    auto perms = fs::status(sb.paths().binary()).permissions();
    CHECK((perms & fs::perms::owner_exec) != fs::perms::none);
    CHECK_FALSE(fs::exists(sb.paths().legacy_binary()));
    CHECK(sb.boot_until_done() == 3); // a, b, then the machine's own
    CHECK(sb.state().phase == core::Phase::finished);
    CHECK(sb.state().count(core::SlotStatus::done) == 2);
    CHECK(no_units_left(sb));
    CHECK_FALSE(fs::exists(sb.paths().binary()));
    CHECK(fs::is_directory(var / "usrlocal/bin")); // the user's folder stays
}

TEST_CASE("an experiment started by a version that ran /var/lib/bootbench/bin/bootbench resumes to its end",
          "[selinux][upgrade]") {
    Sandbox sb(fast_experiment(1));
    sb.start();
    make_units_old(sb);
    CHECK(sb.boot_until_done() == 3);
    CHECK(sb.state().phase == core::Phase::finished);
    CHECK(sb.state().count(core::SlotStatus::done) == 2);
    CHECK(no_units_left(sb));
    CHECK(fs::exists(sb.paths().legacy_binary())); // not this version's to remove
}

TEST_CASE("the end removes only bootbench's copy: a bootbench the user put in /usr/local/bin stays",
          "[selinux]") {
    Sandbox sb(fast_experiment(1));
    fs::path users = sb.paths().binary().parent_path() / "bootbench";
    fs::create_directories(users.parent_path());
    sys::write_file_atomic(users, "#!/bin/sh\necho the user's own\n", 0755);
    sb.start();
    sb.boot_until_done();
    CHECK(sys::read_text_file(users) == "#!/bin/sh\necho the user's own\n");
}

TEST_CASE("start reads the label back: one systemd may not execute refuses, with the path and how to look",
          "[selinux][label]") {
    Sandbox sb(fast_experiment(1));
    fs::path file = sb.dir / "bootbench-resume";
    sys::write_file_atomic(file, "x", 0755);
    const std::string var_lib = "system_u:object_r:var_lib_t:s0";
    if (::setxattr(file.c_str(), "security.selinux", var_lib.c_str(), var_lib.size() + 1, 0) != 0) {
        WARN("skipped: this process cannot set security.selinux here (" << std::strerror(errno)
                                                                         << "); it needs root");
        return;
    }
    CHECK(error_of([&] { sys::apply_exec_label(file, var_lib); }) ==
          file.string() + " is labelled " + var_lib +
              ": SELinux lets systemd (init_t) execute bin_t files only, so the unit fails with 203/EXEC (the "
              "label read back after start set " + var_lib + "); nothing else was changed. See 'ls -Z " +
              file.string() + "' and 'matchpathcon " + file.string() + "' (it should say bin_t)");
    sys::apply_exec_label(file, "system_u:object_r:bin_t:s0");
    CHECK(sys::selinux_label(file) == "system_u:object_r:bin_t:s0");
}

TEST_CASE("start refuses a target whose /etc is transient, naming it, and changes nothing",
          "[selinux][transient-etc]") {
    Sandbox sb(fast_experiment(1));
    fs::path path = sb.dir / "exp.toml";
    sys::write_file_atomic(path, sb.text);
    fs::path conf = sb.host().sysroot().deployment_dir(sb.layout.targets.at("b")) /
                    "usr/lib/ostree/prepare-root.conf";
    fs::create_directories(conf.parent_path());
    sys::write_file_atomic(conf, "[composefs]\nenabled = true\n[etc]\ntransient = true\n");
    std::string before = tree_listing(sb.layout.sysroot);
    for (const char* dry : {"--dry-run", "--no-reboot"}) {
        CliResult r = run_cli({"start", dry, "--sysroot", sb.layout.sysroot.string(), path.string()});
        CHECK(r.status == 1);
        CHECK(r.err == "bootbench: error: cannot start: target 'b': /usr/lib/ostree/prepare-root.conf sets [etc] "
                       "transient = true, so its /etc at boot is a fresh overlay of usr/etc: the unit bootbench "
                       "writes into that deployment's /etc is never seen\n"
                       "fix: measure images whose /etc persists (no [etc] transient in ostree/prepare-root.conf): "
                       "bootbench needs its unit in every target's /etc\nnothing was changed\n");
        CHECK(tree_listing(sb.layout.sysroot) == before);
    }
}
