#include "sys/process/cgroup.hpp"

#include "sys/store/files.hpp"
#include "sys/store/user_lines.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace bootbench::sys {

namespace {

constexpr int kEmptyWaitMs = 10000; // killed processes leave at once; a bound for a stuck kernel

// The path of this process's cgroup v2 from /proc/self/cgroup ("0::/path").
std::optional<std::string> unified_path(const std::string& own_cgroup) {
    std::istringstream in(own_cgroup);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("0::", 0) == 0)
            return line.substr(3);
    return std::nullopt;
}

// (mount root, mount point) of the first cgroup2 mount in mountinfo.
std::optional<std::pair<std::string, std::string>> cgroup2_mount(const std::string& mountinfo) {
    std::istringstream in(mountinfo);
    for (std::string line; std::getline(in, line);) {
        size_t dash = line.find(" - ");
        if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0)
            continue;
        std::istringstream fields(line.substr(0, dash));
        std::string id, parent, dev, root, point;
        if (fields >> id >> parent >> dev >> root >> point)
            return std::pair(root, point);
    }
    return std::nullopt;
}

bool write_text(const fs::path& file, const std::string& text) {
    int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

std::vector<pid_t> members(const fs::path& dir) {
    std::vector<pid_t> out;
    std::ifstream in(dir / "cgroup.procs");
    for (long pid = 0; in >> pid;)
        out.push_back(static_cast<pid_t>(pid));
    return out;
}

bool populated(int events_fd) {
    char buf[256];
    ssize_t n = ::pread(events_fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    return std::strstr(buf, "populated 1") != nullptr;
}

} // namespace

std::variant<fs::path, std::string> own_cgroup_dir(const std::string& mountinfo,
                                                   const std::string& own_cgroup) {
    auto own = unified_path(own_cgroup);
    if (!own)
        return std::string("this process is in no cgroup v2 hierarchy (cgroup v1 only)");
    auto mount = cgroup2_mount(mountinfo);
    if (!mount)
        return std::string("no cgroup2 file system is mounted");
    const auto& [root, point] = *mount;
    bool under = root == "/" || *own == root || own->rfind(root + "/", 0) == 0;
    if (!under)
        return "the cgroup2 mount at " + point + " does not show this process's cgroup " + *own;
    std::string rest = own->substr(root == "/" ? 0 : root.size());
    std::string joined = point + rest;
    while (joined.size() > 1 && joined.back() == '/')
        joined.pop_back();
    return fs::path(joined);
}

std::variant<std::unique_ptr<BenchCgroup>, std::string> BenchCgroup::create() {
    std::string mountinfo, own;
    try {
        mountinfo = read_text_file("/proc/self/mountinfo");
        own = read_text_file("/proc/self/cgroup");
    } catch (const std::exception& e) {
        return std::string(e.what());
    }
    auto dir = own_cgroup_dir(mountinfo, own);
    if (auto* why = std::get_if<std::string>(&dir))
        return *why;
    const fs::path& parent = std::get<fs::path>(dir);
    std::string tmpl = (parent / "bootbench-bench-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
        return "cannot create a cgroup in " + parent.string() + ": " + std::strerror(errno);
    int fd = ::open(tmpl.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        std::string why = "cannot open the cgroup " + tmpl + ": " + std::strerror(errno);
        ::rmdir(tmpl.c_str());
        return why;
    }
    return std::unique_ptr<BenchCgroup>(new BenchCgroup(tmpl, fd));
}

BenchCgroup::~BenchCgroup() {
    kill_all();
    ::close(fd_);
    if (::rmdir(path_.c_str()) != 0)
        warn("cannot remove the cgroup " + path_.string() + ": " + std::strerror(errno));
}

void BenchCgroup::signal_all(int sig) const {
    for (pid_t pid : members(path_))
        ::kill(pid, sig);
}

void BenchCgroup::kill_all() const {
    bool kill_file =
        write_text(path_ / "cgroup.kill", "1"); // Linux >= 5.14: atomic, forks included
    int events = ::open((path_ / "cgroup.events").c_str(), O_RDONLY | O_CLOEXEC);
    if (events < 0)
        return;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kEmptyWaitMs);
    while (populated(events)) {
        if (!kill_file)
            signal_all(SIGKILL); // again each round: a member may have forked meanwhile
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            break;
        pollfd p{events, POLLPRI, 0};
        ::poll(&p, 1, kill_file ? static_cast<int>(left.count()) : 50);
    }
    ::close(events);
}

} // namespace bootbench::sys
