#pragma once
// The short text of a notification, from plain values: which experiment, run
// k of N, the headline numbers or the failure, and where the logs are. Short
// enough for a phone's lock screen and for ntfy's 4096-byte message limit.
#include "core/experiment/experiment.hpp"

#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

enum class NotifyEvent { start, run, finish, failure };

const char* to_string(NotifyEvent event);
std::optional<NotifyEvent> notify_event_from_string(const std::string& name);

// Is `event` listed in [notify] on = [...]?
bool notify_wants(const Notify& notify, NotifyEvent event);

struct Headline {
    std::string key; // metric key, e.g. "pipe_usec_per_op"
    double value = 0;
    std::string unit;
};

struct NotifyFacts {
    NotifyEvent event = NotifyEvent::run;
    std::string experiment;
    int run_k = 0; // 1-based; 0 when the message is not about one run
    int run_n = 0;
    std::string run_id;
    std::string target;
    std::vector<std::string> targets; // start: the arms of the experiment
    std::vector<Headline> headlines;  // run: the numbers to show, most important first
    std::string failure;              // failure: what went wrong
    std::string logs;                 // where the logs are (a folder on the machine)
    std::string report;               // finish: where the report is
    int done = 0;                     // finish: runs measured
    int failed = 0;                   // finish: runs given up
};

struct NotifyText {
    std::string title;
    std::string message;
};

inline constexpr size_t kMaxHeadlines = 6;
inline constexpr size_t kMaxFailureChars = 300;
inline constexpr size_t kMaxMessageBytes = 4000;

NotifyText format_notification(const NotifyFacts& facts);

// 4 significant digits below 1e4, whole numbers above: "5.123", "1234", "123457".
std::string format_number(double value);

} // namespace bootbench::core
