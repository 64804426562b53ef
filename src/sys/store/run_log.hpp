#pragma once
// What bootbench tells the user during an experiment: each line goes to
// results/<name>/bootbench.log and to stderr (the journal, under the unit).
// On a sandbox the terminal is a person watching `simulate`: there the
// details (what each boot switched, every condition met, every bench
// command) go to the log only, unless they ask for them (--verbose).
#include <filesystem>
#include <string>

namespace bootbench::sys {

class Clock;

// Which lines reach stderr: every one, or those that matter.
enum class Echo { all, brief };
// all on a real host (the journal keeps every line); on a sandbox brief,
// unless BOOTBENCH_VERBOSE=1 (what `simulate --verbose` sets).
Echo echo_for(bool emulated);
inline constexpr const char* kVerboseEnv = "BOOTBENCH_VERBOSE";

class RunLog {
public:
    RunLog(std::filesystem::path file, Clock& clock, Echo echo = Echo::all)
        : file_(std::move(file)), clock_(clock), echo_(echo) {}
    // Said on stderr and kept in the log.
    void line(const std::string& message);
    // Kept in the log; on stderr only with Echo::all.
    void detail(const std::string& message);

private:
    void keep(const std::string& printable_message);

    std::filesystem::path file_;
    Clock& clock_;
    Echo echo_;
};

enum class Weight { matters, detail };
// To `log` (line or detail) where there is one, else to stderr as
// "bootbench: ...": a suite run by `run-suite` has no experiment's log.
void tell(RunLog* log, Weight weight, const std::string& message);

} // namespace bootbench::sys
