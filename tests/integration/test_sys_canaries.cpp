// The system's figures, RAPL energy and noise canaries: on fake /proc, /sys
// and /dev/kmsg trees, and once on this machine's own.
#include "catch.hpp"
#include "fake_tree.hpp"
#include "helpers.hpp"
#include "sys/run/canary_watch.hpp"
#include "sys/run/cpu_freq.hpp"
#include "sys/probe/rapl.hpp"
#include "sys/run/suite.hpp"
#include "sys/probe/system_probe.hpp"

#include <chrono>
#include <thread>

using namespace bootbench;
using namespace bootbench::core;
using testing::TempDir;
namespace fs = std::filesystem;

namespace {

const Metric* metric(const BenchMetrics& m, const std::string& key) {
    for (const auto& x : m.metrics)
        if (x.key == key)
            return &x;
    return nullptr;
}

std::string missing(const std::vector<MissingMetric>& list, const std::string& key) {
    for (const auto& x : list)
        if (x.key == key)
            return x.reason;
    return "(not missing)";
}

fs::path zone(const fs::path& root, const std::string& name) {
    return root / "sys/class/powercap" / name;
}

void add_rapl(const fs::path& root) {
    for (const char* z : {"intel-rapl:0", "intel-rapl:1"}) {
        testing::write(zone(root, z) / "name", std::string("package-") + z[11] + "\n");
        testing::write(zone(root, z) / "energy_uj", "1000000\n");
        testing::write(zone(root, z) / "max_energy_range_uj", "262143328850\n");
    }
    testing::write(zone(root, "intel-rapl:0:0") / "name", "core\n"); // a subzone: not a package
    testing::write(zone(root, "intel-rapl:0:0") / "energy_uj", "5\n");
    testing::write(root / "sys/devices/system/cpu/cpu0/thermal_throttle/core_throttle_count", "4\n");
    testing::write(root / "sys/devices/system/cpu/cpu0/thermal_throttle/package_throttle_count", "9\n");
    testing::write(root / "dev/kmsg", "4,1,10,-;an old warning, before the suite\n");
}

} // namespace

TEST_CASE("system figures: memory in use, slab and processes from the probe root") {
    TempDir tree;
    testing::build_laptop_tree(tree.path());
    BenchMetrics m = sys::probe_system_metrics(tree.path());
    REQUIRE(metric(m, "mem_used_mib"));
    CHECK(metric(m, "mem_used_mib")->value == 4000);
    CHECK(metric(m, "mem_slab_mib")->value == 400);
    CHECK(metric(m, "processes")->value == 3);
    CHECK(m.missing.empty());
}

TEST_CASE("system figures: a meminfo without MemAvailable, or none, is missing with why") {
    TempDir tree;
    testing::write(tree.path() / "proc/meminfo", "MemTotal: 1000 kB\nSlab: 2048 kB\n");
    BenchMetrics m = sys::probe_system_metrics(tree.path());
    std::string file = (tree.path() / "proc/meminfo").string();
    CHECK(missing(m.missing, "mem_used_mib") ==
          file + " has no 'MemAvailable:' line with a number of kB");
    CHECK(metric(m, "mem_slab_mib")->value == 2);
    CHECK(missing(m.missing, "processes") ==
          "processes not counted: " + (tree.path() / "proc").string() + " has no process folders");
    fs::remove(tree.path() / "proc/meminfo");
    CHECK(missing(sys::probe_system_metrics(tree.path()).missing, "mem_slab_mib") ==
          "cannot read " + file + ": No such file or directory");
}

TEST_CASE("RAPL: package zones only, described for the environment; none is said once") {
    TempDir tree;
    sys::RaplMeter none(tree.path());
    CHECK_FALSE(none.available());
    CHECK(none.describe() ==
          "no RAPL: " + (tree.path() / "sys/class/powercap").string() + " has no intel-rapl package zone");
    add_rapl(tree.path());
    sys::RaplMeter meter(tree.path());
    CHECK(meter.describe() == "RAPL: intel-rapl:0 (package-0) intel-rapl:1 (package-1)");
    RaplSnapshot s = meter.read();
    CHECK(s.problem.empty());
    REQUIRE(s.zones.size() == 2);
    CHECK(s.zones[1].energy_uj == 1000000);
    CHECK(s.zones[1].max_range_uj == 262143328850);
}

