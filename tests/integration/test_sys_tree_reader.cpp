// The tree reader on small fixture trees laid out as ostree deployments
// are: the facts it reads and the diff of two trees, and what the record
// says for each thing it cannot read.
#include "catch.hpp"
#include "core/deployment/tree_diff.hpp"
#include "helpers.hpp"
#include "sys/ostree/tree_reader.hpp"

#include <cstdlib>
#include <set>

using namespace bootbench;
using testing::run_ok;
using testing::TempDir;
using testing::write;
namespace fs = std::filesystem;

namespace {

void link(const fs::path& at, const fs::path& target) {
    fs::create_directories(at.parent_path());
    fs::create_symlink(target, at);
}

std::string kernel_config(const std::string& hz, const std::string& preempt) {
    return "#\n# Automatically generated file; DO NOT EDIT.\n# Linux/x86 6.1.119 Kernel "
           "Configuration\n#\n"
           "CONFIG_HZ_" +
           hz + "=y\nCONFIG_HZ=" + hz + "\n# CONFIG_PREEMPT_NONE is not set\nCONFIG_" + preempt +
           "=y\nCONFIG_NO_HZ_IDLE=y\nCONFIG_EXT4_FS=y\n";
}

std::string stanza(const std::string& name, const std::string& version) {
    return "Package: " + name +
           "\nStatus: install ok installed\nArchitecture: amd64\nVersion: " + version +
           "\nDescription: " + name + "\n a package\n\n";
}

// What both builds' /usr hold: a kernel, Debian's dpkg database moved into
// /usr as ostree builders of Debian do, units, presets and sysctl defaults.
void build_usr(const fs::path& t, const std::string& kernel, const std::string& hz,
               const std::string& preempt, const std::string& status) {
    write(t / "usr/lib/modules" / kernel / "config", kernel_config(hz, preempt));
    write(t / "usr/share/dpkg/database/status", stanza("bash", "5.2.15-2+b8") + status);
    link(t / "var/lib/dpkg", "../../usr/share/dpkg/database");
    for (const char* unit : {"sshd.service", "bluetooth.service", "busy-loop.service"})
        write(t / "usr/lib/systemd/system" / unit, "[Service]\n");
    link(t / "usr/lib/systemd/system/sockets.target.wants/dbus.socket", "../dbus.socket");
    write(t / "usr/lib/systemd/system-preset/90-default.preset",
          "enable sshd.service\ndisable *\n");
    write(t / "usr/lib/sysctl.d/50-default.conf", "kernel.sysrq = 16\nvm.swappiness = 60\n");
}

// The last good build: a commit checked out bare (its /etc is usr/etc).
void build_good(const fs::path& t) {
    build_usr(t, "6.1.0-28-amd64", "250", "PREEMPT_VOLUNTARY",
              stanza("tuned", "2.19.0-1") + stanza("zram-tools", "0.3.3.1-1"));
    link(t / "usr/etc/systemd/system/multi-user.target.wants/sshd.service",
         "/usr/lib/systemd/system/sshd.service");
    write(t / "usr/etc/sysctl.conf", "vm.swappiness = 30\n");
    link(t / "usr/etc/sysctl.d/99-sysctl.conf", "../sysctl.conf");
}

// The first bad build, deployed (its own etc/): a newer kernel with another
// tick, a package changed, one added, one removed, a busy service enabled,
// /usr/lib's sysctl defaults masked and others set.
void build_bad(const fs::path& t) {
    build_usr(t, "6.1.0-29-amd64", "1000", "PREEMPT_DYNAMIC",
              stanza("tuned", "2.20.0-1") + stanza("busy-loop", "1.0-1"));
    for (const char* unit : {"sshd.service", "busy-loop.service"})
        link(t / "etc/systemd/system/multi-user.target.wants" / unit,
             fs::path("/usr/lib/systemd/system") / unit);
    link(t / "etc/sysctl.d/50-default.conf", "/dev/null");
    write(t / "etc/sysctl.d/60-sched.conf", "kernel.sched_autogroup_enabled = 0\n");
    write(t / "etc/sysctl.conf", "vm.swappiness = 10\n");
    // Absolute: the tree's own /etc/sysctl.conf, not this host's.
    link(t / "etc/sysctl.d/99-sysctl.conf", "/etc/sysctl.conf");
    // What bootbench must not read: the stale copy a deployed tree keeps in usr/etc.
    write(t / "usr/etc/sysctl.d/70-stale.conf", "vm.dirty_ratio = 5\n");
}

std::string names(const std::vector<core::FactChange>& changes) {
    std::string out;
    for (const core::FactChange& c : changes)
        out += (out.empty() ? "" : " ") + c.name + "=" + c.before + ">" + c.after;
    return out;
}

// PATH for one scope.
class PathAs {
  public:
    explicit PathAs(const std::string& path)
        : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
        ::setenv("PATH", path.c_str(), 1);
    }
    ~PathAs() { ::setenv("PATH", old_.c_str(), 1); }
    PathAs(const PathAs&) = delete;
    PathAs& operator=(const PathAs&) = delete;

