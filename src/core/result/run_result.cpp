#include "core/result/run_result.hpp"

#include "core/base/json_read.hpp"
#include "core/base/text.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

const Named<BenchStatus> kBenchStatus[] = {{"ok", BenchStatus::ok},
                                                           {"failed", BenchStatus::failed},
                                                           {"timeout", BenchStatus::timeout},
                                                           {"skipped", BenchStatus::skipped}};
const Named<RunStatus> kRunStatus[] = {
    {"ok", RunStatus::ok}, {"partial", RunStatus::partial}, {"failed", RunStatus::failed}};
nlohmann::json bench_to_json(const BenchRecord& b) {
    nlohmann::json j = {{"name", b.name},     {"kind", to_string(b.kind)}, {"argv", b.argv},
                        {"wall_s", b.wall_s}, {"status", to_string(b.status)},
                        {"reason", b.reason}, {"log", b.log}};
    j["exit_status"] = b.exit_status ? nlohmann::json(*b.exit_status) : nlohmann::json(nullptr);
    if (b.iterations != 1)
        j["iterations"] = b.iterations;
    return j;
}

BenchRecord bench_from_json(const JsonReader& r) {
    BenchRecord b;
    b.name = r.str("name");
    b.kind = r.choice("kind", kBenchKindNames);
    b.argv = r.strings("argv");
    if (r.has("exit_status"))
        b.exit_status = static_cast<int>(r.integer("exit_status"));
    b.wall_s = r.number("wall_s");
    b.status = r.choice("status", kBenchStatus);
    b.reason = r.str_or("reason", "");
    b.log = r.str_or("log", "");
    if (r.has("iterations"))
        b.iterations = static_cast<int>(std::clamp(r.integer("iterations"), 1LL, 1000000LL));
    return b;
}

void make_valid(std::string& s) {
    s = valid_utf8(s);
}

void make_valid(BenchRecord& b) {
    make_valid(b.name);
    for (auto& a : b.argv)
        make_valid(a);
    make_valid(b.reason);
    make_valid(b.log);
}

void make_valid(DeploymentRecord& d) {
    for (std::string* s : {&d.stateroot, &d.checksum, &d.origin, &d.version})
        make_valid(*s);
    for (auto* list : {&d.layering.packages, &d.layering.removed, &d.layering.replaced})
        for (auto& s : *list)
            make_valid(s);
}

void make_valid(BenchCounters& c) {
    make_valid(c.bench);
    make_valid(c.failure);
    for (auto& v : c.values)
        for (std::string* s : {&v.event, &v.unit})
            make_valid(*s);
    for (auto& u : c.unavailable)
        for (std::string* s : {&u.key, &u.reason})
            make_valid(*s);
}

nlohmann::json metric_to_json(const Metric& m) {
    nlohmann::json j = {{"value", m.value}, {"unit", m.unit}, {"better", to_string(m.better)},
                        {"bench", m.bench}};
    if (!m.iterations.empty())
        j["iterations"] = m.iterations;
    return j;
}

std::vector<double> iterations_from_json(const JsonReader& m) {
    std::vector<double> out;
    if (!m.has("iterations"))
        return out;
    for (const auto& v : m.array("iterations")) {
        if (!v.is_number())
            m.fail("field 'iterations' must be an array of numbers");
        out.push_back(v.get<double>());
    }
    return out;
}

nlohmann::json conditions_to_json(const std::vector<ConditionRecord>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : list)
        out.push_back(to_json(c));
    return out;
}

} // namespace

RunResult with_valid_text(RunResult r) {
    for (std::string* s : {&r.experiment, &r.run_id, &r.target, &r.started_at, &r.finished_at,
                           &r.failure})
        make_valid(*s);
    make_valid(r.deployment);
    for (auto& b : r.benches)
        make_valid(b);
    for (auto& m : r.metrics)
        for (std::string* s : {&m.key, &m.unit, &m.bench})
            make_valid(*s);
    for (auto& m : r.missing)
        for (std::string* s : {&m.key, &m.reason})
            make_valid(*s);
    r.environment = with_valid_text(std::move(r.environment));
    for (auto& c : r.conditions) {
        for (std::string* s : {&c.wanted, &c.found, &c.detail})
            make_valid(*s);
        c.unknown = valid_utf8_strings(std::move(c.unknown));
    }
    if (r.image) {
        for (std::string* s : {&r.image->reference, &r.image->index_digest, &r.image->manifest_digest,
                               &r.image->platform, &r.image->pinned_reference})
            make_valid(*s);
        r.image->unknown = valid_utf8_strings(std::move(r.image->unknown));
    }
    if (r.canaries) {
        for (auto& l : r.canaries->kernel_log.lines)
            make_valid(l.text);
        make_valid(r.canaries->kernel_log.problem);
        make_valid(r.canaries->throttling.problem);
    }
    for (auto& c : r.counters)
        make_valid(c);
    return r;
}

