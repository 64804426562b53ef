#include "core/published.hpp"

#include "core/error.hpp"
#include "core/metric_catalog.hpp"

#include <regex>

namespace bootbench::core {

namespace {

// Published identity key -> bootbench-run/1 environment key.
const std::pair<const char*, const char*> kIdentity[] = {
    {"kernel", "kernel_release"}, {"cpu_model", "cpu_model"},       {"nproc", "nproc"},
    {"governor", "governor"},     {"scx_state", "sched_ext_state"}, {"bore", "sched_bore"},
    {"hostname", "hostname"},     {"temp_start_c", "temp_start_c"}, {"temp_end_c", "temp_end_c"},
};

void fail(const std::string& where, const std::string& what) { throw input_error(where + ": " + what); }

void read_metrics(const nlohmann::json& j, const std::string& where, RunResult& r) {
    for (const auto& info : metric_catalog()) {
        if (!j.contains(info.key) || j[info.key].is_null()) {
            r.missing.push_back({info.key, "not in the published file"});
            continue;
        }
        if (!j[info.key].is_number())
            fail(where, "field '" + info.key + "' must be a number");
        r.metrics.push_back({info.key, j[info.key].get<double>(), info.unit, info.better, "published"});
    }
}

} // namespace

RunResult run_from_published(const nlohmann::json& j, const std::string& run_id,
                             const std::string& where) {
    if (!j.is_object())
        fail(where, "expected a JSON object");
    if (!j.contains("schema") || !j["schema"].is_string())
        fail(where, "missing field 'schema' (expected '" + std::string(kPublishedSchema) + "')");
    if (j["schema"] != kPublishedSchema)
        fail(where, "schema is '" + j["schema"].get<std::string>() + "', expected '" + kPublishedSchema + "'");
    if (!j.contains("label") || !j["label"].is_string() || j["label"].get<std::string>().empty())
        fail(where, "missing field 'label' (the arm this run belongs to)");
    RunResult r;
    r.experiment = "published";
    r.run_id = run_id;
    r.target = j["label"].get<std::string>();
    if (j.contains("date") && j["date"].is_string())
        r.started_at = j["date"].get<std::string>();
    for (const auto& [from, to] : kIdentity)
        r.environment[to] = j.contains(from) ? j[from] : nlohmann::json(nullptr);
    read_metrics(j, where, r);
    if (r.metrics.empty())
        fail(where, "no known metric (expected keys such as sched_pipe_usecs_op)");
    return r;
}

std::vector<Exclusion> published_exclusions(const std::string& readme_text,
                                            const std::string& readme_name) {
    // Paragraph-ish text: join wrapped lines of one bullet before matching.
    static const std::regex sentence(R"(`([A-Za-z0-9._-]+)\.json`\s+was\s+excluded\b([^\n]*(?:\n[ \t]+[^\n]*)*))");
    std::vector<Exclusion> out;
    for (auto it = std::sregex_iterator(readme_text.begin(), readme_text.end(), sentence);
         it != std::sregex_iterator(); ++it) {
        std::string reason = std::regex_replace((*it)[2].str(), std::regex(R"(\s+)"), " ");
        reason = std::regex_replace(reason, std::regex(R"(^\s*from the published median:?\s*)"), "");
        out.push_back({(*it)[1].str(), "excluded by the publisher (" + readme_name + "): " + reason});
    }
    return out;
}

} // namespace bootbench::core