TEST_CASE("RAPL: an unreadable energy file means no RAPL, with the file and the error") {
    TempDir tree;
    add_rapl(tree.path());
    fs::path file = zone(tree.path(), "intel-rapl:1") / "energy_uj";
    fs::remove(file);
    fs::create_symlink(tree.path() / "nowhere", file);
    sys::RaplMeter meter(tree.path());
    CHECK_FALSE(meter.available());
    CHECK(meter.describe() == "no RAPL: cannot read " + file.string() + ": No such file or directory");
}

TEST_CASE("run_suite on a fake tree: a bench's energy and power, kernel warnings and throttling") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    add_rapl(tree.path());
    fs::path cpu0 = tree.path() / "sys/devices/system/cpu/cpu0/thermal_throttle";
    // what the kernel would do while the bench runs
    std::string script = "echo 3000000 > " + (zone(tree.path(), "intel-rapl:0") / "energy_uj").string() +
                         "; printf '6,2,20,-;info\\n4,3,21,-;CPU0: Core temperature above threshold\\n' >> " +
                         (tree.path() / "dev/kmsg").string() + "; echo 16 > " +
                         (cpu0 / "core_throttle_count").string();
    RunResult r = testing::run_suite_on(testing::one_command_bench(script), dir.path(), tree.path());
    INFO(nlohmann::json(to_json(r)).dump(2));
    CHECK(r.status == RunStatus::ok);
    CHECK(core::to_json(r.environment)["energy"] == "RAPL: intel-rapl:0 (package-0) intel-rapl:1 (package-1)");
    REQUIRE(r.find("work_energy_j"));
    CHECK(r.find("work_energy_j")->value == 2.0);
    CHECK(r.find("work_energy_j")->better == Better::lower);
    REQUIRE(r.find("work_power_w"));
    CHECK(r.find("work_power_w")->value == 2.0 / r.benches[0].wall_s);
    CHECK(r.find("mem_used_mib")->value == 4000);
    REQUIRE(r.canaries);
    CHECK(canary_text(*r.canaries) == "1 kernel warning during the benches (first: <4> CPU0: Core "
                                      "temperature above threshold); core throttling 12 times");
    CHECK(r.canaries->kernel_log.problem.empty());
}

TEST_CASE("run_suite on a fake tree: an energy file gone during the bench leaves energy missing") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    add_rapl(tree.path());
    fs::path file = zone(tree.path(), "intel-rapl:0") / "energy_uj";
    RunResult r = testing::run_suite_on(testing::one_command_bench("rm " + file.string()), dir.path(), tree.path());
    CHECK(r.status == RunStatus::partial);
    CHECK(r.find("work_value"));
    CHECK(missing(r.missing, "work_energy_j") == "energy of bench work not measured: cannot read " +
                                                     file.string() + ": No such file or directory");
}

TEST_CASE("canaries: a kernel log that cannot be opened or read is said in the result") {
    TempDir tree;
    core::Canaries none = sys::CanaryWatch(tree.path()).finish();
    fs::path kmsg = tree.path() / "dev/kmsg";
    CHECK(none.kernel_log.problem == "cannot open " + kmsg.string() + ": No such file or directory");
    CHECK(none.throttling.problem.find("no thermal_throttle counters under ") == 0);
    fs::create_directories(kmsg); // opens, but read() fails (EINVAL or EISDIR)
    core::Canaries bad = sys::CanaryWatch(tree.path()).finish();
    INFO(bad.kernel_log.problem);
    CHECK(bad.kernel_log.problem.rfind("reading " + kmsg.string() + ": ", 0) == 0);
    CHECK(canary_text(bad) == "");
}

