#pragma once
// One run's result: schema "bootbench-run/1", one JSON file per run, with
// the raw logs in a folder of the same name beside it.

#include "core/host/canaries.hpp"
#include "core/host/condition_record.hpp"
#include "core/experiment/experiment.hpp"
#include "core/host/layering.hpp"
#include "core/image/image_record.hpp"
#include "core/result/bench_counters.hpp"
#include "core/result/environment_record.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

inline constexpr const char* kRunSchema = "bootbench-run/1";

struct Metric {
    std::string key;
    double value = 0;
    std::string unit;
    Better better = Better::lower;
    std::string bench; // the bench that produced it
    // Every iteration's value, in order, when the bench ran more than once in
    // the boot (`repeat`); `value` is then their median. Empty (and absent in
    // the JSON) for one iteration, as in every result from before `repeat`.
    std::vector<double> iterations{};
};

enum class BenchStatus { ok, failed, timeout, skipped };

struct BenchRecord {
    std::string name;
    BenchKind kind = BenchKind::command;
    std::vector<std::string> argv;
    std::optional<int> exit_status; // absent when killed by a signal or never started
    double wall_s = 0;
    BenchStatus status = BenchStatus::ok;
    std::string reason; // why it failed or was skipped
    std::string log;    // stdout/stderr files' stem, relative to the run's folder
    // Iterations run in this boot (`repeat`); wall_s is their sum. Absent in
    // the JSON when 1.
    int iterations = 1;
};

struct DeploymentRecord {
    std::string stateroot;
    std::string checksum;
    int serial = 0;
    std::string origin;  // refspec or container image reference
    std::string version; // the commit's "version" metadata, may be empty
    // rpm-ostree's layered packages; in the JSON ("layered") only when layered,
    // so results from before read as not layered.
    Layering layering{};
};

enum class RunStatus { ok, partial, failed };

struct RunResult {
    std::string experiment;
    std::string run_id;
    std::string target;
    int attempt = 1;
    std::string started_at; // ISO 8601 with offset
    std::string finished_at;
    RunStatus status = RunStatus::ok;
    std::string failure; // why status is failed, for a reader
    DeploymentRecord deployment;
    EnvironmentRecord environment;
    std::vector<ConditionRecord> conditions; // gate decisions, in order
    std::vector<BenchRecord> benches;
    std::vector<Metric> metrics;
    std::vector<MissingMetric> missing;
    // perf's counts per bench with `counters`; absent in the JSON when none.
    std::vector<BenchCounters> counters{};
    // The image target's resolved digests; null in the JSON for other targets.
    std::optional<ResolvedImage> image;
    // What may have disturbed the benches; absent in results from before
    // canaries were recorded (and in the JSON then).
    std::optional<Canaries> canaries;
    // The file it was read from, for messages that name it; not in the JSON.
    std::string source;

    const Metric* find(const std::string& key) const;
};

const char* to_string(BenchStatus s);
const char* to_string(RunStatus s);

// `r` with every string made valid UTF-8 (core::valid_utf8): bench output,
// paths and probed values come from outside, and the stored JSON must be valid.
RunResult with_valid_text(RunResult r);

nlohmann::json to_json(const RunResult& r);
// Throws bootbench::Error naming `where` when the document is not a valid run.
RunResult run_result_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
