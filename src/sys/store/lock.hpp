#pragma once
// One bootbench at a time on a machine: an flock on /var/lib/bootbench/lock,
// held by start, resume and abort for as long as they act. The lock file
// says who holds it, so a refused caller can say which experiment runs.
#include <filesystem>
#include <string>

namespace bootbench::sys {

class ExperimentLock {
public:
    // Throws bootbench::Error naming the holder when another process has it.
    ExperimentLock(const std::filesystem::path& file, const std::string& what);
    ~ExperimentLock();
    ExperimentLock(const ExperimentLock&) = delete;
    ExperimentLock& operator=(const ExperimentLock&) = delete;

private:
    int fd_ = -1;
};

} // namespace bootbench::sys
