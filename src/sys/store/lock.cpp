#include "sys/store/lock.hpp"

#include "core/base/error.hpp"
#include "sys/store/files.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace bootbench::sys {

namespace {

// A holder that is only passing (a forked child between fork and exec keeps
// the descriptor for a moment) is waited for this long before giving up.
constexpr double kLockPatienceS = 2.0;

bool flock_within(int fd, double seconds) {
    for (double waited = 0;; waited += 0.05) {
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0)
            return true;
        if (errno != EWOULDBLOCK || waited >= seconds)
            return false;
        ::usleep(50000);
    }
}

} // namespace

ExperimentLock::ExperimentLock(const std::filesystem::path& file, const std::string& what) {
    make_dirs(file.parent_path());
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
        throw Error("cannot open the lock " + file.string() + ": " + std::strerror(errno));
    if (!flock_within(fd_, kLockPatienceS)) {
        std::string holder;
        char buf[512];
        ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
        if (n > 0)
            holder.assign(buf, static_cast<size_t>(n));
        while (!holder.empty() && holder.back() == '\n')
            holder.pop_back();
        ::close(fd_);
        throw Error("another bootbench is at work here (" + (holder.empty() ? "unknown" : holder) +
                    "); see 'bootbench status', or wait for it to finish");
    }
    std::string me = what + ", pid " + std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, me.data(), me.size(), 0) < 0) {
        // who holds the lock is only for messages; the flock is what counts
    }
}

ExperimentLock::~ExperimentLock() {
    if (fd_ >= 0)
        ::close(fd_); // releases the flock
}

} // namespace bootbench::sys
