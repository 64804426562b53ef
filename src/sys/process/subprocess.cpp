#include "sys/process/subprocess.hpp"

#include "core/base/error.hpp"
#include "sys/store/files.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <spawn.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace bootbench::sys {

namespace {

double monotonic_now() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// A move-only file descriptor owner.
class Fd {
  public:
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    int get() const { return fd_; }

  private:
    int fd_;
};

Fd open_log(const fs::path& path) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        throw Error("cannot create log file " + path.string() + ": " + std::strerror(errno));
    return Fd(fd);
}

// This process's environment and the spec's additions; a detached child's
// output is read by parsers: LC_ALL=C makes its numbers locale-neutral.
std::vector<std::string> child_environment(const ProcessSpec& spec) {
    bool detached = spec.attach == Attach::detached;
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e)
        if (!detached || std::strncmp(*e, "LC_ALL=", 7) != 0)
            env.emplace_back(*e);
    for (const auto& [key, value] : spec.extra_env)
        env.push_back(key + "=" + value);
    if (detached)
        env.emplace_back("LC_ALL=C");
    return env;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
    std::vector<char*> out;
    for (auto& s : v)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

bool is_executable_file(const fs::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// The child starts with default signal handling and an empty signal mask,
// whatever the orchestrator blocked, in a new session (and so a new process
// group) of its own: with autogroup scheduling a session is a scheduling
// group, as each container's is (conmon calls setsid), so a bench with the
// host's tools and one in the tools container compete for the CPU alike.
void init_attributes(posix_spawnattr_t& attr) {
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD})
        sigaddset(&defaults, sig);
    posix_spawnattr_setsigdefault(&attr, &defaults);
}


// What the child needs, prepared before it exists: after clone3 it may only
// make async-signal-safe calls.
struct ChildSetup {
    const char* path;
    std::vector<char*> argv, envp;
    int out_fd, err_fd;
};

pid_t spawn_plain(ChildSetup& c) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, c.out_fd, 1);
    posix_spawn_file_actions_adddup2(&actions, c.err_fd, 2);
    posix_spawnattr_t attr;
    init_attributes(attr);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, c.path, &actions, &attr, c.argv.data(), c.envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        throw Error(std::string("cannot start ") + c.path + ": " + std::strerror(rc));
    return pid;
}

int open_pidfd(pid_t pid) {
    int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    if (pidfd < 0) {
        int e = errno;
        ::kill(-pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
        throw Error(std::string("cannot watch the benchmark process (pidfd_open: ") + std::strerror(e) +
                    "); bootbench needs Linux 5.3 or later");
    }
    return pidfd;
}

// The same start as init_attributes gives a posix_spawn child; an exec
// failure goes back to the parent as errno on `report_fd`.
[[noreturn]] void exec_child(const ChildSetup& c, int report_fd) {
    ::setsid();
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD})
        ::sigaction(sig, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    int in = ::open("/dev/null", O_RDONLY);
    if (in < 0 || ::dup2(in, 0) < 0 || ::dup2(c.out_fd, 1) < 0 || ::dup2(c.err_fd, 2) < 0) {
        int e = errno;
        [[maybe_unused]] ssize_t n = ::write(report_fd, &e, sizeof e);
        ::_exit(127);
    }
    ::execve(c.path, c.argv.data(), c.envp.data());
    int e = errno;
    [[maybe_unused]] ssize_t n = ::write(report_fd, &e, sizeof e);
    ::_exit(127);
}

// Starts the child directly inside `cgroup` (clone3 CLONE_INTO_CGROUP, Linux
// 5.7): it cannot fork before it is in it. Returns (pid, pidfd); nullopt with
// `why_not` set when the kernel refuses the clone itself.
std::optional<std::pair<pid_t, int>> clone_into(const BenchCgroup& cgroup, const ChildSetup& c,
                                                std::string& why_not) {
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0)
        throw Error(std::string("cannot start ") + c.path + ": pipe: " + std::strerror(errno));
    int pidfd = -1;
    clone_args args{};
    args.flags = CLONE_PIDFD | CLONE_INTO_CGROUP;
    args.pidfd = reinterpret_cast<uint64_t>(&pidfd);
    args.exit_signal = SIGCHLD;
    args.cgroup = static_cast<uint64_t>(cgroup.fd());
    long pid = ::syscall(SYS_clone3, &args, sizeof args);
    if (pid == 0)
        exec_child(c, report[1]);
    int clone_errno = errno;
    ::close(report[1]);
    if (pid < 0) {
        ::close(report[0]);
        why_not = "clone3 into " + cgroup.path().string() + " failed: " + std::strerror(clone_errno);
        return std::nullopt;
    }
    int child_errno = 0;
    ssize_t n = -1;
    while ((n = ::read(report[0], &child_errno, sizeof child_errno)) < 0 && errno == EINTR) {
    }
    ::close(report[0]);
    if (n == static_cast<ssize_t>(sizeof child_errno)) {
        ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
        ::close(pidfd);
        throw Error(std::string("cannot start ") + c.path + ": " + std::strerror(child_errno));
    }
    return std::pair(static_cast<pid_t>(pid), pidfd);
}
} // namespace

