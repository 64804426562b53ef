#include "sys/run/canary_watch.hpp"

#include "core/bench/parsers.hpp"
#include "sys/probe/probes.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace bootbench::sys {

namespace {

// A kmsg record is at most about 8 KiB; a smaller buffer makes read() fail with EINVAL.
constexpr size_t kKmsgBuffer = 16 * 1024;
// Bounds the reading: a kernel that logs without end cannot keep the run here.
constexpr int kMaxKmsgReads = 100000;

core::ThrottleCounts read_throttle(const fs::path& root) {
    core::ThrottleCounts counts;
    for (const auto& cpu : probe_dirs(root / "sys/devices/system/cpu", "cpu"))
        for (const char* file : {"core_throttle_count", "package_throttle_count"})
            if (auto v = read_probe(cpu / "thermal_throttle" / file))
                if (auto n = core::parse_number(*v))
                    counts[cpu.filename().string() + "/" + file] = static_cast<long long>(*n);
    return counts;
}

std::string errno_text(const char* doing, const fs::path& path) {
    return std::string(doing) + " " + path.string() + ": " + std::strerror(errno);
}

// Reads records until none is left (EAGAIN, or the end of a plain file in tests).
void read_records(int fd, const fs::path& path, core::KernelLog& log) {
    std::vector<char> buf(kKmsgBuffer);
    for (int i = 0; i < kMaxKmsgReads; ++i) {
        ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n > 0) {
            core::add_kmsg_records(log, std::string_view(buf.data(), static_cast<size_t>(n)));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EPIPE) { // records overwritten before we read them: go on
            log.problem = "some kernel log records were overwritten before they were read";
            continue;
        }
        if (n < 0 && errno != EAGAIN)
            log.problem = errno_text("reading", path);
        return;
    }
}

} // namespace

CanaryWatch::CanaryWatch(const fs::path& root)
    : root_(root), kmsg_(root / "dev/kmsg"), throttle_before_(read_throttle(root)) {
    fd_ = ::open(kmsg_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0)
        open_problem_ = errno_text("cannot open", kmsg_);
    else if (::lseek(fd_, 0, SEEK_END) < 0)
        open_problem_ = errno_text("cannot seek to the end of", kmsg_);
}

CanaryWatch::~CanaryWatch() {
    if (fd_ >= 0)
        ::close(fd_);
}

core::Canaries CanaryWatch::finish() {
    core::Canaries c;
    c.kernel_log.problem = open_problem_;
    if (open_problem_.empty())
        read_records(fd_, kmsg_, c.kernel_log);
    core::ThrottleCounts after = read_throttle(root_);
    c.throttling = core::throttle_change(throttle_before_, after);
    if (after.empty())
        c.throttling.problem = "no thermal_throttle counters under " +
                               (root_ / "sys/devices/system/cpu").string() +
                               " (not an Intel CPU, or a virtual machine)";
    return c;
}

} // namespace bootbench::sys