const Metric* RunResult::find(const std::string& key) const {
    for (const auto& m : metrics)
        if (m.key == key)
            return &m;
    return nullptr;
}

const char* to_string(BenchStatus s) { return name_of(kBenchStatus, s); }

const char* to_string(RunStatus s) { return name_of(kRunStatus, s); }

nlohmann::json to_json(const RunResult& r) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& m : r.metrics)
        metrics[m.key] = metric_to_json(m);
    nlohmann::json missing = nlohmann::json::object();
    for (const auto& m : r.missing)
        missing[m.key] = m.reason;
    nlohmann::json benches = nlohmann::json::array();
    for (const auto& b : r.benches)
        benches.push_back(bench_to_json(b));
    const auto& d = r.deployment;
    nlohmann::json j = {{"schema", kRunSchema},
            {"experiment", r.experiment},
            {"run", r.run_id},
            {"target", r.target},
            {"attempt", r.attempt},
            {"started_at", r.started_at},
            {"finished_at", r.finished_at},
            {"status", to_string(r.status)},
            {"failure", r.failure},
            {"deployment",
             {{"stateroot", d.stateroot}, {"checksum", d.checksum}, {"serial", d.serial},
              {"origin", d.origin}, {"version", d.version}}},
            {"environment", to_json(r.environment)},
            {"conditions", conditions_to_json(r.conditions)},
            {"benches", benches},
            {"metrics", metrics},
            {"missing", missing},
            {"image", r.image ? to_json(*r.image) : nlohmann::json(nullptr)}};
    if (d.layering.layered)
        j["deployment"]["layered"] = to_json(d.layering);
    if (r.canaries)
        j["canaries"] = to_json(*r.canaries);
    for (const auto& c : r.counters)
        j["counters"].push_back(to_json(c));
    return j;
}

RunResult run_result_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    if (r.str("schema") != kRunSchema)
        r.fail("schema is '" + r.str("schema") + "', expected '" + kRunSchema + "'");
    RunResult out;
    out.experiment = r.str("experiment");
    out.run_id = r.str("run");
    out.target = r.str("target");
    out.attempt = static_cast<int>(r.integer("attempt"));
    out.started_at = r.str_or("started_at", "");
    out.finished_at = r.str_or("finished_at", "");
    out.status = r.choice("status", kRunStatus);
    out.failure = r.str_or("failure", "");
    JsonReader d = r.child(r.object("deployment"), "deployment");
    out.deployment = {d.str("stateroot"), d.str("checksum"), static_cast<int>(d.integer("serial")),
                      d.str_or("origin", ""), d.str_or("version", ""),
                      d.has("layered") ? layering_from_json(d.object("layered"), where + ": deployment.layered")
                                       : Layering{}};
    if (r.has("environment"))
        out.environment = environment_record_from_json(r.object("environment"), where + ": environment");
    if (r.has("conditions"))
        for (const auto& c : r.array("conditions"))
            out.conditions.push_back(condition_record_from_json(c, where + ": conditions[" + std::to_string(out.conditions.size()) + "]"));
    for (const auto& b : r.array("benches"))
        out.benches.push_back(bench_from_json(r.child(b, "benches")));
    for (const auto& [key, value] : r.object("metrics").items()) {
        JsonReader m = r.child(value, "metrics." + key);
        out.metrics.push_back({key, m.number("value"), m.str_or("unit", ""),
                               m.choice("better", kBetterNames), m.str_or("bench", ""),
                               iterations_from_json(m)});
    }
    if (r.has("missing"))
        for (const auto& [key, value] : r.object("missing").items())
            out.missing.push_back({key, value.is_string() ? value.get<std::string>() : ""});
    if (r.has("image"))
        out.image = recorded_image_from_json(r.object("image"), where + ": image");
    if (r.has("canaries"))
        out.canaries = canaries_from_json(r.object("canaries"), where + ": canaries");
    if (r.has("counters"))
        for (const auto& c : r.array("counters"))
            out.counters.push_back(bench_counters_from_json(c, where + ": counters[" + std::to_string(out.counters.size()) + "]"));
    return out;
}

} // namespace bootbench::core
