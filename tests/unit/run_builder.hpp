#pragma once
// The runs report tests build: one RunResult named by its id and target,
// each test adding the metrics, benches and environment it is about.
#include "core/result/run_result.hpp"

#include <string>

namespace bootbench::test {

// A run `id` of `target`, started at `started_at` (ISO 8601; "" for none).
inline core::RunResult run_of(const std::string& id, const std::string& target, const std::string& started_at = "") {
    core::RunResult r;
    r.run_id = id;
    r.target = target;
    r.started_at = started_at;
    return r;
}

// A run that ran bench `name` of `kind` records it.
inline void add_bench(core::RunResult& r, const std::string& name, core::BenchKind kind) {
    core::BenchRecord b;
    b.name = name;
    b.kind = kind;
    r.benches.push_back(b);
}

// An environment written as a result file holds it.
inline core::EnvironmentRecord environment_of(const nlohmann::json& j) {
    return core::environment_record_from_json(j, "a test's environment");
}

// 2026-07-01T10:00:0N+00:00, N the id's last character: runs "a-1", "b-2"...
// start in the order of their numbers.
inline std::string started_in_order(const std::string& id) {
    return "2026-07-01T10:00:0" + id.substr(id.size() - 1) + "+00:00";
}

} // namespace bootbench::test