std::optional<fs::path> find_program(const std::string& program) {
    if (program.empty())
        return std::nullopt;
    if (program.find('/') != std::string::npos)
        return is_executable_file(program) ? std::optional<fs::path>(program) : std::nullopt;
    const char* path_env = std::getenv("PATH");
    std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= path.size()) {
        size_t colon = path.find(':', start);
        if (colon == std::string::npos)
            colon = path.size();
        std::string dir = path.substr(start, colon - start);
        fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
        if (is_executable_file(candidate))
            return candidate;
        start = colon + 1;
    }
    return std::nullopt;
}

InterruptWatch::InterruptWatch() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
        sigaddset(&set, sig);
    if (pthread_sigmask(SIG_BLOCK, &set, &old_mask_) != 0)
        throw Error("cannot block SIGINT/SIGTERM to watch for interruptions");
    restore_ = true;
    fd_ = ::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd_ < 0) {
        int err = errno;
        pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
        throw Error(std::string("cannot create a signalfd: ") + std::strerror(err));
    }
}

InterruptWatch::~InterruptWatch() {
    ::close(fd_);
    if (restore_)
        pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

int InterruptWatch::take() const {
    signalfd_siginfo info{};
    if (::read(fd_, &info, sizeof info) != static_cast<ssize_t>(sizeof info))
        return 0;
    return static_cast<int>(info.ssi_signo);
}

void InterruptWatch::throw_if_interrupted(const std::string& doing) const {
    int sig = take();
    if (sig == 0)
        return;
    throw Error(std::string("interrupted by SIG") + sigabbrev_np(sig) + " while " + doing +
                "; its processes were stopped and no result was written");
}

Ending decode_wait_status(int wait_status) {
    Ending e;
    if (WIFEXITED(wait_status)) {
        e.exit_status = WEXITSTATUS(wait_status);
    } else {
        e.end = ProcessEnd::signaled;
        e.signal = WTERMSIG(wait_status);
    }
    return e;
}

std::string describe(const Ending& e) {
    switch (e.end) {
    case ProcessEnd::timed_out:
        return "timed out";
    case ProcessEnd::signaled:
        return std::string("was killed by SIG") + sigabbrev_np(e.signal);
    case ProcessEnd::exited:
        break;
    }
    return e.exit_status == 0 ? "" : "exited with status " + std::to_string(e.exit_status);
}

// Attached: no new session, no cgroup, nothing redirected and the signal
// mask and dispositions inherited (a child bootbench reads a passed-on
// signal from its own signalfd, never dies of it before).
ProcessGroup ProcessGroup::spawn_attached(const ProcessSpec& spec, const fs::path& path) {
    std::vector<std::string> args = spec.argv;
    std::vector<std::string> env = child_environment(spec);
    std::vector<char*> cargv = c_strings(args), cenv = c_strings(env);
    double started = monotonic_now();
    pid_t pid = -1;
    if (int rc = ::posix_spawn(&pid, path.c_str(), nullptr, nullptr, cargv.data(), cenv.data()); rc != 0)
        throw Error("cannot start " + path.string() + ": " + std::strerror(rc));
    return ProcessGroup(pid, open_pidfd(pid), started, nullptr, "", Attach::attached);
}

ProcessGroup ProcessGroup::spawn(const ProcessSpec& spec) {
    if (spec.argv.empty())
        throw Error("cannot start a process without a program name");
    auto path = find_program(spec.argv[0]);
    if (!path)
        throw Error("cannot start " + spec.argv[0] + ": not found on PATH");
    if (spec.attach == Attach::attached)
        return spawn_attached(spec, *path);
    Fd out = open_log(spec.stdout_path);
    Fd err = open_log(spec.stderr_path);
    std::vector<std::string> args = spec.argv;
    std::vector<std::string> env = child_environment(spec);
    ChildSetup setup{path->c_str(), c_strings(args), c_strings(env), out.get(), err.get()};
    auto made = BenchCgroup::create();
    std::string why_not;
    if (auto* cgroup = std::get_if<std::unique_ptr<BenchCgroup>>(&made)) {
        double started = monotonic_now(); // before: the child may run before clone3 returns
        if (auto child = clone_into(**cgroup, setup, why_not))
            return ProcessGroup(child->first, child->second, started, std::move(*cgroup), "");
    } else {
        why_not = std::get<std::string>(made);
    }
    double started = monotonic_now();
    pid_t pid = spawn_plain(setup);
    return ProcessGroup(pid, open_pidfd(pid), started, nullptr,
                        "processes that left its process group may survive (no cgroup available: " + why_not +
                            ")");
}

ProcessGroup::ProcessGroup(ProcessGroup&& other) noexcept
    : pid_(other.pid_), pidfd_(other.pidfd_), started_s_(other.started_s_), attach_(other.attach_),
      reaped_(other.reaped_),
      status_(other.status_), cgroup_(std::move(other.cgroup_)), containment_(std::move(other.containment_)) {
    other.pid_ = -1;
    other.pidfd_ = -1;
}

ProcessGroup& ProcessGroup::operator=(ProcessGroup&& other) noexcept {
    if (this != &other) {
        release();
        pid_ = other.pid_;
        pidfd_ = other.pidfd_;
        started_s_ = other.started_s_;
        attach_ = other.attach_;
        reaped_ = other.reaped_;
        status_ = other.status_;
        cgroup_ = std::move(other.cgroup_);
        containment_ = std::move(other.containment_);
        other.pid_ = -1;
        other.pidfd_ = -1;
    }
    return *this;
}

ProcessGroup::~ProcessGroup() {
    release();
}

void ProcessGroup::release() noexcept {
    if (pid_ > 0 && !reaped_) {
        ::kill(kill_target(), SIGKILL);
        while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
        }
    }
    if (pidfd_ >= 0)
        ::close(pidfd_);
    cgroup_.reset(); // kills what is left in it, removes it
    pid_ = -1;
    pidfd_ = -1;
}

