#include "core/report/published.hpp"

#include "core/base/error.hpp"
#include "core/experiment/kinds/kinds.hpp"
#include "core/base/regex.hpp"

#include <string_view>

namespace bootbench::core {

namespace {

// Published identity key -> the bootbench-run/1 environment field it fills.
const std::pair<const char*, EnvField> kIdentity[] = {
    {"kernel", EnvField::kernel_release},   {"cpu_model", EnvField::cpu_model},
    {"nproc", EnvField::nproc},             {"governor", EnvField::governor},
    {"scx_state", EnvField::sched_ext_state}, {"bore", EnvField::sched_bore},
    {"hostname", EnvField::hostname},       {"temp_start_c", EnvField::temp_start_c},
    {"temp_end_c", EnvField::temp_end_c},
};

// The identity keys as the environment's fields; a key of another type than
// its field is refused, naming the file and the key.
void read_identity(const nlohmann::json& j, const std::string& where, EnvironmentRecord& env) {
    try {
        for (const auto& [from, to] : kIdentity)
            read_field(env, to, j, from, where);
    } catch (const Error& e) {
        throw input_error(e.what());
    }
}

void fail(const std::string& where, const std::string& what) {
    throw input_error(where + ": " + what);
}

// The benches a margine-bench-kernel/1 file has fields for; a kind added
// since is no published field.
constexpr BenchKind kPublishedKinds[] = {BenchKind::perf_sched_pipe, BenchKind::perf_sched_messaging,
                                         BenchKind::sysbench_threads, BenchKind::schbench};

void read_metric(const nlohmann::json& j, const std::string& where, const MetricInfo& info, RunResult& r) {
    if (!j.contains(info.key) || j[info.key].is_null()) {
        r.missing.push_back({info.key, "not in the published file"});
        return;
    }
    if (!j[info.key].is_number())
        fail(where, "field '" + info.key + "' must be a number");
    r.metrics.push_back({info.key, j[info.key].get<double>(), info.unit, info.better, "published"});
}

void read_metrics(const nlohmann::json& j, const std::string& where, RunResult& r) {
    for (BenchKind kind : kPublishedKinds)
        for (const auto& info : bench_kind(kind).metrics)
            read_metric(j, where, info, r);
}

// Blank runs (line breaks too) as one space, none at the ends.
std::string one_line(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            out += c;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    }
    if (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

// What follows "was excluded", without "from the published median:", one
// line of at most kMaxReason bytes (cut at a space) for the report.
std::string exclusion_reason(std::string_view text) {
    constexpr size_t kMaxReason = 300;
    constexpr std::string_view preamble = "from the published median";
    std::string reason = one_line(text);
    if (reason.rfind(preamble, 0) == 0) {
        reason.erase(0, preamble.size() + (reason.compare(preamble.size(), 1, ":") == 0));
        reason = one_line(reason);
    }
    if (reason.size() <= kMaxReason)
        return reason;
    size_t cut = reason.rfind(' ', kMaxReason);
    reason.resize(cut == std::string::npos ? kMaxReason : cut);
    return reason + " ...";
}

} // namespace

RunResult run_from_published(const nlohmann::json& j, const std::string& run_id,
                             const std::string& where) {
    if (!j.is_object())
        fail(where, "expected a JSON object");
    if (!j.contains("schema") || !j["schema"].is_string())
        fail(where, "missing field 'schema' (expected '" + std::string(kPublishedSchema) + "')");
    if (j["schema"] != kPublishedSchema)
        fail(where, "schema is '" + j["schema"].get<std::string>() + "', expected '" +
                        kPublishedSchema + "'");
    if (!j.contains("label") || !j["label"].is_string() || j["label"].get<std::string>().empty())
        fail(where, "missing field 'label' (the arm this run belongs to)");
    RunResult r;
    r.experiment = "published";
    r.run_id = run_id;
    r.target = j["label"].get<std::string>();
    if (j.contains("date") && j["date"].is_string())
        r.started_at = j["date"].get<std::string>();
    read_identity(j, where, r.environment);
    read_metrics(j, where, r);
    if (r.metrics.empty())
        fail(where, "no known metric (expected keys such as sched_pipe_usecs_op)");
    return r;
}

std::vector<Exclusion> published_exclusions(const std::string& readme_text,
                                            const std::string& readme_name) {
    // Paragraph-ish text: a bullet's wrapped lines belong to its reason.
    static const Regex sentence(
        R"(`([A-Za-z0-9._-]+)\.json`\s+was\s+excluded\b([^\n]*(?:\n[ \t]+[^\n]*)*))");
    std::vector<Exclusion> out;
    for (size_t at = 0;;) {
        RegexMatch m = sentence.search(readme_text, at);
        if (m.outcome == RegexMatch::Outcome::gave_up)
            fail(readme_name, "cannot read the exclusions (" + m.why +
                                  "); shorten the paragraph after 'was excluded'");
        if (m.outcome == RegexMatch::Outcome::no_match)
            return out;
        out.push_back({std::string(m.groups[1]), "excluded by the publisher (" + readme_name +
                                                     "): " + exclusion_reason(m.groups[2])});
        at = static_cast<size_t>(m.groups[0].data() - readme_text.data()) + m.groups[0].size();
    }
}

} // namespace bootbench::core
