#include "sys/clock.hpp"

#include "core/base/time.hpp"

#include <cerrno>
#include <ctime>

namespace bootbench::sys {

namespace {

double read_clock(clockid_t id) {
    timespec ts{};
    clock_gettime(id, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

} // namespace

double RealClock::monotonic_s() { return read_clock(CLOCK_MONOTONIC); }
double RealClock::since_boot_s() { return read_clock(CLOCK_BOOTTIME); }

std::string RealClock::now_iso8601() {
    time_t t = time(nullptr);
    tm local{};
    localtime_r(&t, &local);
    return core::format_instant({static_cast<long long>(t), static_cast<int>(local.tm_gmtoff)});
}

void RealClock::sleep_s(double seconds) {
    if (seconds <= 0)
        return;
    timespec ts{static_cast<time_t>(seconds),
                static_cast<long>((seconds - static_cast<double>(static_cast<time_t>(seconds))) * 1e9)};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
    }
}

} // namespace bootbench::sys
