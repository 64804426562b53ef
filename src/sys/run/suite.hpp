#pragma once
// Runs one experiment's benchmark suite on the current boot and returns the
// run's result. Used by `resume` (after each boot), `run-suite` (manual mode)
// and `simulate`. Raw logs go to `run_dir`; the result itself is not written
// here (the caller stores it atomically and advances the state).
#include "core/experiment/experiment.hpp"
#include "core/result/run_result.hpp"

#include <filesystem>
#include <string>

namespace bootbench::sys {

class UnitControl;
class BootTimesSource;

class Clock;
class Sensors;

class RunLog;

struct SuiteRequest {
    const core::Experiment* experiment = nullptr;
    const core::Target* target = nullptr;
    std::string run_id;
    int attempt = 1;
    std::filesystem::path run_dir;      // raw logs: one folder per run, beside its JSON
    core::DeploymentRecord deployment;  // the booted deployment, filled by the caller
    std::filesystem::path probe_root = "/"; // where /proc and /sys are read (tests: a fake tree)
    Sensors* sensors = nullptr;             // null: the real ones, under probe_root
    UnitControl* units = nullptr;           // null: stop none of the host's timers
    // systemd's boot times (sys/probe/boot_times): waited for before the settle
    // time; null: this is no boot of its own (a sandbox, a test), not measured.
    BootTimesSource* boot_times = nullptr;
    // The experiment's log (bootbench.log): details kept there, said on
    // stderr as it echoes; null (run-suite, tests): every line on stderr.
    RunLog* log = nullptr;
};

// Never throws for a failing or missing benchmark: those are recorded in the
// result (status, missing metrics with reasons). Throws bootbench::Error only
// when the run cannot be attempted at all (e.g. run_dir cannot be created),
// or when SIGINT, SIGTERM or SIGHUP arrives: it then stops the bench and the
// load (their process groups), restores the governor, and throws.
core::RunResult run_suite(const SuiteRequest& request, Clock& clock);

} // namespace bootbench::sys
