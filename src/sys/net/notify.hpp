#pragma once
// Notifications: best effort, bounded, silent about secrets. A notification
// must never stall or break the experiment: send() returns within its bound
// whatever the network does (it is often down right after boot: transport
// errors and 5xx answers are retried with backoff until the bound), never
// throws, and its only trace of a failure is one warning.
#include "core/experiment/experiment.hpp"
#include "core/report/notify_message.hpp"
#include "sys/clock.hpp"
#include "sys/net/http.hpp"

#include <functional>
#include <string>

namespace bootbench::sys {

struct NotifyBounds {
    double total_s = 120;          // one send(), retries and waits included
    double attempt_timeout_s = 15; // one request
    double connect_timeout_s = 5;
    double first_backoff_s = 2; // doubled after each failed attempt
    double max_backoff_s = 30;
};

// Receives the warning when a notification is not sent; the token is
// already redacted. Production: stderr, which the unit's journal keeps.
using WarningSink = std::function<void(const std::string&)>;
void warn_to_stderr(const std::string& warning);

enum class NotifyOutcome { sent, not_wanted, failed };

class Notifier {
  public:
    // `config` is the experiment's [notify]; the token (token_file, else
    // token_env) is read at every send, so a rotated token is picked up.
    Notifier(core::Notify config, std::string experiment, HttpClient& http, Clock& clock,
             WarningSink warn = warn_to_stderr, NotifyBounds bounds = {});

    // ntfy style (format = "text"): POST the message, with Title, Tags and
    // Priority headers. format = "json": POST {"experiment", "event",
    // "title", "message"}. Authorization: Bearer <token> when there is one.
    NotifyOutcome send(core::NotifyEvent event, const std::string& title,
                       const std::string& message) noexcept;
    NotifyOutcome send(const core::NotifyFacts& facts) noexcept;

  private:
    HttpRequest build(core::NotifyEvent event, const std::string& title, const std::string& message,
                      const std::string& token) const;
    NotifyOutcome deliver(core::NotifyEvent event, HttpRequest request, const std::string& token);
    void warn(const std::string& text, const std::string& token) noexcept;

    core::Notify config_;
    std::string experiment_;
    HttpClient& http_;
    Clock& clock_;
    WarningSink warn_;
    NotifyBounds bounds_;
};

// The token named by [notify] (token_file first, then token_env), trimmed;
// "" when none is configured. Throws bootbench::Error naming the file or
// the variable, never quoting the token.
std::string read_notify_token(const core::Notify& config);

// `text` with every occurrence of `secret` replaced by "[redacted]", also
// percent-encoded or JSON-escaped (core::redact).
std::string redact(const std::string& text, const std::string& secret);

} // namespace bootbench::sys
