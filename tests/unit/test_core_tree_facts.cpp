#include "catch.hpp"
#include "core/deployment/kernel_config.hpp"
#include "core/deployment/package_db.hpp"
#include "core/deployment/systemd_conf.hpp"
#include "core/deployment/tree_diff.hpp"
#include "core/deployment/tree_facts.hpp"
#include "error_of.hpp"

using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

// As Debian 12's dpkg writes it (bash's stanza shortened), with a removed
// package whose conffiles stay and a library installed for two architectures.
const char* kStatus = "Package: bash\n"
                      "Essential: yes\n"
                      "Status: install ok installed\n"
                      "Architecture: amd64\n"
                      "Multi-Arch: foreign\n"
                      "Version: 5.2.15-2+b8\n"
                      "Conffiles:\n"
                      " /etc/bash.bashrc 89269e1298235f1b12b4c16e4065ad0d\n"
                      "Description: GNU Bourne Again SHell\n"
                      " Bash is an sh-compatible command language interpreter that executes\n"
                      " .\n"
                      "\n"
                      "Package: tuned\n"
                      "Status: deinstall ok config-files\n"
                      "Architecture: all\n"
                      "Version: 2.19.0-1\n"
                      "\n"
                      "Package: libc6\n"
                      "Status: install ok installed\n"
                      "Architecture: amd64\n"
                      "Multi-Arch: same\n"
                      "Version: 2.36-9+deb12u9\n"
                      "\n"
                      "Package: libc6\n"
                      "Status: install ok installed\n"
                      "Architecture: i386\n"
                      "Multi-Arch: same\n"
                      "Version: 2.36-9+deb12u9\n"
                      "\n"
                      "Package: libzstd1\n"
                      "Status: install ok installed\n"
                      "Architecture: amd64\n"
                      "Multi-Arch: same\n"
                      "Version: 1.5.4+dfsg2-5\n"
                      "\n"
                      "Package: linux-image-6.1.0-28-amd64\n"
                      "Status: install ok half-configured\n"
                      "Architecture: amd64\n"
                      "Version: 6.1.119-1\n";

// The head of Fedora's kernel config and lines of each kind that matters.
const char* kConfig = "#\n"
                      "# Automatically generated file; DO NOT EDIT.\n"
                      "# Linux/x86_64 6.11.4-301.fc41.x86_64 Kernel Configuration\n"
                      "#\n"
                      "CONFIG_CC_VERSION_TEXT=\"gcc (GCC) 14.2.1 20240912 (Red Hat 14.2.1-3)\"\n"
                      "CONFIG_NO_HZ_COMMON=y\n"
                      "# CONFIG_HZ_PERIODIC is not set\n"
                      "CONFIG_NO_HZ_FULL=y\n"
                      "CONFIG_PREEMPT_DYNAMIC=y\n"
                      "# CONFIG_PREEMPT_RT is not set\n"
                      "CONFIG_SCHED_CLASS_EXT=y\n"
                      "CONFIG_HZ_1000=y\n"
                      "CONFIG_HZ=1000\n"
                      "CONFIG_SPECULATION_MITIGATIONS=y\n"
                      "CONFIG_MITIGATION_RETPOLINE=y\n"
                      "CONFIG_EXT4_FS=m\n"
                      "# CONFIG_DEBUG_INFO_BTF is not set\n";

TreeFacts facts_with(const std::string& kernel, const FactMap& config, const FactMap& packages) {
    TreeFacts f;
    f.kernels = {{kernel, config, ""}};
    f.packages = {"rpm", "", packages};
    return f;
}

} // namespace

TEST_CASE("dpkg status: the packages on disk, name -> Version", "[tree-facts]") {
    FactMap p = parse_dpkg_status(kStatus, "var/lib/dpkg/status");
    CHECK(p.size() == 5);
    CHECK(p.at("bash") == "5.2.15-2+b8");
    CHECK(p.count("tuned") == 0); // removed, only its conffiles left
    CHECK(p.at("libc6:amd64") == "2.36-9+deb12u9");
    CHECK(p.at("libc6:i386") == "2.36-9+deb12u9");
    CHECK(p.at("libzstd1:amd64") == "1.5.4+dfsg2-5"); // dpkg-query's name, one arch or two
    CHECK(p.at("linux-image-6.1.0-28-amd64") ==
          "6.1.119-1"); // half-configured: its files are there
    CHECK(parse_dpkg_status("", "s").empty());
}

