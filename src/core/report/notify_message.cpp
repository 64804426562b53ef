#include "core/report/notify_message.hpp"
#include "core/base/text.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace bootbench::core {

namespace {

constexpr Named<NotifyEvent> kEventNames[] = {{"start", NotifyEvent::start},
                                              {"run", NotifyEvent::run},
                                              {"finish", NotifyEvent::finish},
                                              {"failure", NotifyEvent::failure}};

// Cuts at `limit` bytes without splitting a UTF-8 sequence, marking the cut.
std::string shorten(const std::string& text, size_t limit) {
    if (text.size() <= limit)
        return text;
    size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return text.substr(0, cut) + "...";
}

std::string run_label(const NotifyFacts& f) {
    std::string s = "run " + std::to_string(f.run_k) + "/" + std::to_string(f.run_n);
    if (!f.run_id.empty() || !f.target.empty())
        s += " (" + (f.run_id.empty() ? "" : f.run_id + ", ") + "target " + f.target + ")";
    return s;
}

std::string logs_line(const NotifyFacts& f) {
    return f.logs.empty() ? "" : "\nlogs: " + f.logs;
}

NotifyText start_text(const NotifyFacts& f) {
    std::string msg = f.experiment + ": started, " + std::to_string(f.run_n) + " runs";
    if (!f.targets.empty())
        msg += " of " + join(f.targets, ", ");
    return {"bootbench: " + f.experiment + " started", msg + logs_line(f)};
}

NotifyText run_text(const NotifyFacts& f) {
    std::string msg = f.experiment + ": " + run_label(f) + " done";
    for (size_t i = 0; i < f.headlines.size() && i < kMaxHeadlines; ++i) {
        const Headline& h = f.headlines[i];
        msg += "\n" + h.key + " " + format_number(h.value) + (h.unit.empty() ? "" : " " + h.unit);
    }
    if (f.headlines.size() > kMaxHeadlines)
        msg += "\n(" + std::to_string(f.headlines.size() - kMaxHeadlines) +
               " more metrics in the result)";
    std::string title = "bootbench: " + f.experiment + " run " + std::to_string(f.run_k) + "/" +
                        std::to_string(f.run_n) + " done";
    return {title, msg + logs_line(f)};
}

NotifyText finish_text(const NotifyFacts& f) {
    std::string msg = f.experiment + ": finished, " + std::to_string(f.done) + " of " +
                      std::to_string(f.run_n) + " runs measured, " + std::to_string(f.failed) +
                      " failed";
    if (!f.report.empty())
        msg += "\nreport: " + f.report;
    return {"bootbench: " + f.experiment + " finished", msg + logs_line(f)};
}

NotifyText failure_text(const NotifyFacts& f) {
    std::string where =
        f.run_k > 0 ? " at run " + std::to_string(f.run_k) + "/" + std::to_string(f.run_n) : "";
    std::string msg = f.experiment + ": " + (f.run_k > 0 ? run_label(f) + " failed" : "failed");
    msg += ": " + shorten(f.failure.empty() ? "no reason recorded" : f.failure, kMaxFailureChars);
    return {"bootbench: " + f.experiment + " FAILED" + where, msg + logs_line(f)};
}

} // namespace

const char* to_string(NotifyEvent event) { return name_of(kEventNames, event); }

std::optional<NotifyEvent> notify_event_from_string(const std::string& name) { return value_of(kEventNames, name); }

bool notify_wants(const Notify& notify, NotifyEvent event) {
    for (const auto& name : notify.on)
        if (name == to_string(event))
            return true;
    return false;
}

std::string format_number(double value) {
    if (!std::isfinite(value))
        return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    char buf[64];
    if (std::fabs(value) >= 1e4)
        std::snprintf(buf, sizeof buf, "%.0f", value);
    else
        std::snprintf(buf, sizeof buf, "%.4g", value);
    return buf;
}

NotifyText format_notification(const NotifyFacts& facts) {
    NotifyText t;
    switch (facts.event) {
    case NotifyEvent::start:
        t = start_text(facts);
        break;
    case NotifyEvent::run:
        t = run_text(facts);
        break;
    case NotifyEvent::finish:
        t = finish_text(facts);
        break;
    case NotifyEvent::failure:
        t = failure_text(facts);
        break;
    }
    t.message = shorten(t.message, kMaxMessageBytes);
    return t;
}

} // namespace bootbench::core
