#include "core/bench/boot_times.hpp"

#include <cstdio>

namespace bootbench::core {

namespace {

// systemd-analyze's "kernel done": the initrd's start, or userspace's when
// there is no initrd. Unknown in a container or after a soft reboot, where
// the kernel, firmware and initrd belong to no boot of this userspace.
uint64_t kernel_done_us(const SystemdTimestamps& t) {
    if (t.soft_reboots > 0 || t.security_start_us == 0)
        return 0;
    return t.initrd_us > 0 ? t.initrd_us : t.userspace_us;
}

struct Part {
    const char* key;
    const char* label; // systemd-analyze's word for it
    double seconds;
};

std::vector<Part> parts(const SystemdTimestamps& t) {
    std::vector<Part> out;
    if (t.finish_us == 0 || t.finish_us < t.userspace_us)
        return out;
    uint64_t kernel = kernel_done_us(t);
    auto s = [](uint64_t us) { return static_cast<double>(us) / 1e6; };
    if (kernel > 0 && t.firmware_us > 0 && t.firmware_us >= t.loader_us)
        out.push_back({"boot_firmware_s", "firmware", s(t.firmware_us - t.loader_us)});
    if (kernel > 0 && t.loader_us > 0)
        out.push_back({"boot_loader_s", "loader", s(t.loader_us)});
    if (kernel > 0)
        out.push_back({"boot_kernel_s", "kernel", s(kernel)});
    if (kernel > 0 && t.initrd_us > 0 && t.userspace_us >= t.initrd_us)
        out.push_back({"boot_initrd_s", "initrd", s(t.userspace_us - t.initrd_us)});
    out.push_back({"boot_userspace_s", "userspace", s(t.finish_us - t.userspace_us)});
    if (kernel > 0)
        out.push_back({"boot_total_s", "", s(t.firmware_us + t.finish_us)});
    return out;
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3fs", s);
    return buf;
}

} // namespace

BenchMetrics boot_metrics(const SystemdTimestamps& t) {
    BenchMetrics out;
    for (const Part& p : parts(t))
        out.metrics.push_back({p.key, p.seconds, "s", Better::lower, kBootBench});
    return out;
}

std::string boot_summary(const SystemdTimestamps& t) {
    std::string text;
    std::string total;
    for (const Part& p : parts(t)) {
        if (*p.label == '\0')
            total = " = " + seconds_text(p.seconds);
        else
            text += (text.empty() ? "" : " + ") + seconds_text(p.seconds) + " (" + p.label + ")";
    }
    return text.empty() ? "" : "Startup finished in " + text + total;
}

} // namespace bootbench::core