TEST_CASE("dpkg status: a damaged file names the line and the fix", "[tree-facts]") {
    CHECK(error_of([] {
              parse_dpkg_status("Package: a\nStatus: install ok installed\nVersion: 1\ngarbage\n",
                                "/t/status");
          }) == "/t/status:4: a line that is neither 'Field: value' nor a continuation: 'garbage'; "
                "the dpkg status file "
                "is damaged (`dpkg --audit` on that tree, or its status-old)");
    CHECK(error_of([] {
              parse_dpkg_status("Package: a\nStatus: install ok installed\n\nPackage: b\n", "s");
          }) == "s:1: installed package 'a' has no Version field; the dpkg status file is damaged "
                "(`dpkg --audit` on "
                "that tree, or its status-old)");
    CHECK(error_of([] {
              parse_dpkg_status("\n\nPackage: b\nVersion: 1\n", "s");
          }).rfind("s:3: package 'b' has no Status field;", 0) == 0);
    CHECK(error_of([] {
              parse_dpkg_status("Version: 1\nStatus: install ok installed\n", "s");
          }).rfind("s:1: a stanza without a Package field;", 0) == 0);
    CHECK(error_of([] {
              parse_dpkg_status(" continued\n", "s");
          }).rfind("s:1: a continuation line outside a field: ' continued';", 0) == 0);
    // Control characters from the file are escaped in the message.
    CHECK(error_of([] { parse_dpkg_status("\x1b[31m\n", "s"); })
              .rfind("s:1: a line that is neither 'Field: value' "
                     "nor a continuation: '\\x1b[31m'",
                     0) == 0);
}

TEST_CASE("rpm -qa output: name -> [epoch:]version-release", "[tree-facts]") {
    FactMap p = parse_rpm_query("bash\t5.2.32-1.fc41\tx86_64\n"
                                "kernel-core\t6.11.4-301.fc41\tx86_64\n"
                                "kernel-core\t6.11.3-300.fc41\tx86_64\n"
                                "glibc\t2.40-3.fc41\tx86_64\n"
                                "glibc\t2.40-3.fc41\ti686\n"
                                "NetworkManager\t1:1.48.10-1.fc41\tx86_64\n"
                                "gpg-pubkey\te99d6ad1-64d2612c\t(none)\n",
                                "rpm");
    CHECK(p.size() == 5);
    CHECK(p.at("bash") == "5.2.32-1.fc41");
    CHECK(p.at("kernel-core") == "6.11.3-300.fc41, 6.11.4-301.fc41");
    CHECK(p.at("glibc") == "2.40-3.fc41.i686, 2.40-3.fc41.x86_64");
    CHECK(p.at("NetworkManager") == "1:1.48.10-1.fc41");
    CHECK(p.at("gpg-pubkey") == "e99d6ad1-64d2612c");
    CHECK(error_of([] {
              parse_rpm_query("bash\t5.2\tx86_64\nbash-5.2.32-1.fc41.x86_64\n",
                              "rpm -qa --dbpath /t");
          }) ==
          std::string("rpm -qa --dbpath /t:2: expected NAME<TAB>VERSION-RELEASE<TAB>ARCH, got "
                      "'bash-5.2.32-1.fc41.x86_64'; is this rpm's output for --qf '") +
              kRpmQueryFormat + "'?");
}

