// bootbench status: where the experiment stands.
#include "cli/commands.hpp"
#include "core/sizing/adaptive.hpp"
#include "core/base/error.hpp"
#include "core/base/json_bounds.hpp"
#include "core/bisect/bisect_run.hpp"
#include "core/report/status.hpp"
#include "core/base/text.hpp"
#include "core/base/time.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/host.hpp"
#include "sys/store/state_store.hpp"
#include "sys/store/user_lines.hpp"

#include <algorithm>
#include <ctime>
#include <iostream>

namespace bootbench::cli {

namespace {

// Seconds since an ISO 8601 time with offset ("2026-11-30T10:00:00+01:00");
// -1 when it is not one.
double seconds_since(const std::string& iso) {
    auto t = core::parse_instant(iso);
    return t ? std::difftime(std::time(nullptr), static_cast<time_t>(t->epoch_s)) : -1;
}

std::string clock_after(double seconds, core::ClockFormat format) {
    time_t t = std::time(nullptr) + static_cast<time_t>(seconds);
    tm local{};
    localtime_r(&t, &local);
    char buf[40];
    if (format == core::ClockFormat::local) {
        std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &local);
        return buf;
    }
    return core::format_instant({static_cast<long long>(t), static_cast<int>(local.tm_gmtoff)});
}

// A run's stored result; nullopt (with a warning) when it is absent or
// cannot be read: status says what it can.
std::optional<core::RunResult> stored_result(const sys::StatePaths& paths, const core::State& s, size_t i) {
    sys::fs::path file = paths.results(s.experiment) / "runs" / (s.runs[i].run_id + ".json");
    std::error_code absent;
    if (!sys::fs::exists(file, absent) && !absent)
        return std::nullopt;
    try { // a symlink loop too: read_text_file names it
        return core::run_result_from_json(core::parse_bounded_json(sys::read_text_file(file), file.string()),
                                          file);
    } catch (const std::exception& e) {
        sys::warn(file.string() + ": " + e.what());
        return std::nullopt;
    }
}

// Every run's stored result, in run order (nullopt where there is none).
std::vector<std::optional<core::RunResult>> stored_results(const sys::StatePaths& paths, const core::State& s) {
    std::vector<std::optional<core::RunResult>> out;
    for (size_t i = 0; i < s.runs.size(); ++i)
        out.push_back(stored_result(paths, s, i));
    return out;
}

std::optional<core::RunResult> last_result(const std::vector<std::optional<core::RunResult>>& stored,
                                           const core::State& s) {
    for (size_t i = std::min(s.current, stored.size()); i-- > 0;)
        if (stored[i])
            return stored[i];
    return std::nullopt;
}

std::vector<core::RunResult> partial_results(const std::vector<std::optional<core::RunResult>>& stored,
                                             const core::State& s) {
    std::vector<core::RunResult> out;
    for (size_t i = 0; i < stored.size(); ++i)
        if (s.runs[i].status == core::SlotStatus::done && stored[i] && stored[i]->status == core::RunStatus::partial)
            out.push_back(*stored[i]);
    return out;
}

// An adaptive experiment's rounds and half-widths against the target; no
// experiment when the state is of a fixed one (or its file cannot be read).
std::optional<core::Experiment> adaptive_experiment(const sys::StatePaths& paths, const core::State& s) {
    if (!s.bisect.is_null()) // a bisection's file is no experiment file, and never adaptive
        return std::nullopt;
    try {
        core::Experiment e = core::parse_experiment(sys::read_text_file(paths.experiment()), paths.experiment().string());
        return e.adaptive ? std::optional(e) : std::nullopt;
    } catch (const std::exception& e) {
        sys::warn(paths.experiment().string() + ": " + e.what());
        return std::nullopt;
    }
}

std::vector<core::RunResult> present(const std::vector<std::optional<core::RunResult>>& stored) {
    std::vector<core::RunResult> out;
    for (const auto& r : stored)
        if (r)
            out.push_back(*r);
    return out;
}

// simulate keeps its state inside its sandbox, not on this machine.
constexpr const char* kSandboxHint =
    "a simulation keeps its state in its sandbox: bootbench status --sandbox DIR "
    "(DIR is the folder simulate named when it started)\n";

} // namespace

int cmd_status(const Args& args) {
    args.expect_positional(0, "no arguments");
    auto host = host_of(args);
    sys::StatePaths paths{host->state_dir()};
    auto state = sys::load_state_if_present(paths.state());
    if (!state) {
        if (args.flag("json"))
            std::cout << core::json_text({{"experiment", nullptr}, {"state_dir", paths.dir}}, 2) << "\n";
        else
            std::cout << "no experiment here (no state in " << paths.dir.string() << ")\n"
                      << (args.value("sandbox") ? "" : kSandboxHint);
        return 0;
    }
    auto stored = stored_results(paths, *state);
    core::StatusInput in{*state, last_result(stored, *state), paths.results(state->experiment).string(),
                         seconds_since(state->started_at), clock_after, partial_results(stored, *state)};
    if (!host->offline())
        in.booted = host->booted().ref;
    auto adaptive = adaptive_experiment(paths, *state);
    std::optional<core::BisectRun> bisect;
    if (!state->bisect.is_null())
        bisect = core::bisect_run_from_json(state->bisect, paths.state().string() + ": bisect");
    if (adaptive) // rounds of one run per target
        in.rounds = core::RunBounds{static_cast<size_t>(adaptive->adaptive->min_runs) * adaptive->targets.size(),
                                    static_cast<size_t>(adaptive->runs) * adaptive->targets.size()};
    auto precision = adaptive ? core::primary_precision(*adaptive, present(stored)) : std::vector<core::MetricPrecision>{};
    if (args.flag("json")) {
        nlohmann::json j = core::status_json(in);
        if (adaptive) {
            j["adaptive"] = core::precision_json(*adaptive, precision);
            j["adaptive"]["rounds"] = core::rounds_in(*state, *adaptive);
        }
        if (bisect)
            j["bisect"] = core::bisect_status_json(*bisect);
        std::cout << core::json_text(j, 2) << "\n";
    } else {
        std::string text = core::status_text(in);
        if (adaptive)
            text += core::precision_text(*adaptive, precision);
        if (bisect)
            text += core::bisect_status_text(*bisect);
        std::cout << core::printable(text, core::LineBreaks::keep);
    }
    return 0;
}

} // namespace bootbench::cli
