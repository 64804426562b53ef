#include "sys/suite.hpp"

#include "core/error.hpp"
#include "core/parsers.hpp"
#include "sys/bench_command.hpp"
#include "sys/clock.hpp"
#include "sys/files.hpp"
#include "sys/subprocess.hpp"

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace bootbench::sys {

namespace {

// A benchmark's output beyond this is not read back for parsing.
constexpr std::streamsize kMaxOutputRead = 64 << 20;

void log_line(const std::string& line) { std::fprintf(stderr, "bootbench: %s\n", line.c_str()); }

int online_cpus() {
    long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : 1;
}

std::string read_output(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<size_t>(kMaxOutputRead), '\0');
    in.read(text.data(), kMaxOutputRead);
    text.resize(static_cast<size_t>(in.gcount()));
    return text;
}

std::string last_line(const std::string& text) {
    size_t end = text.find_last_not_of(" \t\r\n");
    if (end == std::string::npos)
        return "";
    size_t start = text.find_last_of('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

std::string join(const std::vector<std::string>& argv) {
    std::string s;
    for (const auto& a : argv)
        s += (s.empty() ? "" : " ") + a;
    return s;
}

struct BenchRun {
    core::BenchRecord record;
    core::BenchMetrics metrics;
};

// Why a finished process did not give a usable result, or "" when it did.
std::string process_failure(const ProcessOutcome& o, const core::Bench& b, const std::string& err_text) {
    switch (o.end) {
    case ProcessEnd::timed_out:
        return "timed out after " + std::to_string(static_cast<long>(bench_timeout_s(b))) +
               " s (raise its timeout_s if it needs longer); its processes were killed";
    case ProcessEnd::signaled:
        return std::string("was killed by SIG") + sigabbrev_np(o.signal);
    case ProcessEnd::exited:
        if (o.exit_status == 0)
            return "";
        std::string tail = last_line(err_text);
        return "exited with status " + std::to_string(o.exit_status) + (tail.empty() ? "" : ": " + tail);
    }
    return "";
}

BenchRun missing_tool(const core::Bench& b, BenchRun run, const std::string& hint) {
    auto tool = tool_for(b.kind);
    bool optional = tool && tool->optional;
    std::string why = tool ? not_installed_message(*tool)
                           : "program '" + run.record.argv.at(0) +
                                 "' not found: check argv in [[bench]] '" + b.name + "' and PATH";
    run.record.status = optional ? core::BenchStatus::skipped : core::BenchStatus::failed;
    run.record.reason = optional ? "skipped: " + why : why;
    log_line("bench " + b.name + ": " + run.record.reason);
    run.metrics = core::collect_metrics(b, "", (optional ? "was skipped: " : "could not run: ") + why, hint);
    return run;
}

BenchRun run_bench(const core::Bench& b, const fs::path& run_dir, int nproc, const InterruptWatch& watch) {
    BenchRun run;
    run.record.name = b.name;
    run.record.kind = b.kind;
    run.record.argv = bench_argv(b, nproc);
    run.record.log = b.name;
    ProcessSpec spec{run.record.argv, run_dir / (b.name + ".stdout"), run_dir / (b.name + ".stderr"),
                     bench_timeout_s(b)};
    std::string hint = spec.stdout_path.string();
    if (run.record.argv.empty() || !find_program(run.record.argv[0]))
        return missing_tool(b, std::move(run), hint);
    log_line("bench " + b.name + ": running " + join(run.record.argv));
    ProcessOutcome o = run_process(spec, &watch);
    run.record.wall_s = o.wall_s;
    if (o.end == ProcessEnd::exited)
        run.record.exit_status = o.exit_status;
    std::string out = read_output(spec.stdout_path);
    std::string err = read_output(spec.stderr_path);
    std::string failure = process_failure(o, b, err);
    run.metrics = core::collect_metrics(b, out + "\n" + err, failure, hint);
    if (!failure.empty()) {
        run.record.status = o.end == ProcessEnd::timed_out ? core::BenchStatus::timeout : core::BenchStatus::failed;
        run.record.reason = failure;
    } else if (run.metrics.metrics.empty()) {
        run.record.status = core::BenchStatus::failed;
        run.record.reason = "its output has none of the expected metrics (see " + hint + ")";
    }
    log_line("bench " + b.name + ": " + (run.record.reason.empty() ? "ok" : run.record.reason) + " (" +
             std::to_string(run.metrics.metrics.size()) + " metrics, " + std::to_string(o.wall_s) + " s)");
    return run;
}

void set_status(core::RunResult& r) {
    if (r.metrics.empty()) {
        r.status = core::RunStatus::failed;
        std::string why;
        for (const auto& b : r.benches)
            if (!b.reason.empty())
                why += (why.empty() ? "" : "; ") + b.name + ": " + b.reason;
        if (r.failure.empty())
            r.failure = "no metric was collected" + (why.empty() ? std::string(" (the suite has no benches)") : ": " + why);
    } else {
        r.status = r.missing.empty() ? core::RunStatus::ok : core::RunStatus::partial;
    }
}

core::RunResult start_result(const SuiteRequest& req, Clock& clock) {
    if (!req.experiment || !req.target)
        throw Error("run_suite needs an experiment and a target");
    make_dirs(req.run_dir);
    core::RunResult r;
    r.experiment = req.experiment->name;
    r.run_id = req.run_id;
    r.target = req.target->name;
    r.attempt = req.attempt;
    r.deployment = req.deployment;
    r.started_at = clock.now_iso8601();
    return r;
}

} // namespace

core::RunResult run_suite(const SuiteRequest& request, Clock& clock) {
    InterruptWatch watch; // first: destroyed last, after every child is gone
    core::RunResult r = start_result(request, clock);
    int nproc = online_cpus();
    for (const auto& bench : request.experiment->benches) {
        watch.throw_if_interrupted("starting bench " + bench.name);
        BenchRun run = run_bench(bench, request.run_dir, nproc, watch);
        r.benches.push_back(run.record);
        r.metrics.insert(r.metrics.end(), run.metrics.metrics.begin(), run.metrics.metrics.end());
        r.missing.insert(r.missing.end(), run.metrics.missing.begin(), run.metrics.missing.end());
    }
    r.finished_at = clock.now_iso8601();
    set_status(r);
    return r;
}

} // namespace bootbench::sys
