#include "catch.hpp"
#include "run_builder.hpp"
#include "core/bench/boot_times.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/report/report.hpp"

using namespace bootbench::core;

namespace {

// A laptop with EFI firmware, a loader that reports its times, and an
// initrd. By hand, as systemd-analyze adds them up: firmware 5.123456 -
// 2.000000 = 3.123456 s, loader 2.000000 s, kernel (until the initrd)
// 1.500000 s, initrd 4.250000 - 1.500000 = 2.750000 s, userspace 19.750000 -
// 4.250000 = 15.500000 s, total firmware + finish = 24.873456 s.
SystemdTimestamps laptop() {
    SystemdTimestamps t;
    t.firmware_us = 5'123'456;
    t.loader_us = 2'000'000;
    t.initrd_us = 1'500'000;
    t.userspace_us = 4'250'000;
    t.finish_us = 19'750'000;
    t.security_start_us = 4'260'000;
    return t;
}

std::optional<double> value(const BenchMetrics& m, const std::string& key) {
    for (const auto& x : m.metrics)
        if (x.key == key)
            return x.value;
    return std::nullopt;
}

// A run of `target` whose boot finished `finish_s` into it, and one bench metric.
RunResult booted_run(const std::string& id, const std::string& target, double finish_s) {
    RunResult r = bootbench::test::run_of(id, target, bootbench::test::started_in_order(id));
    SystemdTimestamps t;
    t.userspace_us = 2'000'000;
    t.security_start_us = 2'010'000;
    t.finish_us = static_cast<uint64_t>(finish_s * 1e6);
    r.metrics = boot_metrics(t).metrics;
    r.metrics.push_back({"lat", 10, "ms", Better::lower, "b"});
    return r;
}

} // namespace

TEST_CASE("boot: every part as systemd-analyze computes it, in seconds, bench 'boot', lower is better") {
    BenchMetrics m = boot_metrics(laptop());
    CHECK(value(m, "boot_firmware_s") == Approx(3.123456));
    CHECK(value(m, "boot_loader_s") == Approx(2.0));
    CHECK(value(m, "boot_kernel_s") == Approx(1.5));
    CHECK(value(m, "boot_initrd_s") == Approx(2.75));
    CHECK(value(m, "boot_userspace_s") == Approx(15.5));
    CHECK(value(m, "boot_total_s") == Approx(24.873456));
    REQUIRE(m.metrics.size() == 6);
    for (const auto& x : m.metrics) {
        CHECK(x.bench == "boot");
        CHECK(x.unit == "s");
        CHECK(x.better == Better::lower);
    }
    CHECK(m.missing.empty());
}

TEST_CASE("boot: the log line reads like systemd-analyze's") {
    CHECK(boot_summary(laptop()) == "Startup finished in 3.123s (firmware) + 2.000s (loader) + 1.500s (kernel) + "
                                    "2.750s (initrd) + 15.500s (userspace) = 24.873s");
}

TEST_CASE("boot: a BIOS machine without an initrd: firmware, loader and initrd absent, not zero") {
    SystemdTimestamps t;
    t.userspace_us = 2'400'000; // the kernel ran until userspace began
    t.finish_us = 14'000'000;
    t.security_start_us = 2'410'000;
    BenchMetrics m = boot_metrics(t);
    CHECK(value(m, "boot_firmware_s") == std::nullopt);
    CHECK(value(m, "boot_loader_s") == std::nullopt);
    CHECK(value(m, "boot_initrd_s") == std::nullopt);
    CHECK(value(m, "boot_kernel_s") == Approx(2.4));
    CHECK(value(m, "boot_userspace_s") == Approx(11.6));
    CHECK(value(m, "boot_total_s") == Approx(14.0));
    CHECK(boot_summary(t) == "Startup finished in 2.400s (kernel) + 11.600s (userspace) = 14.000s");
}

TEST_CASE("boot: not finished yet: no metric at all") {
    SystemdTimestamps t = laptop();
    t.finish_us = 0;
    CHECK(boot_metrics(t).metrics.empty());
    CHECK(boot_summary(t).empty());
}

TEST_CASE("boot: in a container or after a soft reboot only userspace is this boot's") {
    SystemdTimestamps container = laptop();
    container.security_start_us = 0;
    BenchMetrics m = boot_metrics(container);
    REQUIRE(m.metrics.size() == 1);
    CHECK(m.metrics[0].key == "boot_userspace_s");
    CHECK(m.metrics[0].value == Approx(15.5));
    SystemdTimestamps soft = laptop();
    soft.soft_reboots = 1;
    REQUIRE(boot_metrics(soft).metrics.size() == 1);
    CHECK(boot_summary(soft) == "Startup finished in 15.500s (userspace)");
}

TEST_CASE("boot: the catalog knows the six keys, lower is better, none from a bench") {
    for (const char* key : {"boot_firmware_s", "boot_loader_s", "boot_kernel_s", "boot_initrd_s",
                            "boot_userspace_s", "boot_total_s"}) {
        auto info = find_metric(key);
        REQUIRE(info);
        CHECK(info->better == Better::lower);
        CHECK(info->unit == "s");
        CHECK(info->from == MetricFrom::system);
    }
}

TEST_CASE("boot: the report compares boot times like any metric, after the benches' own", "[report]") {
    ReportInput in;
    in.baseline = "a";
    for (int i = 1; i <= 6; ++i) {
        in.runs.push_back(booted_run("a-" + std::to_string(i), "a", 20 + 0.1 * i));
        in.runs.push_back(booted_run("b-" + std::to_string(i), "b", 15 + 0.1 * i));
    }
    Report r = build_report(in);
    std::vector<std::string> keys;
    for (const auto& m : r.metrics)
        keys.push_back(m.key);
    CHECK(keys == std::vector<std::string>{"lat", "boot_kernel_s", "boot_userspace_s", "boot_total_s"});
    const MetricReport& total = r.metrics.back();
    REQUIRE(total.comparison);
    CHECK(total.comparison->ratio == Approx(20.35 / 15.35)); // lower is better: baseline / subject
    CHECK(total.comparison->verdict == Verdict::better);
}
