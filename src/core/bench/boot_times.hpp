#pragma once
// Boot time per run, from systemd's own timestamps (the manager's
// *TimestampMonotonic properties), computed the way `systemd-analyze time`
// prints "Startup finished in ...". Recorded as metrics of the run (bench
// "boot"), lower is better (core/experiment/metric_catalog). A part systemd did not
// time (no EFI firmware or loader figures, no initrd) is absent, not zero.
#include "core/bench/parsers.hpp"

#include <cstdint>
#include <string>

namespace bootbench::core {

inline constexpr const char* kBootBench = "boot";

// The manager's properties, in microseconds; 0 means "not set", as systemd
// reports it. Firmware and loader count back from the kernel's start;
// the others are CLOCK_MONOTONIC.
struct SystemdTimestamps {
    uint64_t firmware_us = 0;       // FirmwareTimestampMonotonic
    uint64_t loader_us = 0;         // LoaderTimestampMonotonic
    uint64_t initrd_us = 0;         // InitRDTimestampMonotonic
    uint64_t userspace_us = 0;      // UserspaceTimestampMonotonic
    uint64_t finish_us = 0;         // FinishTimestampMonotonic: 0 until boot is complete
    uint64_t security_start_us = 0; // SecurityStartTimestampMonotonic: 0 in a container
    uint64_t soft_reboots = 0;      // SoftRebootsCount (absent before systemd 254: 0)
};

// boot_firmware_s, boot_loader_s, boot_kernel_s, boot_initrd_s,
// boot_userspace_s and boot_total_s. Nothing before userspace after a soft
// reboot or in a container (systemd-analyze shows userspace only there); no
// metric at all while the boot is not finished.
BenchMetrics boot_metrics(const SystemdTimestamps& t);

// "Startup finished in 12.345s (kernel) + 3.210s (initrd) + ... = 20.000s",
// for the log; "" while the boot is not finished.
std::string boot_summary(const SystemdTimestamps& t);

} // namespace bootbench::core