  private:
    std::string old_;
};

// Each file in `dir` with its size and modification time.
std::string listing(const fs::path& dir) {
    std::set<std::string> lines;
    for (const auto& e : fs::directory_iterator(dir))
        lines.insert(e.path().filename().string() + " " + std::to_string(e.file_size()) + " " +
                     std::to_string(e.last_write_time().time_since_epoch().count()));
    std::string out;
    for (const std::string& line : lines)
        out += line + "\n";
    return out;
}

} // namespace

TEST_CASE("tree reader: a bare commit and a deployment, and what changed between them",
          "[tree-facts]") {
    TempDir dir;
    build_good(dir.path() / "good");
    build_bad(dir.path() / "bad");
    core::TreeFacts good = sys::read_tree_facts(dir.path() / "good");
    core::TreeFacts bad = sys::read_tree_facts(dir.path() / "bad");
    CHECK(good.packages.source == "dpkg");
    CHECK(good.packages.versions.size() == 3);
    CHECK(good.units == core::FactMap{{"dbus.socket", "usr: sockets.target.wants"},
                                      {"sshd.service", "etc: multi-user.target.wants, preset"}});
    CHECK(good.sysctl == core::FactMap{{"kernel.sysrq", "16"}, {"vm.swappiness", "30"}});
    CHECK(bad.sysctl ==
          core::FactMap{{"kernel.sched_autogroup_enabled", "0"}, {"vm.swappiness", "10"}});
    CHECK(good.warnings.empty());
    CHECK(bad.warnings.empty());

    core::TreeDiff d = core::diff_trees(good, bad);
    CHECK(names(d.kernels.added) == "6.1.0-29-amd64=>6.1.0-29-amd64");
    CHECK(names(d.kernels.removed) == "6.1.0-28-amd64=6.1.0-28-amd64>");
    CHECK(d.config_compared == "6.1.0-28-amd64 -> 6.1.0-29-amd64");
    CHECK(names(d.kernel_config.changed) == "CONFIG_HZ=250>1000");
    CHECK(names(d.kernel_config.added) == "CONFIG_HZ_1000=>y CONFIG_PREEMPT_DYNAMIC=>y");
    CHECK(names(d.kernel_config.removed) == "CONFIG_HZ_250=y> CONFIG_PREEMPT_VOLUNTARY=y>");
    CHECK(core::package_summary(d, 5) ==
          "1 added, 1 removed, 1 changed (3 -> 3 packages); changed: tuned 2.19.0-1 "
          "-> 2.20.0-1; added: busy-loop 1.0-1; removed: zram-tools 0.3.3.1-1");
    CHECK(names(d.units.added) == "busy-loop.service=>etc: multi-user.target.wants");
    CHECK(d.units.removed.empty());
    CHECK(d.units.changed.empty());
    CHECK(names(d.sysctl.added) == "kernel.sched_autogroup_enabled=>0");
    CHECK(names(d.sysctl.removed) == "kernel.sysrq=16>");
    CHECK(names(d.sysctl.changed) == "vm.swappiness=30>10");
    // The record survives its JSON as the bisect and the report store it.
    CHECK(core::to_json(core::tree_facts_from_json(core::to_json(bad), "facts")) ==
          core::to_json(bad));
}

