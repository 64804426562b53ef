#pragma once
// Helpers shared by the sys/ tests: a temporary folder, waits on processes,
// a program run to its end, and a fake clock.
#include "sys/clock.hpp"
#include "sys/process/subprocess.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <stdexcept>
#include <sys/types.h>
#include <thread>
#include <utility>
#include <vector>

namespace testing {

namespace fs = std::filesystem;

// A fresh folder under $TMPDIR, removed with everything in it.
class TempDir {
  public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "bootbench-test-XXXXXX").string();
        path_ = ::mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }

  private:
    fs::path path_;
};

inline void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

inline std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Live (non-zombie) processes whose process group is `pgid`.
inline int live_members(pid_t pgid) {
    int n = 0;
    for (const auto& e : fs::directory_iterator("/proc")) {
        std::string stat = read(e.path() / "stat");
        size_t paren = stat.rfind(')');
        if (paren == std::string::npos)
            continue;
        std::istringstream rest(stat.substr(paren + 2));
        char state = 0;
        long ppid = 0, pgrp = 0;
        rest >> state >> ppid >> pgrp;
        n += pgrp == pgid && state != 'Z';
    }
    return n;
}

inline int live_with_cmdline(const std::string& cmdline) {
    int n = 0;
    for (const auto& e : fs::directory_iterator("/proc"))
        n += read(e.path() / "cmdline") == cmdline;
    return n;
}

// Whether `done` holds within `bound_s`, polled every 20 ms. Tests wait on the
// event itself, not a fixed sleep: the default bound is generous so that a
// loaded CI machine cannot fail them, and it costs nothing when all is well.
inline bool wait_until(const std::function<bool()>& done, double bound_s = 20) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(bound_s);
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

// Killed members may take a moment to be reaped by init.
inline bool group_gone(pid_t pgid) {
    return wait_until([pgid] { return live_members(pgid) == 0; });
}

// Runs `argv` to its end with the one process starter (sys ProcessGroup::spawn:
// stdin /dev/null, stdout and stderr into the files, LC_ALL=C); how it ended.
inline bootbench::sys::Ending run_program(const std::vector<std::string>& argv, const fs::path& out,
                                          const fs::path& err, std::vector<std::pair<std::string, std::string>> env = {}) {
    auto child = bootbench::sys::ProcessGroup::spawn({argv, out, err, 0, 2, bootbench::sys::Attach::detached, std::move(env)});
    child.wait_exit(-1);
    return bootbench::sys::decode_wait_status(child.wait_status());
}

// As run_program; throws, naming the program, how it ended and its stderr,
// unless it exits 0.
inline void run_ok(const std::vector<std::string>& argv, const fs::path& out, const fs::path& err,
                   std::vector<std::pair<std::string, std::string>> env = {}) {
    auto ending = run_program(argv, out, err, std::move(env));
    if (!ending.succeeded())
        throw std::runtime_error(argv.front() + " " + bootbench::sys::describe(ending) + "; its stderr: " + read(err));
}

// Time that passes only when the code under test sleeps.
class FakeClock final : public bootbench::sys::Clock {
  public:
    double boot_offset = 1000; // seconds from boot to the clock's zero
    double now = 0;
    int sleeps = 0;
    double monotonic_s() override { return now; }
    double since_boot_s() override { return boot_offset + now; }
    std::string now_iso8601() override { return "2026-11-30T10:00:00+00:00"; }
    void sleep_s(double seconds) override {
        ++sleeps;
        now += seconds;
    }
};

} // namespace testing
