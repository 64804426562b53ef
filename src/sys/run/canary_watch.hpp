#pragma once
// Watches for noise canaries (core/host/canaries) across the benches: the
// kernel log from <root>/dev/kmsg, positioned at its end when the watch
// starts, and the thermal throttle counters of
// <root>/sys/devices/system/cpu/cpu*/thermal_throttle. Never throws: what
// cannot be read is recorded as the canary's problem.
#include "core/host/canaries.hpp"

#include <filesystem>

namespace bootbench::sys {

class CanaryWatch {
public:
    explicit CanaryWatch(const std::filesystem::path& root);
    ~CanaryWatch();
    CanaryWatch(const CanaryWatch&) = delete;
    CanaryWatch& operator=(const CanaryWatch&) = delete;

    // What happened since the watch started: reads the records written since
    // (non-blocking) and the counters' change.
    core::Canaries finish();

private:
    std::filesystem::path root_;
    std::filesystem::path kmsg_;
    int fd_ = -1;
    std::string open_problem_;
    core::ThrottleCounts throttle_before_;
};

} // namespace bootbench::sys
