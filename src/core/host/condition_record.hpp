#pragma once
// One decision of the conditions gate, as every result stores it in its
// `conditions` array: what was checked, wanted and found, and what the gate
// did. Its JSON keys are written and read here only.
#include "core/base/string_table.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::core {

enum class ConditionCheck { settle, governor, governor_set, sched_ext, temperature, start_temp_band, quiet, load, tools };
enum class ConditionDecision { run, wait, set, fail, run_flagged, record };

inline constexpr Named<ConditionCheck> kConditionCheckNames[] = {
    {"settle", ConditionCheck::settle},         {"governor", ConditionCheck::governor},
    {"governor-set", ConditionCheck::governor_set}, {"sched_ext", ConditionCheck::sched_ext},
    {"temperature", ConditionCheck::temperature}, {"start_temp_band", ConditionCheck::start_temp_band},
    {"quiet", ConditionCheck::quiet},           {"load", ConditionCheck::load},
    {"tools", ConditionCheck::tools}};
inline constexpr Named<ConditionDecision> kConditionDecisionNames[] = {
    {"run", ConditionDecision::run},   {"wait", ConditionDecision::wait},
    {"set", ConditionDecision::set},   {"fail", ConditionDecision::fail},
    {"run-flagged", ConditionDecision::run_flagged}, {"record", ConditionDecision::record}};

struct ConditionRecord {
    ConditionCheck check = ConditionCheck::settle;
    std::string wanted;
    std::string found;
    ConditionDecision decision = ConditionDecision::run;
    std::string detail;
    // Keys this version does not know, from a file another version wrote:
    // kept, and written back as they were.
    nlohmann::json unknown = nlohmann::json::object();

    bool operator==(const ConditionRecord&) const = default;
};

const char* to_string(ConditionCheck c);
const char* to_string(ConditionDecision d);

nlohmann::json to_json(const ConditionRecord& c);
// Throws bootbench::Error naming `where` and the field when malformed.
ConditionRecord condition_record_from_json(const nlohmann::json& j, const std::string& where);

// One line for the log: "governor: wanted performance, found powersave: fail (...)".
std::string log_line(const ConditionRecord& c);

} // namespace bootbench::core
