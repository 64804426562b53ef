#pragma once
// The Clock seam: tests drive timeouts and the thermal gate with a fake one.
#include <string>

namespace bootbench::sys {

class Clock {
public:
    virtual ~Clock() = default;
    virtual double monotonic_s() = 0;
    // Seconds since this boot began (CLOCK_BOOTTIME).
    virtual double since_boot_s() = 0;
    virtual std::string now_iso8601() = 0;
    virtual void sleep_s(double seconds) = 0;
};

class RealClock final : public Clock {
public:
    double monotonic_s() override;
    double since_boot_s() override;
    std::string now_iso8601() override;
    void sleep_s(double seconds) override;
};

} // namespace bootbench::sys
