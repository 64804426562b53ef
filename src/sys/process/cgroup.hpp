#pragma once
// A cgroup v2 leaf per benchmark: everything a bench starts stays in it,
// whatever process group or session it makes (setsid, daemonising), so a
// timeout can kill all of it. Where no cgroup can be made (cgroup v1 only,
// a cgroup folder this process may not write), the reason is kept for the
// log: only the process group is killed then.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>

namespace bootbench::sys {

namespace fs = std::filesystem;

// The folder of the cgroup v2 `own_cgroup` ("0::/path" of /proc/self/cgroup)
// under the cgroup2 mount named in `mountinfo` (/proc/self/mountinfo), or why
// there is none.
std::variant<fs::path, std::string> own_cgroup_dir(const std::string& mountinfo,
                                                   const std::string& own_cgroup);

class BenchCgroup {
  public:
    // A new leaf under this process's own cgroup, or why none can be made.
    static std::variant<std::unique_ptr<BenchCgroup>, std::string> create();
    BenchCgroup(const BenchCgroup&) = delete;
    BenchCgroup& operator=(const BenchCgroup&) = delete;
    // Kills what is left in it and removes it.
    ~BenchCgroup();

    // An O_PATH descriptor of the leaf, for clone3's CLONE_INTO_CGROUP.
    int fd() const { return fd_; }
    const fs::path& path() const { return path_; }
    // Sends `sig` to every process in the leaf.
    void signal_all(int sig) const;
    // SIGKILL to every process in the leaf (cgroup.kill where the kernel has
    // it); waits, within a bound, until the leaf is empty.
    void kill_all() const;

  private:
    BenchCgroup(fs::path path, int fd) : path_(std::move(path)), fd_(fd) {}
    fs::path path_;
    int fd_ = -1;
};

} // namespace bootbench::sys
