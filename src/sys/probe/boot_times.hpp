#pragma once
// This boot's times from systemd (core/bench/boot_times), read over D-Bus. The
// reader is a seam: tests give fake answers; the real one asks the system
// bus. bootbench waits (bounded) for the boot to finish, so that the suite
// never runs inside the boot it measures.
#include "core/bench/boot_times.hpp"
#include "core/bench/parsers.hpp"

#include <optional>
#include <string>

namespace bootbench::sys {

class Clock;
class InterruptWatch;

class BootTimesSource {
public:
    virtual ~BootTimesSource() = default;
    // The manager's timestamps now, or nullopt with `problem` saying why
    // (no system bus, no systemd on it).
    virtual std::optional<core::SystemdTimestamps> read(std::string& problem) = 0;
};

// org.freedesktop.systemd1.Manager's properties on the system bus (GDBus).
class SystemdBootTimes final : public BootTimesSource {
public:
    std::optional<core::SystemdTimestamps> read(std::string& problem) override;
};

struct BootMeasurement {
    core::BenchMetrics metrics;      // empty when nothing could be read
    std::string described;           // for environment.boot_times and the log
    uint64_t finish_monotonic_us = 0; // FinishTimestampMonotonic; 0: unknown
};

// Reads until FinishTimestampMonotonic is set, at most `max_wait_s` (polling
// each second on `clock`). What could not be read is said in `described`;
// throws only when `watch` (may be null) saw SIGINT, SIGTERM or SIGHUP.
BootMeasurement measure_boot(BootTimesSource& source, Clock& clock, double max_wait_s,
                             const InterruptWatch* watch = nullptr);

} // namespace bootbench::sys
