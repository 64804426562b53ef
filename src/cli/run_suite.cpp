// bootbench run-suite FILE --target NAME: the suite once, on this boot, with
// no deployment switching: the manual mode users know.
#include "cli/commands.hpp"
#include "cli/experiment_file.hpp"
#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "sys/probe/boot_times.hpp"
#include "sys/probe/booted_deployment.hpp"
#include "sys/probe/sleep_inhibitor.hpp"
#include "sys/clock.hpp"
#include "sys/store/files.hpp"
#include "sys/store/user_lines.hpp"
#include "sys/run/suite.hpp"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <sys/stat.h>

namespace bootbench::cli {

namespace {

namespace fs = std::filesystem;

const core::Target& pick_target(const core::Experiment& e, const Args& args) {
    std::string names;
    for (const auto& t : e.targets)
        names += (names.empty() ? "" : ", ") + t.name;
    auto name = args.value("target");
    if (!name)
        throw input_error("bootbench run-suite: --target NAME is required (targets in " +
                          e.source_file + ": " + names + ")");
    if (const core::Target* t = e.find_target(*name))
        return *t;
    throw input_error("bootbench run-suite: target '" + *name + "' is not in " + e.source_file +
                      " (targets: " + names + ")");
}

// The first free `<target>-<k>`: its raw-log folder is created here, which
// reserves the id even when two run-suite commands start together.
std::string reserve_run_id(const fs::path& runs_dir, const std::string& target) {
    sys::make_dirs(runs_dir);
    for (int k = 1;; ++k) {
        std::string id = target + "-" + std::to_string(k);
        if (fs::exists(runs_dir / (id + ".json")))
            continue;
        if (::mkdir((runs_dir / id).c_str(), 0755) == 0)
            return id;
        if (errno != EEXIST)
            throw Error("cannot create folder " + (runs_dir / id).string() + ": " +
                        std::strerror(errno));
    }
}

void print_summary(const core::RunResult& r, const fs::path& file) {
    std::cout << "run " << r.run_id << ": " << core::to_string(r.status) << " ("
              << core::count_of(static_cast<long long>(r.metrics.size()), "metric") << ", " << r.missing.size()
              << " missing)\n";
    for (const auto& m : r.metrics)
        std::cout << "  " << m.key << " = " << m.value << " " << m.unit << "\n";
    for (const auto& m : r.missing)
        std::cout << "  " << m.key << ": missing: " << m.reason << "\n";
    if (!r.failure.empty())
        std::cout << "failure: " << r.failure << "\n";
    std::cout << "result: " << file.string() << "\n";
}

} // namespace

int cmd_run_suite(const Args& args) {
    args.expect_positional(1, "one experiment file");
    core::Experiment e = load_experiment(args.positional()[0]);
    if (args.flag("quick"))
        e = quick_version(e);
    const core::Target& target = pick_target(e, args);
    fs::path out = args.value("out").value_or("results/" + e.name);
    fs::path runs_dir = out / "runs";
    sys::SuiteRequest req;
    req.experiment = &e;
    req.target = &target;
    req.run_id = reserve_run_id(runs_dir, target.name);
    req.run_dir = runs_dir / req.run_id;
    req.deployment = sys::booted_deployment();
    sys::SystemdBootTimes boot_times; // this boot's, as run-suite runs on the machine itself
    req.boot_times = &boot_times;
    sys::RealClock clock;
    sys::LogindInhibitor logind; // no suspend while it measures; released on every way out
    std::string problem;
    sys::Inhibition awake = logind.take("bootbench run-suite is measuring", problem);
    std::string awake_text = sys::describe_inhibition(awake, problem);
    sys::say("sleep inhibitor: " + core::printable(awake_text));
    core::RunResult r = sys::run_suite(req, clock);
    r.environment.sleep_inhibitor = awake_text;
    fs::path file = runs_dir / (req.run_id + ".json");
    sys::write_file_atomic(file, core::json_text(core::to_json(r), 2) + "\n");
    print_summary(r, file);
    return r.status == core::RunStatus::failed ? 1 : 0;
}

} // namespace bootbench::cli
