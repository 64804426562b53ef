#include "core/host/condition_record.hpp"

#include "core/base/json_read.hpp"

namespace bootbench::core {

namespace {

constexpr const char* kKeys[] = {"check", "wanted", "found", "decision", "detail"};

} // namespace

const char* to_string(ConditionCheck c) { return name_of(kConditionCheckNames, c); }

const char* to_string(ConditionDecision d) { return name_of(kConditionDecisionNames, d); }

nlohmann::json to_json(const ConditionRecord& c) {
    nlohmann::json j = c.unknown;
    j.update({{kKeys[0], to_string(c.check)}, {kKeys[1], c.wanted}, {kKeys[2], c.found},
              {kKeys[3], to_string(c.decision)}, {kKeys[4], c.detail}});
    return j;
}

ConditionRecord condition_record_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    if (!j.is_object())
        r.fail("expected an object");
    return {r.choice(kKeys[0], kConditionCheckNames), r.str_or(kKeys[1], ""), r.str_or(kKeys[2], ""),
            r.choice(kKeys[3], kConditionDecisionNames), r.str_or(kKeys[4], ""), unknown_keys(j, kKeys)};
}

std::string log_line(const ConditionRecord& c) {
    return std::string(to_string(c.check)) + ": wanted " + c.wanted + ", found " + c.found + ": " +
           to_string(c.decision) + (c.detail.empty() ? "" : " (" + c.detail + ")");
}

} // namespace bootbench::core
