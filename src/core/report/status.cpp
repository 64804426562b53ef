#include "core/report/status.hpp"

#include "core/state/estimate.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/report/render_text.hpp"
#include "core/report/report_formats.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <cstdio>

namespace bootbench::core {

namespace {

size_t runs_ended(const State& s) {
    return s.count(SlotStatus::done) + s.count(SlotStatus::failed);
}

// elapsed / runs ended x (runs in all - runs ended); nullopt before a run ended.
std::optional<double> time_to(const StatusInput& in, size_t runs) {
    size_t ended = runs_ended(in.state);
    if (ended == 0 || in.elapsed_s < 0 || in.state.phase != Phase::running)
        return std::nullopt;
    return in.elapsed_s / static_cast<double>(ended) * static_cast<double>(std::max(runs, ended) - ended);
}

} // namespace

std::optional<double> remaining_s(const StatusInput& in) {
    size_t planned = in.state.runs.size();
    return time_to(in, in.rounds ? std::max(in.rounds->min, planned) : planned);
}

std::optional<double> remaining_max_s(const StatusInput& in) {
    return in.rounds ? time_to(in, std::max(in.rounds->max, in.state.runs.size())) : remaining_s(in);
}

std::string progress_line(const State& s, double run_estimate_s) {
    size_t n = s.runs.size(), k = std::min(s.current, n - 1) + 1;
    size_t left = n - s.count(SlotStatus::done) - s.count(SlotStatus::failed);
    return "run " + std::to_string(k) + "/" + std::to_string(n) + " (" + s.runs[k - 1].target + "), about " +
           format_duration(run_estimate_s * static_cast<double>(left)) + " left";
}

namespace {

// "perf-sched-pipe 2.68 us/op, sysbench-threads 2533 events": each bench's first metric.
std::string bench_results(const RunResult& r) {
    std::vector<std::string> said, out;
    for (const auto& m : r.metrics) {
        auto known = find_metric(m.key); // the system's metrics after settle are no bench's
        if (m.bench.empty() || (known && known->from == MetricFrom::system) ||
            std::find(said.begin(), said.end(), m.bench) != said.end())
            continue;
        said.push_back(m.bench);
        out.push_back(m.bench + " " + format_value(m.value) + (m.unit.empty() ? "" : " " + m.unit));
    }
    return join(out, ", ");
}

std::string outcome_of(const RunResult& r) {
    if (r.status == RunStatus::failed)
        return "failed (" + r.failure + ")";
    std::string results = bench_results(r);
    return to_string(r.status) + (results.empty() ? "" : ", " + results);
}

} // namespace

std::string run_done_line(const State& s, const RunResult& r, double run_estimate_s) {
    size_t n = s.runs.size(), k = std::min(s.current, n - 1) + 1;
    size_t left = n - std::min(n, runs_ended(s) + 1);
    return "run " + std::to_string(k) + "/" + std::to_string(n) + " (" + s.runs[k - 1].target + "): " +
           outcome_of(r) + "; " +
           (left ? "about " + format_duration(run_estimate_s * static_cast<double>(left)) + " left" : "the last run");
}

namespace {

nlohmann::json headline(const RunResult& r) {
    nlohmann::json m = nlohmann::json::object();
    for (const auto& x : r.metrics)
        m[x.key] = {{"value", x.value}, {"unit", x.unit}};
    return {{"run", r.run_id}, {"status", to_string(r.status)}, {"failure", r.failure}, {"metrics", m}};
}

const char* verb(BenchStatus s) {
    switch (s) {
    case BenchStatus::skipped: return "skipped";
    case BenchStatus::timeout: return "timed out";
    default: return "failed";
    }
}

// "schbench skipped (schbench is not installed)": the reason's first clause.
std::string bench_cause(const BenchRecord& b) {
    std::string why = b.reason.rfind("skipped: ", 0) == 0 ? b.reason.substr(9) : b.reason;
    why = why.substr(0, why.find(": "));
    std::string said = b.name + " " + verb(b.status);
    return why.empty() || why == said ? said : said + " (" + cap_text(why, 100, "reason") + ")";
}

// What made one run partial: its benches that did not end ok, else the
// metrics without a value.
std::vector<std::string> run_causes(const RunResult& r) {
    std::vector<std::string> out;
    for (const auto& b : r.benches)
        if (b.status != BenchStatus::ok)
            out.push_back(bench_cause(b));
    if (out.empty())
        for (const auto& m : r.missing)
            out.push_back("no value for " + m.key);
    return out;
}

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

} // namespace

std::string partial_causes(const std::vector<RunResult>& partial) {
    std::vector<std::pair<std::string, size_t>> seen; // cause, runs; in first-seen order
    for (const auto& r : partial)
        for (const auto& c : run_causes(r)) {
            auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& x) { return x.first == c; });
            if (it == seen.end())
                seen.emplace_back(c, 1);
            else
                ++it->second;
        }
    std::string out;
    for (const auto& [cause, n] : seen)
        out += (out.empty() ? "" : ", ") + cause + (n == partial.size() ? "" : " in " + std::to_string(n));
    return out;
}

namespace {

nlohmann::json seconds_json(std::optional<double> s) {
    return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
}

nlohmann::json finish_json(const StatusInput& in, std::optional<double> left) {
    return left && in.clock_after ? nlohmann::json(in.clock_after(*left, ClockFormat::iso8601))
                                  : nlohmann::json(nullptr);
}

} // namespace