TEST_CASE("tree reader: what it cannot read is said in the record", "[tree-facts]") {
    TempDir dir;
    const fs::path t = dir.path();
    write(t / "usr/lib/modules/6.1.0-28-amd64/config", "CONFIG_HZ=250\nCONFIG_PREEMPT_VOL");
    fs::create_directories(t / "usr/lib/modules/6.2.0-1-amd64");
    write(t / "usr/lib/modules/README", "not a kernel\n");
    fs::create_directories(t / "var/lib/dpkg/status"); // a folder where the status file should be
    link(t / "etc/sysctl.d/10-gone.conf", "../../usr/lib/gone.conf");
    write(t / "etc/sysctl.d/20-ok.conf", "vm.swappiness=5\nvm.dirty_ratio\n");
    write(t / "etc/systemd/system-preset/50-mine.preset", "enable-all\n");
    core::TreeFacts f = sys::read_tree_facts(t);
    REQUIRE(f.kernels.size() == 2);
    CHECK(f.kernels[0].problem ==
          (t / "usr/lib/modules/6.1.0-28-amd64/config").string() +
              ":2: truncated: the last line has no end; the kernel config is damaged: "
              "reinstall the kernel package of that tree");
    CHECK(f.kernels[0].config.empty());
    CHECK(f.kernels[1].problem ==
          (t / "usr/lib/modules/6.2.0-1-amd64/config").string() +
              ": no such file (nor boot/config-6.2.0-1-amd64): the kernel config options "
              "are unknown");
    CHECK(f.packages.source == "dpkg");
    CHECK(f.packages.unknown == "cannot read " + (t / "var/lib/dpkg/status").string() +
                                    ": not a regular file (a directory)");
    CHECK(f.sysctl == core::FactMap{{"vm.swappiness", "5"}});
    CHECK(f.warnings ==
          std::vector<std::string>{
              (t / "etc/systemd/system-preset/50-mine.preset").string() +
                  ":1: not 'enable', 'disable' or 'ignore' with a unit, ignored as systemctl does: "
                  "'enable-all'",
              "cannot read " + (t / "usr/lib/gone.conf").string() +
                  ": No such file or directory; its settings are left out",
              (t / "etc/sysctl.d/20-ok.conf").string() +
                  ":2: not an assignment, ignored as systemd-sysctl does: 'vm.dirty_ratio'"});
}

TEST_CASE("tree reader: no package database, or rpm not installed", "[tree-facts]") {
    TempDir dir;
    core::TreeFacts none = sys::read_tree_facts(dir.path());
    CHECK(none.packages.source.empty());
    CHECK(none.packages.unknown ==
          "no package database in " + dir.path().string() +
              " (looked for usr/lib/sysimage/rpm, usr/share/rpm, var/lib/rpm, "
              "usr/share/dpkg/database/status, var/lib/dpkg/status)");
    CHECK(none.kernels.empty());
    write(dir.path() / "usr/lib/sysimage/rpm/rpmdb.sqlite", "");
    PathAs path((dir.path() / "no-bin").string());
    core::TreeFacts f = sys::read_tree_facts(dir.path());
    CHECK(f.packages.source == "rpm");
    CHECK(f.packages.unknown == "rpm not found: install rpm to read the tree's rpm database " +
                                    (dir.path() / "usr/lib/sysimage/rpm").string());
    CHECK(core::package_summary(core::diff_trees(none, f), 3)
              .rfind("packages unknown: before: no package database", 0) == 0);
}

