#include "core/result/bench_counters.hpp"

#include "core/base/json_read.hpp"

namespace bootbench::core {

namespace {

nlohmann::json value_to_json(const CounterValue& v) {
    nlohmann::json j = {{"event", v.event}, {"value", v.value}};
    if (!v.unit.empty())
        j["unit"] = v.unit;
    if (v.running_pct < 100)
        j["running_pct"] = v.running_pct;
    if (!v.iterations.empty())
        j["iterations"] = v.iterations;
    return j;
}

std::vector<double> numbers(const JsonReader& r, const char* key) {
    std::vector<double> out;
    for (const auto& v : r.has(key) ? r.array(key) : nlohmann::json::array()) {
        if (!v.is_number())
            r.fail(std::string("field '") + key + "' must be an array of numbers");
        out.push_back(v.get<double>());
    }
    return out;
}

CounterValue value_from_json(const JsonReader& r) {
    CounterValue v{r.str("event"), r.number("value"), r.str_or("unit", "")};
    if (r.has("running_pct"))
        v.running_pct = r.number("running_pct");
    v.iterations = numbers(r, "iterations");
    return v;
}

} // namespace

const CounterValue* BenchCounters::find(const std::string& event) const {
    for (const auto& v : values)
        if (v.event == event)
            return &v;
    return nullptr;
}

nlohmann::json to_json(const BenchCounters& c) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& v : c.values)
        values.push_back(value_to_json(v));
    nlohmann::json unavailable = nlohmann::json::object();
    for (const auto& u : c.unavailable)
        unavailable[u.key] = u.reason;
    nlohmann::json j = {{"bench", c.bench}, {"values", values}, {"unavailable", unavailable}};
    if (!c.failure.empty())
        j["failure"] = c.failure;
    return j;
}

BenchCounters bench_counters_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    BenchCounters c{r.str("bench"), {}};
    for (const auto& v : r.array("values"))
        c.values.push_back(
            value_from_json(r.child(v, "values[" + std::to_string(c.values.size()) + "]")));
    if (r.has("unavailable"))
        for (const auto& [event, why] : r.object("unavailable").items())
            c.unavailable.push_back({event, why.is_string() ? why.get<std::string>() : ""});
    c.failure = r.str_or("failure", "");
    return c;
}

} // namespace bootbench::core