void ProcessGroup::signal_group(int sig) const {
    // Once the leader is reaped its id may be reused: never signal it then.
    if (pid_ > 0 && !reaped_)
        ::kill(kill_target(), sig);
    if (cgroup_)
        cgroup_->signal_all(sig); // what left the group, too
}

// The leader is a zombie until reaped, which keeps the group id from being
// reused: kill what is left of the group first, then reap.
void ProcessGroup::reap() {
    signal_group(SIGKILL);
    while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    ::close(pidfd_);
    pidfd_ = -1;
    cgroup_.reset();
}

bool ProcessGroup::wait_exit(double timeout_s, int interrupt_fd) {
    if (reaped_)
        return true;
    double deadline = monotonic_now() + timeout_s;
    for (;;) {
        pollfd fds[2] = {{pidfd_, POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
        int ms =
            timeout_s < 0
                ? -1
                : static_cast<int>(std::ceil(std::max(0.0, deadline - monotonic_now()) * 1000));
        int rc = ::poll(fds, interrupt_fd >= 0 ? 2 : 1, ms);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0)
            throw Error(std::string("cannot wait for a benchmark process: ") +
                        std::strerror(errno));
        if (fds[0].revents != 0) {
            reap();
            return true;
        }
        if (rc == 0 || fds[1].revents != 0)
            return false;
    }
}

void ProcessGroup::stop(double grace_s) {
    if (reaped_ || pid_ <= 0)
        return;
    signal_group(SIGTERM);
    if (!wait_exit(grace_s)) {
        signal_group(SIGKILL);
        wait_exit(-1);
    }
}

ProcessOutcome finish_process(ProcessGroup& group, const ProcessSpec& spec,
                              const InterruptWatch* watch) {
    ProcessOutcome outcome;
    outcome.pgid = group.pgid();
    outcome.containment = group.containment();
    bool exited =
        group.wait_exit(spec.timeout_s > 0 ? spec.timeout_s : -1, watch ? watch->fd() : -1);
    if (!exited && watch) {
        try {
            watch->throw_if_interrupted("running " + spec.argv[0]);
        } catch (const Error&) {
            group.stop(spec.grace_s); // SIGTERM first: let the bench reap its own children
            throw;
        }
    }
    if (exited) {
        static_cast<Ending&>(outcome) = decode_wait_status(group.wait_status());
    } else {
        outcome.end = ProcessEnd::timed_out;
        group.stop(spec.grace_s);
    }
    outcome.wall_s = monotonic_now() - group.started_s();
    return outcome;
}

ProcessOutcome run_process(const ProcessSpec& spec, const InterruptWatch* watch) {
    ProcessGroup group = ProcessGroup::spawn(spec);
    return finish_process(group, spec, watch);
}

Ending run_attached(const std::vector<std::string>& argv,
                    const std::vector<std::pair<std::string, std::string>>& extra_env,
                    const InterruptWatch* watch, int* interrupted_by) {
    ProcessGroup child = ProcessGroup::spawn({argv, {}, {}, 0, 0, Attach::attached, extra_env});
    while (!child.wait_exit(-1, watch ? watch->fd() : -1)) {
        if (int sig = watch->take()) {
            child.signal_group(sig);
            if (interrupted_by)
                *interrupted_by = sig;
        }
    }
    return decode_wait_status(child.wait_status());
}

} // namespace bootbench::sys

namespace bootbench::sys {

Captured capture_process(const std::vector<std::string>& argv, double timeout_s) {
    std::string pattern = (fs::temp_directory_path() / "bootbench-capture-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        throw Error("cannot create a temporary folder for " + argv.front() + "'s output");
    fs::path dir = pattern;
    ProcessOutcome o = run_process({argv, dir / "out", dir / "err", timeout_s});
    Captured c{o.end == ProcessEnd::exited ? o.exit_status : -1, read_text_file(dir / "out"),
               read_text_file(dir / "err"), o};
    std::error_code ec;
    fs::remove_all(dir, ec);
    return c;
}

} // namespace bootbench::sys