TEST_CASE("kernel config: the options that matter, 'n' for not set", "[tree-facts]") {
    FactMap c = parse_kernel_config(kConfig, "config");
    CHECK(c == FactMap{{"CONFIG_NO_HZ_COMMON", "y"},
                       {"CONFIG_HZ_PERIODIC", "n"},
                       {"CONFIG_NO_HZ_FULL", "y"},
                       {"CONFIG_PREEMPT_DYNAMIC", "y"},
                       {"CONFIG_PREEMPT_RT", "n"},
                       {"CONFIG_SCHED_CLASS_EXT", "y"},
                       {"CONFIG_HZ_1000", "y"},
                       {"CONFIG_HZ", "1000"},
                       {"CONFIG_SPECULATION_MITIGATIONS", "y"},
                       {"CONFIG_MITIGATION_RETPOLINE", "y"}});
    CHECK(kernel_option_matters("CONFIG_SCHED_BORE"));
    CHECK(kernel_option_matters("CONFIG_CACHY"));
    CHECK_FALSE(kernel_option_matters("CONFIG_EXT4_FS"));
}

TEST_CASE("kernel config: truncated, empty or damaged names the line", "[tree-facts]") {
    std::string cut = std::string(kConfig) + "CONFIG_HZ_";
    CHECK(error_of([&] { parse_kernel_config(cut, "/t/usr/lib/modules/6.11.4/config"); }) ==
          "/t/usr/lib/modules/6.11.4/config:18: truncated: the last line has no end; the kernel "
          "config is "
          "damaged: reinstall the kernel package of that tree");
    CHECK(error_of([] { parse_kernel_config("", "c"); }) ==
          "c:1: empty; the kernel config is damaged: reinstall the kernel package of that tree");
    CHECK(error_of([] { parse_kernel_config("CONFIG_HZ=1000\nCONFIG_HZ=\n", "c"); }) ==
          "c:2: expected CONFIG_NAME=value, got 'CONFIG_HZ='; the kernel config is damaged: "
          "reinstall the kernel "
          "package of that tree");
    CHECK(error_of([] {
              parse_kernel_config("hz=1000\n", "c");
          }).rfind("c:1: expected CONFIG_NAME=value, got 'hz=1000'", 0) == 0);
}

TEST_CASE("conf files: one per name, the folder of highest precedence, sorted by name",
          "[tree-facts]") {
    auto order =
        conf_files_in_order({{3, "50-default.conf", "usr/lib/sysctl.d/50-default.conf"},
                             {3, "10-map-count.conf", "usr/lib/sysctl.d/10-map-count.conf"},
                             {0, "50-default.conf", "etc/sysctl.d/50-default.conf"},
                             {0, "99-sysctl.conf", "etc/sysctl.d/99-sysctl.conf"}});
    REQUIRE(order.size() == 3);
    CHECK(order[0].path == "usr/lib/sysctl.d/10-map-count.conf");
    CHECK(order[1].path == "etc/sysctl.d/50-default.conf");
    CHECK(order[2].path == "etc/sysctl.d/99-sysctl.conf");
}

TEST_CASE("sysctl: later files and lines win, keys compare as systemd-sysctl normalizes them",
          "[tree-facts]") {
    std::vector<std::string> warnings;
    FactMap s = effective_sysctl(
        {{"usr/lib/sysctl.d/10-map-count.conf", "vm.max_map_count=1048576\n"},
         {"usr/lib/sysctl.d/50-default.conf",
          "# comment\n; also a comment\nkernel.sysrq = 16\n"
          "net.ipv4.conf.default.rp_filter = 2\n-net.ipv4.conf.all.accept_source_route = 0\n"
          "kernel/sched_autogroup_enabled = 1\nnet/ipv4/conf/eth0.1/rp_filter = 1\n"},
         {"etc/sysctl.d/60-mine.conf",
          "kernel.sysrq=1\nkernel.sched_autogroup_enabled=0\n-net.ipv4.conf.default.rp_filter\n"
          "vm swappiness 10\n"}},
        warnings);
    CHECK(s == FactMap{{"vm.max_map_count", "1048576"},
                       {"kernel.sysrq", "1"},
                       {"net.ipv4.conf.all.accept_source_route", "0"},
                       {"kernel.sched_autogroup_enabled", "0"},
                       {"net.ipv4.conf.eth0/1.rp_filter", "1"}});
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] ==
          "etc/sysctl.d/60-mine.conf:4: not an assignment, ignored as systemd-sysctl does: "
          "'vm swappiness 10'");
    CHECK(sysctl_key("/net//ipv4/") == "net.ipv4"); // path_simplify, the leading slash dropped
    CHECK(sysctl_key("net.ipv4.conf.eth0/1.rp_filter") ==
          sysctl_key("net/ipv4/conf/eth0.1/rp_filter"));
}