// Hidden: run by the `tree-facts-rpm` test, which skips where rpm or
// rpmbuild is not installed.
TEST_CASE("tree reader: an rpm database read with the rpm program", "[.][rpm]") {
    TempDir dir;
    const fs::path d = dir.path();
    for (auto [name, release] : {std::pair{"busy-loop", "1"}, {"busy-loop", "2"}, {"extra", "1"}})
        write(d / (std::string(name) + "-" + release + ".spec"),
              std::string("Name: ") + name + "\nVersion: 1.0\nRelease: " + release +
                  "\nEpoch: 3\nSummary: a tiny package\nLicense: MIT\nBuildArch: "
                  "noarch\n%description\ntiny\n%files\n");
    const fs::path out = d / "out", err = d / "err";
    for (const char* spec : {"busy-loop-1", "busy-loop-2", "extra-1"})
        run_ok({"rpmbuild", "-bb", "--quiet", "--define", "_topdir " + (d / "build").string(),
                (d / (std::string(spec) + ".spec")).string()},
               out, err);
    fs::path rpms = d / "build/RPMS/noarch";
    // The good tree: rpm-ostree's place; the bad one: usr/share/rpm, a link to it as in older
    // trees.
    fs::path good_db = d / "good/usr/lib/sysimage/rpm", bad_db = d / "bad/usr/lib/sysimage/rpm";
    link(d / "bad/usr/share/rpm", "../lib/sysimage/rpm");
    for (const fs::path& db : {good_db, bad_db})
        run_ok({"rpm", "--initdb", "--dbpath", db.string()}, out, err);
    auto install = [&](const fs::path& db, std::vector<std::string> files) {
        std::vector<std::string> argv = {"rpm",      "--dbpath", db.string(),  "-i",
                                         "--justdb", "--nodeps", "--noscripts"};
        argv.insert(argv.end(), files.begin(), files.end());
        run_ok(argv, out, err);
    };
    install(good_db, {(rpms / "busy-loop-1.0-1.noarch.rpm").string()});
    install(bad_db, {(rpms / "busy-loop-1.0-2.noarch.rpm").string(),
                     (rpms / "extra-1.0-1.noarch.rpm").string()});
    // As a commit holds it: the database alone, no sqlite -shm or -wal beside it.
    for (const fs::path& db : {good_db, bad_db})
        for (const char* extra : {"rpmdb.sqlite-shm", "rpmdb.sqlite-wal", ".rpm.lock"})
            fs::remove(db / extra);
    const std::string before = listing(bad_db);
    core::TreeFacts good = sys::read_tree_facts(d / "good");
    core::TreeFacts bad = sys::read_tree_facts(d / "bad");
    CHECK(good.packages.unknown == "");
    CHECK(good.packages.versions == core::FactMap{{"busy-loop", "3:1.0-1"}});
    CHECK(bad.packages.versions == core::FactMap{{"busy-loop", "3:1.0-2"}, {"extra", "3:1.0-1"}});
    CHECK(core::package_summary(core::diff_trees(good, bad), 5) ==
          "1 added, 0 removed, 1 changed (1 -> 2 packages); changed: busy-loop 3:1.0-1 -> 3:1.0-2; "
          "added: extra 3:1.0-1");
    // Read from a copy: nothing in the tree is written (a real /sysroot is read-only).
    CHECK(listing(bad_db) == before);

    // No temporary folder for the copy: said, and the tree is still not written.
    {
        write(d / "not-a-folder", "a file where TMPDIR's folder should be\n");
        const char* old_tmp = std::getenv("TMPDIR");
        std::string kept = old_tmp ? old_tmp : "";
        ::setenv("TMPDIR", (d / "not-a-folder").c_str(), 1);
        core::TreeFacts no_tmp = sys::read_tree_facts(d / "bad");
        old_tmp ? ::setenv("TMPDIR", kept.c_str(), 1) : ::unsetenv("TMPDIR");
        CHECK(no_tmp.packages.unknown == "no temporary folder for a copy of " + bad_db.string() +
                                             ": TMPDIR " + (d / "not-a-folder").string() +
                                             ": Not a directory");
        CHECK(listing(bad_db) == before);
    }

    // A database rpm cannot open: rpm's own words in the record.
    write(d / "broken/usr/lib/sysimage/rpm/rpmdb.sqlite", "not a database\n");
    core::TreeFacts broken = sys::read_tree_facts(d / "broken");
    INFO(broken.packages.unknown);
    CHECK(broken.packages.unknown.rfind("rpm -qa on a copy of " +
                                            (d / "broken/usr/lib/sysimage/rpm").string() +
                                            " exited with status 1: error: ",
                                        0) == 0);
}
