#include "catch.hpp"
#include "core/bench/energy.hpp"
#include "core/bench/host_metrics.hpp"
#include "core/experiment/metric_catalog.hpp"

using namespace bootbench::core;

namespace {

const char* kMeminfo = "MemTotal:       16318008 kB\n"
                       "MemFree:         9000000 kB\n"
                       "MemAvailable:   12222008 kB\n"
                       "Slab:             524288 kB\n"
                       "SReclaimable:     300000 kB\n";

const Metric* metric(const BenchMetrics& m, const std::string& key) {
    for (const auto& x : m.metrics)
        if (x.key == key)
            return &x;
    return nullptr;
}

std::string missing(const BenchMetrics& m, const std::string& key) {
    for (const auto& x : m.missing)
        if (x.key == key)
            return x.reason;
    return "(not missing)";
}

RaplSnapshot snapshot(std::vector<RaplReading> zones) {
    return {std::move(zones), ""};
}

} // namespace

TEST_CASE("memory: used is MemTotal - MemAvailable and slab is Slab, in MiB, lower is better") {
    BenchMetrics m = memory_metrics(std::string(kMeminfo), "/proc/meminfo", "");
    REQUIRE(metric(m, "mem_used_mib"));
    CHECK(metric(m, "mem_used_mib")->value == Approx(4000.0));
    CHECK(metric(m, "mem_used_mib")->unit == "MiB");
    CHECK(metric(m, "mem_used_mib")->better == Better::lower);
    CHECK(metric(m, "mem_used_mib")->bench == "system");
    REQUIRE(metric(m, "mem_slab_mib"));
    CHECK(metric(m, "mem_slab_mib")->value == Approx(512.0));
    CHECK(m.missing.empty());
}

TEST_CASE("memory: a field is found only at the start of a line") {
    CHECK(meminfo_kib("SReclaimable:  300 kB\nSlab: 200 kB\n", "Slab") == Approx(200));
    CHECK(meminfo_kib("XMemTotal: 5 kB\n", "MemTotal") == std::nullopt);
    CHECK(meminfo_kib("MemTotal: lots\n", "MemTotal") == std::nullopt);
    CHECK(meminfo_kib("MemTotal:\n", "MemTotal") == std::nullopt);
}

TEST_CASE("memory: a meminfo without MemAvailable or Slab leaves those missing, with why") {
    BenchMetrics m = memory_metrics(std::string("MemTotal: 1000 kB\nMemFree: 10 kB\n"),
                                    "/fake/proc/meminfo", "");
    CHECK(m.metrics.empty());
    CHECK(missing(m, "mem_used_mib") ==
          "/fake/proc/meminfo has no 'MemAvailable:' line with a number of kB");
    CHECK(missing(m, "mem_slab_mib") == "/fake/proc/meminfo has no 'Slab:' line with a number of kB");
}

TEST_CASE("memory: an unreadable meminfo leaves both missing, naming the file and the error") {
    BenchMetrics m = memory_metrics(std::nullopt, "/proc/meminfo", "Permission denied");
    CHECK(missing(m, "mem_used_mib") == "cannot read /proc/meminfo: Permission denied");
    CHECK(missing(m, "mem_slab_mib") == "cannot read /proc/meminfo: Permission denied");
}

TEST_CASE("processes: a count is a metric, no count is missing with why") {
    REQUIRE(metric(process_metric(212, ""), "processes"));
    CHECK(metric(process_metric(212, ""), "processes")->value == 212);
    CHECK(missing(process_metric(std::nullopt, "cannot list /proc: Permission denied"),
                  "processes") == "processes not counted: cannot list /proc: Permission denied");
}

TEST_CASE("the catalog says lower is better for the system's figures, which are not published") {
    for (const char* key : {"mem_used_mib", "mem_slab_mib", "processes"}) {
        auto info = find_metric(key);
        REQUIRE(info);
        CHECK(info->better == Better::lower);
        CHECK(info->from == MetricFrom::system);
    }
    CHECK(find_metric("sched_pipe_usecs_op")->from == MetricFrom::bench);
}

TEST_CASE("RAPL: the delta of a counter, across a wrap at max_energy_range_uj") {
    CHECK(rapl_delta_uj(1000, 5000, 262143328850) == 4000);
    CHECK(rapl_delta_uj(262143328000, 1000, 262143328850) == 1850);
    CHECK(rapl_delta_uj(7, 7, 100) == 0);
}

TEST_CASE("RAPL: energy is summed over packages, power is energy over the bench's wall time") {
    RaplSnapshot before = snapshot({{"intel-rapl:0", 1'000'000, 10'000'000},
                                    {"intel-rapl:1", 9'000'000, 10'000'000}});
    // zone 0: +5 J; zone 1 wraps: 9 J -> 10 J (0) -> 4 J, +5 J
    RaplSnapshot after = snapshot({{"intel-rapl:0", 6'000'000, 10'000'000},
                                   {"intel-rapl:1", 4'000'000, 10'000'000}});
    BenchMetrics m = energy_metrics("pipe", before, after, 2.0);
    REQUIRE(metric(m, "pipe_energy_j"));
    CHECK(metric(m, "pipe_energy_j")->value == Approx(10.0));
    CHECK(metric(m, "pipe_energy_j")->unit == "J");
    CHECK(metric(m, "pipe_energy_j")->better == Better::lower);
    REQUIRE(metric(m, "pipe_power_w"));
    CHECK(metric(m, "pipe_power_w")->value == Approx(5.0));
    CHECK(metric(m, "pipe_power_w")->better == Better::lower);
    CHECK(m.missing.empty());
}

TEST_CASE("RAPL: an unreadable counter leaves the bench's energy and power missing, with why") {
    RaplSnapshot before = snapshot({{"intel-rapl:0", 1, 100}});
    RaplSnapshot after{{}, "cannot read /sys/class/powercap/intel-rapl:0/energy_uj: Permission denied"};
    BenchMetrics m = energy_metrics("pipe", before, after, 2.0);
    CHECK(m.metrics.empty());
    CHECK(missing(m, "pipe_energy_j") ==
          "energy of bench pipe not measured: cannot read "
          "/sys/class/powercap/intel-rapl:0/energy_uj: Permission denied");
    CHECK(missing(m, "pipe_power_w") == missing(m, "pipe_energy_j"));
    CHECK(missing(energy_metrics("pipe", before, snapshot({}), 1), "pipe_energy_j") ==
          "energy of bench pipe not measured: the RAPL zones changed during the bench");
    CHECK(missing(energy_metrics("pipe", before, before, 0), "pipe_power_w") ==
          "bench pipe has no wall time to divide by");
}
