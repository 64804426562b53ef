#include "core/host/canaries.hpp"

#include "core/base/json_read.hpp"
#include "core/base/number.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::core {

namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string times(long long n, const char* what) {
    return std::string(what) + " throttling " + std::to_string(n) + (n == 1 ? " time" : " times");
}

std::string kernel_text(const KernelLog& log) {
    std::string s = std::to_string(log.total) + " kernel " +
                    (log.total == 1 ? "warning" : "warnings") + " during the benches";
    if (!log.lines.empty())
        s += " (first: <" + std::to_string(log.lines.front().level) + "> " +
             log.lines.front().text + ")";
    return s;
}

std::string updates_text(const std::vector<std::string>& units) {
    return join(units, ", ") + (units.size() == 1 ? " was" : " were") +
           " running at this boot (started by a stopped timer; stopped before the settle time)";
}

KernelLog kernel_log_from(const JsonReader& r) {
    KernelLog log;
    for (const auto& l : r.array("lines")) {
        JsonReader line = r.child(l, "lines");
        log.lines.push_back({static_cast<int>(line.integer("level")), line.str("text")});
    }
    log.total = static_cast<size_t>(std::max(0LL, r.integer("total")));
    log.problem = r.str_or("problem", "");
    return log;
}

} // namespace

std::optional<KernelLine> parse_kmsg_record(std::string_view record) {
    size_t semicolon = record.find(';');
    size_t comma = record.find(',');
    if (record.empty() || record[0] == ' ' || semicolon == std::string_view::npos ||
        comma == std::string_view::npos || comma > semicolon)
        return std::nullopt;
    auto prio = parse_number(record.substr(0, comma));
    if (!prio || *prio != static_cast<long long>(*prio))
        return std::nullopt;
    std::string_view text = record.substr(semicolon + 1);
    if (!text.empty() && text.back() == '\n')
        text.remove_suffix(1);
    return KernelLine{static_cast<int>(static_cast<long long>(*prio) & 7),
                      cap_text(valid_utf8(text), kMaxKernelLineBytes, "the kernel's line")};
}

void add_kmsg_records(KernelLog& log, std::string_view records) {
    while (!records.empty()) {
        size_t end = records.find('\n');
        std::string_view one = records.substr(0, end);
        records = end == std::string_view::npos ? std::string_view() : records.substr(end + 1);
        auto line = parse_kmsg_record(one);
        if (!line || line->level > kWarningLevel)
            continue;
        ++log.total;
        if (log.lines.size() < kMaxKernelLines)
            log.lines.push_back(std::move(*line));
    }
}

double suspended_between(double sleep_offset_before_s, double sleep_offset_after_s) {
    double asleep = sleep_offset_after_s - sleep_offset_before_s;
    return asleep >= 1 ? asleep : 0;
}

Throttling throttle_change(const ThrottleCounts& before, const ThrottleCounts& after) {
    Throttling t;
    for (const auto& [file, count] : after) {
        auto it = before.find(file);
        if (it == before.end() || count < it->second)
            continue;
        long long change = count - it->second;
        if (ends_with(file, "core_throttle_count"))
            t.core += change;
        else if (ends_with(file, "package_throttle_count"))
            t.package = std::max(t.package, change);
    }
    return t;
}

std::string canary_text(const Canaries& c) {
    std::vector<std::string> parts;
    if (c.kernel_log.total > 0)
        parts.push_back(kernel_text(c.kernel_log));
    if (c.throttling.core > 0)
        parts.push_back(times(c.throttling.core, "core"));
    if (c.throttling.package > 0)
        parts.push_back(times(c.throttling.package, "package"));
    if (c.suspended_s > 0)
        parts.push_back("the machine was suspended for " + std::to_string(std::lround(c.suspended_s)) +
                        " s during the benches");
    if (!c.updates_running.empty())
        parts.push_back(updates_text(c.updates_running));
    std::string s;
    for (const auto& p : parts)
        s += (s.empty() ? "" : "; ") + p;
    return s;
}

nlohmann::json to_json(const Canaries& c) {
    nlohmann::json lines = nlohmann::json::array();
    for (const auto& l : c.kernel_log.lines)
        lines.push_back({{"level", l.level}, {"text", l.text}});
    return {{"kernel_log",
             {{"lines", lines}, {"total", c.kernel_log.total}, {"problem", c.kernel_log.problem}}},
            {"throttling",
             {{"core", c.throttling.core},
              {"package", c.throttling.package},
              {"problem", c.throttling.problem}}},
            {"suspended_s", c.suspended_s},
            {"updates_running", c.updates_running}};
}

Canaries canaries_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    Canaries c;
    c.kernel_log = kernel_log_from(r.child(r.object("kernel_log"), "kernel_log"));
    JsonReader t = r.child(r.object("throttling"), "throttling");
    c.throttling = {t.integer("core"), t.integer("package"), t.str_or("problem", "")};
    c.suspended_s = r.has("suspended_s") ? r.number("suspended_s") : 0; // results written before it
    if (r.has("updates_running"))
        c.updates_running = r.strings("updates_running");
    return c;
}

} // namespace bootbench::core
