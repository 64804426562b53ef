#include "sys/net/notify.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "sys/store/files.hpp"
#include "sys/store/user_lines.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace bootbench::sys {

namespace {

// Below this, an attempt cannot finish anyway: give up instead.
constexpr double kMinAttemptS = 0.05;
constexpr size_t kAnswerSnippet = 200;

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Control characters in a header value would end the header: spaces instead.
std::string header_safe(std::string s) {
    std::replace_if(
        s.begin(), s.end(), [](char c) { return (c >= 0 && c < 0x20) || c == 0x7f; }, ' ');
    return s;
}

const char* ntfy_tags(core::NotifyEvent event) {
    switch (event) {
    case core::NotifyEvent::start:
        return "bootbench,arrow_forward";
    case core::NotifyEvent::run:
        return "bootbench,white_check_mark";
    case core::NotifyEvent::finish:
        return "bootbench,checkered_flag";
    case core::NotifyEvent::failure:
        return "bootbench,warning";
    }
    return "bootbench";
}

bool retryable(long status) {
    return status == 408 || status == 425 || status == 429 || status >= 500;
}

// Redacted first, over the whole body: a cut or an escape before it could
// split or change the token so that it is no longer found.
std::string answer_text(const HttpResponse& res, const std::string& token) {
    std::string text = "HTTP " + std::to_string(res.status);
    std::string body = trim(core::redact(res.body, token));
    body = core::printable(core::cap_text(body, kAnswerSnippet, "the answer"));
    return body.empty() ? text : text + ": " + body;
}

std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

} // namespace

void warn_to_stderr(const std::string& warning) {
    warn(core::printable(warning));
}

std::string redact(const std::string& text, const std::string& secret) {
    return core::redact(text, secret);
}

std::string read_notify_token(const core::Notify& config) {
    std::string token;
    if (!config.token_file.empty()) {
        try {
            token = trim(read_text_file(config.token_file));
        } catch (const Error& e) {
            throw Error(std::string("notify.token_file: ") + e.what());
        }
        if (token.empty())
            throw Error("notify.token_file " + config.token_file + " is empty");
    } else if (!config.token_env.empty()) {
        const char* value = std::getenv(config.token_env.c_str());
        token = trim(value ? value : "");
        if (token.empty())
            throw Error("notify.token_env: the environment variable " + config.token_env +
                        " is not set or empty (a systemd unit sees only its own Environment=)");
    }
    if (token.find_first_of("\r\n") != std::string::npos || token.find('\0') != std::string::npos)
        throw Error("the notify token (" +
                    (config.token_file.empty() ? config.token_env : config.token_file) +
                    ") has a line break inside: it must be one line");
    return token;
}

Notifier::Notifier(core::Notify config, std::string experiment, HttpClient& http, Clock& clock,
                   WarningSink warn, NotifyBounds bounds)
    : config_(std::move(config)), experiment_(std::move(experiment)), http_(http), clock_(clock),
      warn_(std::move(warn)), bounds_(bounds) {}

NotifyOutcome Notifier::send(const core::NotifyFacts& facts) noexcept {
    try {
        core::NotifyText text = core::format_notification(facts);
        return send(facts.event, text.title, text.message);
    } catch (...) {
        warn("notification '" + std::string(core::to_string(facts.event)) +
                 "' could not be written",
             "");
        return NotifyOutcome::failed;
    }
}

NotifyOutcome Notifier::send(core::NotifyEvent event, const std::string& title,
                             const std::string& message) noexcept {
    std::string token;
    try {
        if (!core::notify_wants(config_, event))
            return NotifyOutcome::not_wanted;
        token = read_notify_token(config_);
        return deliver(event, build(event, title, message, token), token);
    } catch (const std::exception& e) {
        warn("notification '" + std::string(core::to_string(event)) + "' not sent: " + e.what() +
                 "; the experiment goes on without it",
             token);
    } catch (...) {
        warn("notification '" + std::string(core::to_string(event)) + "' not sent", token);
    }
    return NotifyOutcome::failed;
}

HttpRequest Notifier::build(core::NotifyEvent event, const std::string& title,
                            const std::string& message, const std::string& token) const {
    HttpRequest req;
    req.method = HttpMethod::post;
    req.url = config_.url;
    if (config_.format == "json") {
        nlohmann::json body{{"experiment", experiment_},
                            {"event", core::to_string(event)},
                            {"title", title},
                            {"message", message}};
        req.body = core::json_text(body);
        req.headers.push_back({"Content-Type", "application/json"});
    } else {
        req.body = message;
        req.headers.push_back({"Content-Type", "text/plain; charset=utf-8"});
        req.headers.push_back({"Title", header_safe(title)});
        req.headers.push_back({"Tags", ntfy_tags(event)});
        if (event == core::NotifyEvent::failure)
            req.headers.push_back({"Priority", "high"});
    }
    if (!token.empty())
        req.headers.push_back({"Authorization", "Bearer " + token});
    return req;
}

NotifyOutcome Notifier::deliver(core::NotifyEvent event, HttpRequest req,
                                const std::string& token) {
    double start = clock_.monotonic_s();
    double deadline = start + bounds_.total_s;
    double backoff = bounds_.first_backoff_s;
    int attempts = 0;
    std::string last = "no attempt fitted in the bound";
    std::string what =
        "notification '" + std::string(core::to_string(event)) + "' to " + display_url(req.url);
    while (deadline - clock_.monotonic_s() >= kMinAttemptS) {
        req.timeout_s = std::min(bounds_.attempt_timeout_s, deadline - clock_.monotonic_s());
        req.connect_timeout_s = std::min(bounds_.connect_timeout_s, req.timeout_s);
        ++attempts;
        try {
            HttpResponse res = http_.request(req);
            if (res.status >= 200 && res.status < 300)
                return NotifyOutcome::sent;
            last = answer_text(res, token);
            if (!retryable(res.status))
                break;
        } catch (const Error& e) {
            last = e.what();
        }
        if (deadline - clock_.monotonic_s() <= backoff + kMinAttemptS)
            break;
        clock_.sleep_s(backoff);
        backoff = std::min(backoff * 2, bounds_.max_backoff_s);
    }
    warn(what + " not sent (" + std::to_string(attempts) +
             (attempts == 1 ? " attempt" : " attempts") + " in " +
             seconds_text(clock_.monotonic_s() - start) + "): " + last +
             "; the experiment goes on without it",
         token);
    return NotifyOutcome::failed;
}

void Notifier::warn(const std::string& text, const std::string& token) noexcept {
    try {
        if (warn_)
            warn_(redact(text, token));
    } catch (...) {
        // A warning that cannot be written must not stop the experiment either.
    }
}

} // namespace bootbench::sys
