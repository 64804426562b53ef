#pragma once
// Child processes that lead their own session and process group, so that a
// timeout or an interruption kills everything a benchmark started, not just
// its first process. The orchestrator sleeps in poll() on a pidfd while a child runs:
// no polling loop that would take CPU time away from the benchmark.
#include "sys/process/cgroup.hpp"

#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace bootbench::sys {

namespace fs = std::filesystem;

// How a child is started (the one starter: ProcessGroup::spawn).
enum class Attach {
    // A bench or a helper command: a session and process group of its own, a
    // cgroup v2 leaf where one can be made, stdin /dev/null, stdout and stderr
    // into the spec's files, LC_ALL=C, signals at their defaults.
    detached,
    // A command a person watches (staging tools, reboot, the sandbox's boots):
    // this process's session, process group, stdin/stdout/stderr, environment
    // and signal mask and dispositions, so the terminal's Ctrl-C reaches it.
    attached,
};

struct ProcessSpec {
    std::vector<std::string> argv; // argv[0] is looked up on PATH
    fs::path stdout_path;          // created or truncated (detached only)
    fs::path stderr_path;
    double timeout_s = 0; // 0 = no limit
    double grace_s = 2;   // between SIGTERM and SIGKILL on timeout
    Attach attach = Attach::detached;
    std::vector<std::pair<std::string, std::string>> extra_env = {}; // added to the environment
};

enum class ProcessEnd { exited, signaled, timed_out };

// How a child ended: decoded from its wait status in one place only.
struct Ending {
    ProcessEnd end = ProcessEnd::exited;
    int exit_status = 0; // when exited
    int signal = 0;      // when signaled
    bool succeeded() const { return end == ProcessEnd::exited && exit_status == 0; }
};

// The ending a waitpid status means (exited or signaled).
Ending decode_wait_status(int wait_status);

// What a person reads: "exited with status 3", "was killed by SIGSEGV",
// "timed out" ("" for status 0).
std::string describe(const Ending& e);

struct ProcessOutcome : Ending {
    double wall_s = 0;
    pid_t pgid = -1; // the group the child led (gone by now)
    // "" when the child ran in a cgroup of its own, killed whole; else what
    // may have escaped the kill, and why, for the log.
    std::string containment;
};

// The full path that execvp would run for `program`; nullopt when there is none.
std::optional<fs::path> find_program(const std::string& program);

// Blocks SIGINT, SIGTERM and SIGHUP while it lives and makes them readable on
// a signalfd, so that a waiting orchestrator wakes up on them, kills its
// children's groups and unwinds instead of dying and leaving them behind.
class InterruptWatch {
  public:
    InterruptWatch();
    ~InterruptWatch();
    InterruptWatch(const InterruptWatch&) = delete;
    InterruptWatch& operator=(const InterruptWatch&) = delete;
    int fd() const { return fd_; }
    // Throws bootbench::Error naming the signal when one has arrived.
    void throw_if_interrupted(const std::string& doing) const;
    // The signal that has arrived (and is now taken), 0 when none.
    int take() const;

  private:
    int fd_ = -1;
    bool restore_ = false;
    sigset_t old_mask_{};
};

// A running child that leads its own process group, in a cgroup v2 leaf of
// its own where one can be made (sys/process/cgroup), so that processes that leave
// the group (setsid) are killed too. Move-only; destroying it kills the
// whole group and cgroup (SIGKILL) and reaps the child, on every exit path.
class ProcessGroup {
  public:
    // Throws bootbench::Error naming the program or the log file when the
    // child cannot be started.
    static ProcessGroup spawn(const ProcessSpec& spec);
    ProcessGroup(ProcessGroup&& other) noexcept;
    ProcessGroup& operator=(ProcessGroup&& other) noexcept;
    ProcessGroup(const ProcessGroup&) = delete;
    ProcessGroup& operator=(const ProcessGroup&) = delete;
    ~ProcessGroup();

    pid_t pgid() const { return pid_; }
    double started_s() const { return started_s_; } // CLOCK_MONOTONIC at spawn
    bool running() const { return pid_ > 0 && !reaped_; }
    // Sleeps until the leader exits, `timeout_s` passes (< 0: forever) or
    // `interrupt_fd` becomes readable. True when the leader has exited; the
    // rest of its group is then killed and the leader reaped.
    bool wait_exit(double timeout_s, int interrupt_fd = -1);
    // The leader's wait status, once wait_exit returned true.
    int wait_status() const { return status_; }
    // Sends `sig` to the whole group (attached: to the child); quiet when it
    // is already gone.
    void signal_group(int sig) const;
    // SIGTERM, `grace_s` to exit, then SIGKILL; reaps the leader.
    void stop(double grace_s);
    // See ProcessOutcome::containment.
    const std::string& containment() const { return containment_; }

  private:
    // What kill() signals: the whole process group, or an attached child alone.
    pid_t kill_target() const { return attach_ == Attach::attached ? pid_ : -pid_; }
    ProcessGroup(pid_t pid, int pidfd, double started_s, std::unique_ptr<BenchCgroup> cgroup,
                 std::string containment, Attach attach = Attach::detached)
        : pid_(pid), pidfd_(pidfd), started_s_(started_s), attach_(attach), cgroup_(std::move(cgroup)),
          containment_(std::move(containment)) {}
    static ProcessGroup spawn_attached(const ProcessSpec& spec, const fs::path& path);
    void reap();
    void release() noexcept;

    pid_t pid_ = -1;
    int pidfd_ = -1;
    double started_s_ = 0;
    Attach attach_ = Attach::detached; // attached: pid_ is no group leader
    bool reaped_ = false;
    int status_ = 0;
    std::unique_ptr<BenchCgroup> cgroup_;
    std::string containment_;
};

// Waits for a spawned group to finish or time out (see run_process).
ProcessOutcome finish_process(ProcessGroup& group, const ProcessSpec& spec,
                              const InterruptWatch* watch);

// Runs `spec` to completion or timeout. Throws bootbench::Error when it
// cannot start or when `watch` reports an interruption (the group is killed
// first).
ProcessOutcome run_process(const ProcessSpec& spec, const InterruptWatch* watch = nullptr);

// A short helper command run to completion (at most `timeout_s`) and what it
// printed, through a temporary folder removed afterwards.
struct Captured {
    int status = -1; // exit status, -1 when it did not exit by itself in time
    std::string out, err;
    Ending ending;
};
Captured capture_process(const std::vector<std::string>& argv, double timeout_s);

// Runs argv (argv[0] looked up on PATH) attached (Attach::attached), with
// `extra_env` added to its environment; waits and returns how it ended. For
// commands a person watches: staging tools, reboot, and the emulated boots of
// the sandbox. Throws bootbench::Error when it cannot start.
//
// With a watch, an interruption (SIGINT, SIGTERM, SIGHUP) is passed on to the
// child as the same signal and the wait goes on, so the child stops in its
// own clean way; `*interrupted_by` says which signal arrived (0: none).
Ending run_attached(const std::vector<std::string>& argv,
                 const std::vector<std::pair<std::string, std::string>>& extra_env = {},
                 const InterruptWatch* watch = nullptr, int* interrupted_by = nullptr);

} // namespace bootbench::sys