TEST_CASE("presets: the first matching rule decides; templates need instances", "[tree-facts]") {
    std::vector<std::string> warnings;
    auto enabled =
        preset_enabled({{"usr/lib/systemd/system-preset/80-bazzite.preset",
                         "enable tuned.service\nenable getty@.service tty1 tty2\n"},
                        {"usr/lib/systemd/system-preset/90-default.preset",
                         "# Fedora's\ndisable tuned.service\nenable sshd.service\nenable "
                         "rpm-ostree*\nbogus line\n"},
                        {"usr/lib/systemd/system-preset/99-default-disable.preset", "disable *\n"}},
                       {"bluetooth.service", "getty@.service", "rpm-ostreed-automatic.timer",
                        "sshd.service", "tuned.service"},
                       warnings);
    CHECK(enabled == std::vector<std::string>{"getty@tty1.service", "getty@tty2.service",
                                              "rpm-ostreed-automatic.timer", "sshd.service",
                                              "tuned.service"});
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] ==
          "usr/lib/systemd/system-preset/90-default.preset:5: not 'enable', 'disable' or 'ignore' "
          "with a unit, ignored as systemctl does: 'bogus line'");
    CHECK(is_template_unit("getty@.service"));
    CHECK_FALSE(is_template_unit("getty@tty1.service"));
}

TEST_CASE("kernel versions sort by their numbers", "[tree-facts]") {
    CHECK(version_less("6.9.1-200.fc40.x86_64", "6.10.0-100.fc40.x86_64"));
    CHECK_FALSE(version_less("6.10.0", "6.9.1"));
    CHECK(version_less("6.1.0-28-amd64", "6.1.0-28-amd64+1"));
    CHECK_FALSE(version_less("6.1.0", "6.1.0"));
    CHECK(version_less("6.1.0-9", "6.1.0-10"));
}

TEST_CASE("add_fact keeps several values sorted and once", "[tree-facts]") {
    FactMap m;
    add_fact(m, "a", "usr: sockets.target.wants");
    add_fact(m, "a", "etc: multi-user.target.wants");
    add_fact(m, "a", "usr: sockets.target.wants");
    CHECK(m.at("a") == "etc: multi-user.target.wants, usr: sockets.target.wants");
}

TEST_CASE("tree facts: JSON there and back; a wrong field is named", "[tree-facts]") {
    TreeFacts f =
        facts_with("6.11.4-301.fc41.x86_64", {{"CONFIG_HZ", "1000"}}, {{"bash", "5.2.32-1.fc41"}});
    f.kernels.push_back({"6.12.0", {}, "config: no such file"});
    f.units = {{"sshd.service", "preset"}};
    f.sysctl = {{"vm.swappiness", "10"}};
    f.warnings = {"w"};
    TreeFacts back = tree_facts_from_json(to_json(f), "facts.json");
    CHECK(to_json(back) == to_json(f));
    CHECK(back.kernels[1].problem == "config: no such file");
    nlohmann::json bad = to_json(f);
    bad["sysctl"]["vm.swappiness"] = 10;
    CHECK(error_of([&] { tree_facts_from_json(bad, "facts.json"); }) ==
          "facts.json: field 'sysctl' must map names to strings ('vm.swappiness' does not)");
    bad.erase("packages");
    CHECK(error_of([&] { tree_facts_from_json(bad, "facts.json"); }) ==
          "facts.json: missing field 'packages'");
}

