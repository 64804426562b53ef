// environment.live (sys/probe/live_values) read from fake /proc, /sys, /etc,
// /var and /usr trees: what is there by its key, what is not there absent.
#include "catch.hpp"
#include "fake_tree.hpp"
#include "sys/probe/live_values.hpp"
#include "sys/probe/probes.hpp"

#include <cstdlib>

using namespace bootbench;
using namespace bootbench::sys;
using testing::TempDir;

namespace {

const std::string kRelease = "7.0.12-cachyos1.fc44.x86_64";

// A Margine laptop as its script saw it, and what a tuned Fedora adds.
void build_live_tree(const fs::path& root) {
    testing::build_laptop_tree(root);
    testing::write(root / "proc/cmdline",
                   "BOOT_IMAGE=(hd0,gpt2)/vmlinuz ostree=/ostree/boot.1/fedora/abc/0 quiet  mitigations=off\n");
    testing::write(root / "proc/sys/kernel/sched_autogroup_enabled", "1\n");
    testing::write(root / "proc/sys/kernel/sched_rr_timeslice_ms", "100\n");
    fs::create_directories(root / "proc/sys/kernel/sched_domain/cpu0"); // a folder: not a value
    testing::write(root / "proc/sys/kernel/numa_balancing", "0\n");
    testing::write(root / "proc/sys/kernel/printk", "4\t4\t1\t7\n"); // not in the list
    testing::write(root / "proc/sys/vm/swappiness", "180\n");
    testing::write(root / "proc/sys/vm/dirty_ratio", "20\n");
    testing::write(root / "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
    testing::write(root / "sys/kernel/mm/transparent_hugepage/defrag",
                   "always defer defer+madvise [madvise] never\n");
    testing::write(root / "sys/kernel/sched_ext/state", "enabled\n");
    testing::write(root / "sys/kernel/sched_ext/root/ops", "lavd_1.0.12_g1_x86_64\n");
    testing::write(root / "etc/tuned/active_profile", "throughput-performance\n");
    testing::write(root / "var/lib/power-profiles-daemon/state.ini",
                   "[State]\nCpuDriver=amd_pstate\nPlatformDriver=platform_profile\nProfile=performance\n");
    testing::write(root / "proc/cpuinfo",
                   "processor\t: 0\nmicrocode\t: 0xa704104\n\nprocessor\t: 1\nmicrocode\t: 0xa704104\n");
    testing::write(root / "usr/lib/modules" / kRelease / "config",
                   "CONFIG_CACHY=y\nCONFIG_SCHED_BORE=y\nCONFIG_SCHED_CLASS_EXT=y\nCONFIG_HZ_1000=y\n"
                   "CONFIG_HZ=1000\n# CONFIG_PREEMPT_NONE is not set\nCONFIG_NR_CPUS=8192\n");
    fs::path deploy = root / "ostree/deploy/fedora/deploy/abc123.0";
    fs::create_directories(deploy);
    testing::write(root / "ostree/deploy/fedora/deploy/abc123.0.origin",
                   "[origin]\ncontainer-image-reference=ostree-image-signed:docker://ghcr.io/margine/margine:stable\n");
    fs::create_directories(root / "ostree/boot.1/fedora/abc");
    fs::create_directory_symlink("../../../deploy/fedora/deploy/abc123.0", root / "ostree/boot.1/fedora/abc/0");
}

} // namespace

TEST_CASE("live values: what a laptop's boot shows, by stable keys") {
    TempDir dir;
    build_live_tree(dir.path());
    LiveValues v = probe_live(dir.path());
    CHECK(v.at("cmdline") == "BOOT_IMAGE=(hd0,gpt2)/vmlinuz ostree=/ostree/boot.1/fedora/abc/0 quiet mitigations=off");
    CHECK(v.at("kernel.release") == kRelease);
    CHECK(v.at("sysctl.kernel.sched_bore") == "1");
    CHECK(v.at("sysctl.kernel.sched_autogroup_enabled") == "1");
    CHECK(v.at("sysctl.kernel.sched_rr_timeslice_ms") == "100");
    CHECK_FALSE(v.count("sysctl.kernel.sched_domain"));
    CHECK_FALSE(v.count("sysctl.kernel.printk"));
    CHECK(v.at("sysctl.kernel.numa_balancing") == "0");
    CHECK(v.at("sysctl.vm.swappiness") == "180");
    CHECK(v.at("sysctl.vm.dirty_ratio") == "20");
    CHECK(v.at("thp.enabled") == "madvise");
    CHECK(v.at("thp.defrag") == "madvise");
    CHECK(v.at("sched_ext.state") == "enabled");
    CHECK(v.at("sched_ext.ops") == "lavd_1.0.12_g1_x86_64");
    CHECK(v.at("tuned.profile") == "throughput-performance");
    CHECK(v.at("power-profiles-daemon.profile") == "performance");
    CHECK(v.at("vulnerability.spectre_v2") == "Mitigation: Enhanced / Automatic IBRS");
    CHECK(v.at("vulnerability.meltdown") == "Not affected");
    CHECK(v.at("cpu.microcode") == "0xa704104");
    // the Margine script's identity: CONFIG_CACHY, CONFIG_SCHED_BORE, CONFIG_SCHED_CLASS_EXT
    CHECK(v.at("config.CONFIG_CACHY") == "y");
    CHECK(v.at("config.CONFIG_SCHED_BORE") == "y");
    CHECK(v.at("config.CONFIG_SCHED_CLASS_EXT") == "y");
    CHECK(v.at("config.CONFIG_HZ") == "1000");
    CHECK(v.at("config.CONFIG_PREEMPT_NONE") == "n");
    CHECK_FALSE(v.count("config.CONFIG_NR_CPUS")); // not an option that matters
    CHECK(v.at("deployment.origin") == "ostree-image-signed:docker://ghcr.io/margine/margine:stable");
    CHECK(core::to_json(testing::run_suite_on(testing::one_command_bench("true"), dir.path() / "out", dir.path())
                            .environment)["live"]["thp.enabled"] == "madvise");
}

TEST_CASE("live values: an empty tree gives no key and no error; /boot's config is read too") {
    TempDir dir;
    CHECK(probe_live(dir.path()).empty());
    CHECK(core::to_json(testing::run_suite_on(testing::one_command_bench("true"), dir.path() / "out", dir.path())
                            .environment)["live"] == nlohmann::json::object());
    testing::write(dir.path() / "proc/sys/kernel/osrelease", "6.1.0-13-amd64\n");
    testing::write(dir.path() / "boot/config-6.1.0-13-amd64", "CONFIG_HZ=250\n");
    LiveValues v = probe_live(dir.path());
    CHECK(v == LiveValues{{"kernel.release", "6.1.0-13-amd64"}, {"config.CONFIG_HZ", "250"}});
}

TEST_CASE("live values: a damaged kernel config, a cmdline without ostree= and sched_ext without ops") {
    TempDir dir;
    build_live_tree(dir.path());
    testing::write(dir.path() / "usr/lib/modules" / kRelease / "config", "CONFIG_HZ=1000\nCONFIG_SCHED_BORE=y"); // cut
    testing::write(dir.path() / "proc/cmdline", "quiet\n");
    fs::remove_all(dir.path() / "sys/kernel/sched_ext/root");
    LiveValues v = probe_live(dir.path());
    CHECK_FALSE(v.count("config.CONFIG_HZ"));
    CHECK_FALSE(v.count("deployment.origin"));
    CHECK_FALSE(v.count("sched_ext.ops"));
    CHECK(v.at("sched_ext.state") == "enabled");
}

TEST_CASE("live values: /proc/config.gz of a kernel built with IKCONFIG_PROC; a damaged one says nothing") {
    TempDir dir;
    testing::write(dir.path() / "proc/sys/kernel/osrelease", "7.0.12-cachyos1.fc44.x86_64\n");
    testing::write(dir.path() / "config", "CONFIG_CACHY=y\nCONFIG_SCHED_BORE=y\n# CONFIG_SCHED_CLASS_EXT is not set\n");
    std::string gzip = "gzip -c '" + (dir.path() / "config").string() + "' > '" + (dir.path() / "proc/config.gz").string() + "'";
    REQUIRE(std::system(gzip.c_str()) == 0);
    LiveValues v = probe_live(dir.path());
    CHECK(v.at("config.CONFIG_CACHY") == "y");
    CHECK(v.at("config.CONFIG_SCHED_BORE") == "y");
    CHECK(v.at("config.CONFIG_SCHED_CLASS_EXT") == "n");
    testing::write(dir.path() / "proc/config.gz", "CONFIG_HZ=1000\n"); // not gzip
    CHECK(probe_live(dir.path()) == LiveValues{{"kernel.release", "7.0.12-cachyos1.fc44.x86_64"}});
}