std::string incomplete_text(const State& s) {
    size_t done = s.count(SlotStatus::done);
    if (s.stop_reason.empty() || runs_ended(s) == s.runs.size())
        return "";
    std::string runs = std::to_string(done) + " of " + std::to_string(s.runs.size()) + " runs";
    return s.aborted ? s.stop_reason + " after " + runs : s.stop_reason + "; " + runs + " done";
}

bool reboot_pending(const StatusInput& in) {
    return in.state.phase == Phase::finished && in.booted && *in.booted != in.state.original_default;
}

nlohmann::json status_json(const StatusInput& in) {
    const State& s = in.state;
    nlohmann::json j = {{"experiment", s.experiment},
                        {"phase", to_string(s.phase)},
                        {"runs_total", s.runs.size()},
                        {"runs_done", s.count(SlotStatus::done)},
                        {"runs_failed", s.count(SlotStatus::failed)},
                        {"runs_partial", in.partial.size()},
                        {"partial_causes", partial_causes(in.partial)},
                        {"started_at", s.started_at},
                        {"results_dir", in.results_dir},
                        {"report", in.results_dir + "/" + summary_file_name()},
                        {"stop_reason", s.stop_reason},
                        {"stopped_because", s.stopped_because}};
    if (const RunSlot* r = s.current_run(); r && s.phase == Phase::running)
        j["current"] = {{"index", s.current + 1}, {"run", r->run_id}, {"target", r->target},
                        {"attempts", r->attempts}, {"expected_deployment", describe(s.expected)}};
    else
        j["current"] = nullptr;
    j["remaining_s"] = seconds_json(remaining_s(in));
    j["estimated_finish"] = finish_json(in, remaining_s(in));
    if (in.rounds) { // remaining_s is to the min: the rule may stop there
        j["runs_min"] = in.rounds->min;
        j["runs_max"] = in.rounds->max;
        j["remaining_max_s"] = seconds_json(remaining_max_s(in));
        j["estimated_finish_max"] = finish_json(in, remaining_max_s(in));
    }
    j["last_result"] = in.last_result ? headline(*in.last_result) : nlohmann::json(nullptr);
    nlohmann::json failures = nlohmann::json::array();
    for (const auto& r : s.runs)
        if (r.status == SlotStatus::failed)
            failures.push_back({{"run", r.run_id}, {"reason", r.failure}});
    j["failures"] = failures;
    j["booted"] = in.booted ? nlohmann::json(describe(*in.booted)) : nlohmann::json(nullptr);
    j["reboot_pending"] = reboot_pending(in);
    return j;
}

namespace {

// "  runs: 8 done (8 partial: schbench skipped (...)), 0 failed, of 8".
std::string runs_line(const StatusInput& in) {
    const State& s = in.state;
    std::string partial = in.partial.empty() ? "" : " (" + std::to_string(in.partial.size()) + " partial: " +
                                                         partial_causes(in.partial) + ")";
    std::string bounds = in.rounds ? " so far (adaptive: at least " + std::to_string(in.rounds->min) +
                                         ", at most " + std::to_string(in.rounds->max) + ")"
                                   : "";
    return "  runs: " + std::to_string(s.count(SlotStatus::done)) + " done" + partial + ", " +
           std::to_string(s.count(SlotStatus::failed)) + " failed, of " + std::to_string(s.runs.size()) + bounds +
           "\n";
}

// "  estimated time left: 10 min 00 s, finishing about ..."; for an adaptive
// experiment the time to its min and to its max.
std::string time_left_line(const StatusInput& in) {
    auto left = remaining_s(in), most = remaining_max_s(in);
    if (!left)
        return "";
    auto finishing = [&](double s) {
        return in.clock_after ? ", finishing about " + in.clock_after(s, ClockFormat::local) : "";
    };
    if (!in.rounds)
        return "  estimated time left: " + format_duration(*left) + finishing(*left) + "\n";
    size_t planned = in.state.runs.size();
    return "  estimated time left: " + format_duration(*left) + " to the min (" +
           std::to_string(std::max(in.rounds->min, planned)) + " runs)" + finishing(*left) + ", " +
           format_duration(*most) + " to the max (" + std::to_string(std::max(in.rounds->max, planned)) +
           " runs)" + finishing(*most) + "\n";
}

} // namespace

std::string status_text(const StatusInput& in) {
    const State& s = in.state;
    std::string out = "experiment " + s.experiment + ": " + to_string(s.phase) + "\n";
    out += "  started " + s.started_at + "\n";
    out += runs_line(in);
    if (const RunSlot* r = s.current_run(); r && s.phase == Phase::running)
        out += "  next: run " + std::to_string(s.current + 1) + " of " + std::to_string(s.runs.size()) +
               ", " + r->run_id + " (target " + r->target + ", " + count_of(r->attempts, "attempt") +
               " so far) on " + describe(s.expected) + "\n";
    if (reboot_pending(in))
        out += "  next: a reboot into the original default " + describe(s.original_default) + "\n";
    out += time_left_line(in);
    for (const auto& r : s.runs)
        if (r.status == SlotStatus::failed)
            out += "  failed: " + r.run_id + ": " + r.failure + "\n";
    if (!s.stop_reason.empty())
        out += "  stopped: " + s.stop_reason + "\n";
    if (!s.stopped_because.empty())
        out += "  stopped: " + s.stopped_because + "\n";
    if (in.last_result) {
        out += "  last result: " + in.last_result->run_id + " (" + to_string(in.last_result->status) + ")";
        for (const auto& m : in.last_result->metrics)
            out += "\n    " + m.key + " = " + fmt(m.value) + " " + m.unit;
        out += "\n";
    }
    out += "  results: " + in.results_dir + "\n  report: " + in.results_dir + "/report.md\n";
    return out;
}

} // namespace bootbench::core