TEST_CASE("tree diff: added, removed and changed per category", "[tree-facts]") {
    TreeFacts good = facts_with(
        "6.11.3-300.fc41.x86_64", {{"CONFIG_HZ", "1000"}, {"CONFIG_PREEMPT_RT", "n"}},
        {{"bash", "5.2.32-1.fc41"}, {"tuned", "2.24.0-1.fc41"}, {"zram-generator", "1.1.2-11"}});
    TreeFacts bad =
        facts_with("6.11.4-301.fc41.x86_64", {{"CONFIG_HZ", "300"}, {"CONFIG_SCHED_BORE", "y"}},
                   {{"bash", "5.2.32-1.fc41"}, {"tuned", "2.24.1-1.fc41"}, {"busy-loop", "1.0-1"}});
    good.units = {{"sshd.service", "preset"}};
    bad.units = {{"sshd.service", "preset"}, {"busy-loop.service", "etc: multi-user.target.wants"}};
    good.sysctl = {{"vm.swappiness", "60"}};
    bad.sysctl = {{"vm.swappiness", "10"}};
    TreeDiff d = diff_trees(good, bad);
    CHECK(d.kernels.added.size() == 1);
    CHECK(d.kernels.removed.size() == 1);
    CHECK(d.config_compared == "6.11.3-300.fc41.x86_64 -> 6.11.4-301.fc41.x86_64");
    REQUIRE(d.kernel_config.changed.size() == 1);
    CHECK(d.kernel_config.changed[0].name == "CONFIG_HZ");
    CHECK(d.kernel_config.changed[0].before == "1000");
    CHECK(d.kernel_config.changed[0].after == "300");
    CHECK(d.kernel_config.added[0].name == "CONFIG_SCHED_BORE");
    CHECK(d.kernel_config.removed[0].name == "CONFIG_PREEMPT_RT");
    REQUIRE(d.units.added.size() == 1);
    CHECK(d.units.added[0].name == "busy-loop.service");
    CHECK(d.units.removed.empty());
    CHECK(d.sysctl.changed[0].after == "10");
    CHECK(package_summary(d, 5) ==
          "1 added, 1 removed, 1 changed (3 -> 3 packages); changed: tuned 2.24.0-1.fc41 -> "
          "2.24.1-1.fc41; added: busy-loop 1.0-1; removed: zram-generator 1.1.2-11");
    CHECK_FALSE(d.empty());
    CHECK(diff_trees(good, good).empty());
    nlohmann::json j = to_json(d);
    CHECK(j["units"]["added"][0]["name"] == "busy-loop.service");
    CHECK(j["packages_after"] == 3);
}

TEST_CASE("tree diff: the package summary names a few and counts the rest", "[tree-facts]") {
    FactMap before, after;
    for (int i = 0; i < 7; ++i)
        after["pkg" + std::to_string(i)] = "1-1";
    TreeDiff d = diff_trees(facts_with("6.1", {}, before), facts_with("6.1", {}, after));
    CHECK(package_summary(d, 2) ==
          "7 added, 0 removed, 0 changed (0 -> 7 packages); added: pkg0 1-1, pkg1 1-1, and 5 more");
}

TEST_CASE("tree diff: unknown packages and unread configs are said, not diffed", "[tree-facts]") {
    TreeFacts a = facts_with("6.1", {}, {{"bash", "1"}});
    TreeFacts b = facts_with("6.2", {}, {});
    b.packages = {
        "rpm",
        "rpm not found: install rpm to read the tree's rpm database /t/usr/lib/sysimage/rpm",
        {}};
    b.kernels[0].problem = "/t/usr/lib/modules/6.2/config:3: truncated: the last line has no end";
    TreeDiff d = diff_trees(a, b);
    CHECK(d.packages.empty());
    CHECK(package_summary(d, 3) == "packages unknown: after: rpm not found: install rpm to read "
                                   "the tree's rpm database /t/usr/lib/sysimage/rpm");
    CHECK(d.kernel_problems ==
          std::vector<std::string>{
              "after: /t/usr/lib/modules/6.2/config:3: truncated: the last line has no end"});
    TreeFacts none;
    TreeDiff d2 = diff_trees(none, a);
    CHECK(d2.config_compared.empty());
    CHECK(d2.kernels.added.size() == 1);
}
