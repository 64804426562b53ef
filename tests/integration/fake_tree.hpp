#pragma once
// A fake /proc and /sys tree, with what a Framework 13 (AMD) shows.
#include "helpers.hpp"
#include "sys/run/suite.hpp"

namespace testing {

inline void build_laptop_tree(const fs::path& root) {
    write(root / "proc/sys/kernel/osrelease", "7.0.12-cachyos1.fc44.x86_64\n");
    write(root / "proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Tue Jun 16 2026\n");
    write(root / "proc/cmdline", "BOOT_IMAGE=(hd0,gpt2)/ostree/fedora-abc/vmlinuz quiet\n");
    write(root / "proc/cpuinfo",
          "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD Ryzen 5 7640U w/ "
          "Radeon 760M Graphics\n\nprocessor\t: 1\nmodel name\t: AMD Ryzen 5 7640U w/ "
          "Radeon 760M Graphics\n");
    write(root / "proc/sys/kernel/sched_bore", "1\n");
    write(root / "proc/sys/kernel/hostname", "margine\n");
    write(root / "proc/sys/kernel/random/boot_id", "0f1e2d3c-aaaa-bbbb-cccc-123456789abc\n");
    write(root / "sys/devices/system/cpu/online", "0-11\n");
    write(root / "sys/devices/system/cpu/smt/control", "on\n");
    for (int i = 0; i < 12; ++i) {
        fs::path p = root / "sys/devices/system/cpu/cpufreq" / ("policy" + std::to_string(i));
        write(p / "scaling_governor", "powersave\n");
        write(p / "energy_performance_preference",
              i == 10 ? "performance\n" : "balance_performance\n");
    }
    write(root / "sys/devices/system/cpu/vulnerabilities/spectre_v2",
          "Mitigation: Enhanced / Automatic IBRS\n");
    write(root / "sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
    write(root / "sys/kernel/sched_ext/state", "disabled\n");
    write(root / "sys/kernel/sched_ext/root/ops", "\n");
    write(root / "sys/class/power_supply/BAT1/type", "Battery\n");
    write(root / "sys/class/power_supply/BAT1/online", "0\n");
    write(root / "sys/class/power_supply/ACAD/type", "Mains\n");
    write(root / "sys/class/power_supply/ACAD/online", "1\n");
    write(root / "sys/class/dmi/id/product_name", "Laptop 13 (AMD Ryzen 7040Series)\n");
    write(root / "sys/class/hwmon/hwmon0/name", "nvme\n");
    write(root / "sys/class/hwmon/hwmon0/temp1_input", "38850\n");
    write(root / "sys/class/hwmon/hwmon3/name", "k10temp\n");
    write(root / "sys/class/hwmon/hwmon3/temp1_label", "Tctl\n");
    write(root / "sys/class/hwmon/hwmon3/temp1_input", "48375\n");
    write(root / "sys/class/thermal/thermal_zone0/type", "acpitz\n");
    write(root / "sys/class/thermal/thermal_zone0/temp", "41000\n");
    write(root / "proc/meminfo", "MemTotal:       31998328 kB\nMemFree:        20000000 kB\n"
                                 "MemAvailable:   27902328 kB\nSlab:             409600 kB\n");
    for (const char* pid : {"1", "812", "4096"})
        write(root / "proc" / pid / "comm", "p\n");
}

// One target "a" with these benches; no settling, and never a wait on a
// real sensor.
inline bootbench::core::Experiment experiment(std::vector<bootbench::core::Bench> benches) {
    using namespace bootbench::core;
    Experiment e;
    e.name = "exp";
    Target t;
    t.name = "a";
    e.targets = {t};
    e.conditions.settle_s = 0;
    e.conditions.max_start_temp_c = 150;
    e.benches = std::move(benches);
    return e;
}

// experiment() with one command bench "work" that runs `script`, then
// prints the metric work_value=1.
inline bootbench::core::Experiment one_command_bench(const std::string& script) {
    using namespace bootbench::core;
    Bench b;
    b.kind = BenchKind::command;
    b.name = "work";
    b.argv = {"sh", "-c", script + "; echo value=1"};
    b.timeout_s = 10;
    MetricSpec m;
    m.key = "work_value";
    m.regex = "value=([0-9.]+)";
    m.unit = "x";
    b.metrics = {m};
    return experiment({b});
}

// Run a-1 of `e`'s first target with /proc and /sys read under `probe_root`,
// its raw outputs under `dir`/runs/a-1, on a fake clock.
inline bootbench::core::RunResult run_suite_on(const bootbench::core::Experiment& e, const fs::path& dir,
                                               const fs::path& probe_root, bootbench::sys::Clock* with = nullptr) {
    bootbench::sys::SuiteRequest req;
    req.experiment = &e;
    req.target = &e.targets[0];
    req.run_id = "a-1";
    req.run_dir = dir / "runs" / "a-1";
    req.probe_root = probe_root;
    FakeClock clock;
    return bootbench::sys::run_suite(req, with ? *with : clock);
}

} // namespace testing