TEST_CASE("run_suite on this machine: memory, processes, energy said, kernel log read") {
    TempDir dir;
    RunResult r = testing::run_suite_on(testing::one_command_bench("true"), dir.path(), "/");
    REQUIRE(r.find("mem_used_mib"));
    CHECK(r.find("mem_used_mib")->value > 0);
    CHECK(r.find("mem_slab_mib")->value > 0);
    CHECK(r.find("processes")->value > 1);
    std::string energy = core::to_json(r.environment)["energy"];
    CHECK((energy.rfind("RAPL: ", 0) == 0 || energy.rfind("no RAPL: ", 0) == 0));
    REQUIRE(r.canaries);
    if (::geteuid() == 0) // /dev/kmsg needs CAP_SYSLOG where dmesg_restrict is set
        CHECK(r.canaries->kernel_log.problem == "");
}

TEST_CASE("cpu frequency: sampled from every CPU's scaling_cur_freq, averaged in MHz; none without cpufreq") {
    TempDir tree, none;
    testing::write(tree.path() / "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2000000\n");
    testing::write(tree.path() / "sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3000000\n");
    testing::write(tree.path() / "sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq", "9\n"); // no CPU
    sys::FreqSampler sampler(tree.path(), 0.01);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto mhz = sampler.stop();
    REQUIRE(mhz);
    CHECK(*mhz == Approx(2500));
    CHECK(sampler.stop() == std::nullopt); // once
    sys::FreqSampler without(none.path());
    CHECK(without.stop() == std::nullopt);
}

TEST_CASE("run_suite on a fake tree: each bench's average CPU frequency is in the environment") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    fs::path cur = tree.path() / "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq";
    testing::write(cur, "3000000\n");
    // the CPU slows down for the rest of the bench: the average lies between
    RunResult r = testing::run_suite_on(testing::one_command_bench("echo 1000000 > " + cur.string() + "; sleep 0.6"), dir.path(),
                                        tree.path());
    INFO(nlohmann::json(to_json(r)).dump(2));
    REQUIRE(core::to_json(r.environment).contains("cpu_freq_mhz"));
    double mhz = core::to_json(r.environment)["cpu_freq_mhz"]["work"].get<double>();
    CHECK(mhz >= 1000);
    CHECK(mhz < 3000);
    TempDir dir2, bare;
    testing::build_laptop_tree(bare.path()); // cpufreq policies, but no per-CPU scaling_cur_freq
    RunResult without = testing::run_suite_on(testing::one_command_bench("true"), dir2.path(), bare.path());
    CHECK_FALSE(core::to_json(without.environment).contains("cpu_freq_mhz"));
}

namespace {

// CLOCK_BOOTTIME runs ahead of CLOCK_MONOTONIC by `asleep_s` once `marker`
// exists: the machine slept while the bench ran.
class SuspendingClock final : public sys::Clock {
public:
    fs::path marker;
    double asleep_s = 0;
    double monotonic_s() override { return 50; }
    double since_boot_s() override { return 50 + (fs::exists(marker) ? asleep_s : 0); }
    std::string now_iso8601() override { return "2026-12-05T10:00:00+00:00"; }
    void sleep_s(double) override {}
};

} // namespace

TEST_CASE("run_suite: a suspend during the benches (boottime ran ahead of monotonic) is a canary") {
    TempDir dir, tree;
    testing::build_laptop_tree(tree.path());
    SuspendingClock clock;
    clock.marker = dir.path() / "slept";
    clock.asleep_s = 912;
    RunResult r = testing::run_suite_on(testing::one_command_bench("touch " + clock.marker.string() + "; echo 1"),
                                        dir.path(), tree.path(), &clock);
    REQUIRE(r.canaries);
    CHECK(r.canaries->suspended_s == Approx(912));
    CHECK(canary_text(*r.canaries) == "the machine was suspended for 912 s during the benches");
    TempDir dir2;
    SuspendingClock awake; // never slept
    awake.marker = dir2.path() / "never";
    RunResult quiet = testing::run_suite_on(testing::one_command_bench("echo 1"), dir2.path(), tree.path(), &awake);
    REQUIRE(quiet.canaries);
    CHECK(quiet.canaries->suspended_s == 0);
}
