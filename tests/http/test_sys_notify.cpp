#include "catch.hpp"
#include "core/base/error.hpp"
#include "loopback_server.hpp"
#include "sys/net/notify.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace bootbench;
using namespace bootbench::sys;
using bootbench::core::NotifyEvent;
using bootbench::test::loopback;

namespace {

const std::string kToken = "tk_S3cr3t-9f8e7d6c5b4a";

// Bounds small enough for tests, in the same shape as production's.
const NotifyBounds kFast{1.5, 0.5, 0.3, 0.1, 0.4};

// How late past its bound a send() may return on a loaded machine. A send
// that ignored its bounds would take far longer: the dead socket never
// answers, the slow server takes 5 s, failed attempts would go on retrying.
constexpr double kLateS = 3;

struct Fixture {
    RealClock clock;
    CurlHttpClient http;
    std::vector<std::string> warnings;
    std::filesystem::path dir;

    Fixture() {
        char tmpl[] = "/tmp/bootbench-notify-XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        dir = tmpl;
    }
    ~Fixture() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    std::string token_file(const std::string& content) {
        std::ofstream(dir / "token") << content;
        return (dir / "token").string();
    }

    core::Notify config(const std::string& path, const std::string& format = "text") {
        core::Notify n;
        n.url = loopback().base() + path;
        n.format = format;
        n.on = {"start", "run", "finish", "failure"};
        n.token_file = token_file(kToken + "\n");
        return n;
    }

    Notifier notifier(const core::Notify& n, NotifyBounds bounds = kFast) {
        return Notifier(
            n, "exp", http, clock, [this](const std::string& w) { warnings.push_back(w); }, bounds);
    }

    bool token_leaked() const {
        for (const auto& w : warnings)
            if (w.find(kToken) != std::string::npos || w.find("S3cr3t") != std::string::npos)
                return true;
        return false;
    }
};

} // namespace

TEST_CASE_METHOD(Fixture, "an ntfy-style notification: plain text, Title, Tags, Bearer token",
                 "[notify]") {
    Notifier n = notifier(config("/notify/plain"));
    CHECK(n.send(NotifyEvent::failure, "bootbench: exp FAILED\r\nX-Evil: 1",
                 "run 3/8 failed\nlogs: /x") == NotifyOutcome::sent);
    auto seen = loopback().requests("/notify/plain");
    REQUIRE(seen.size() == 1);
    const auto& h = seen[0]["headers"];
    CHECK(seen[0]["method"] == "POST");
    CHECK(seen[0]["body"] == "run 3/8 failed\nlogs: /x");
    CHECK(h["Title"] == "bootbench: exp FAILED  X-Evil: 1"); // a line break cannot end the header
    CHECK_FALSE(h.contains("X-Evil"));
    CHECK(h["Tags"] == "bootbench,warning");
    CHECK(h["Priority"] == "high");
    CHECK(h["Authorization"] == "Bearer " + kToken); // trimmed: the file ends in a newline
    CHECK(h["Content-Type"] == "text/plain; charset=utf-8");
    CHECK(warnings.empty());
}

TEST_CASE_METHOD(Fixture, "a JSON webhook notification", "[notify]") {
    core::Notify cfg = config("/notify/json", "json");
    cfg.token_file.clear();
    Notifier n = notifier(cfg);
    core::NotifyFacts facts;
    facts.event = NotifyEvent::run;
    facts.experiment = "exp";
    facts.run_k = 1;
    facts.run_n = 2;
    facts.headlines = {{"pipe", 5.5, "us"}};
    CHECK(n.send(facts) == NotifyOutcome::sent);
    auto seen = loopback().requests("/notify/json");
    REQUIRE(seen.size() == 1);
    CHECK(seen[0]["headers"]["Content-Type"] == "application/json");
    CHECK_FALSE(seen[0]["headers"].contains("Authorization"));
    auto body = nlohmann::json::parse(seen[0]["body"].get<std::string>());
    CHECK(body == nlohmann::json{{"experiment", "exp"},
                                 {"event", "run"},
                                 {"title", "bootbench: exp run 1/2 done"},
                                 {"message", "exp: run 1/2 done\npipe 5.5 us"}});
}

TEST_CASE_METHOD(Fixture, "events not listed in on = [...] are not sent", "[notify]") {
    core::Notify cfg = config("/notify/filtered");
    cfg.on = {"finish"};
    Notifier n = notifier(cfg);
    CHECK(n.send(NotifyEvent::run, "t", "m") == NotifyOutcome::not_wanted);
    CHECK(loopback().requests("/notify/filtered").empty());
    CHECK(n.send(NotifyEvent::finish, "t", "m") == NotifyOutcome::sent);
    CHECK(loopback().requests("/notify/filtered").size() == 1);
}

TEST_CASE_METHOD(Fixture, "the token can come from an environment variable", "[notify]") {
    core::Notify cfg = config("/notify/env");
    cfg.token_file.clear();
    cfg.token_env = "BOOTBENCH_TEST_NOTIFY_TOKEN";
    ::setenv("BOOTBENCH_TEST_NOTIFY_TOKEN", (" " + kToken + " ").c_str(), 1);
    Notifier n = notifier(cfg);
    CHECK(n.send(NotifyEvent::start, "t", "m") == NotifyOutcome::sent);
    ::unsetenv("BOOTBENCH_TEST_NOTIFY_TOKEN");
    CHECK(loopback().requests("/notify/env").at(0)["headers"]["Authorization"] ==
          "Bearer " + kToken);

    CHECK(n.send(NotifyEvent::start, "t", "m") == NotifyOutcome::failed);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] ==
          "notification 'start' not sent: notify.token_env: the environment variable "
          "BOOTBENCH_TEST_NOTIFY_TOKEN is not set or empty (a systemd unit sees only its own "
          "Environment=); the experiment goes on without it");
    CHECK(loopback().requests("/notify/env").size() == 1);
}

TEST_CASE_METHOD(Fixture, "an unreadable, empty or two-line token file is a warning, not a crash",
                 "[notify]") {
    core::Notify cfg = config("/notify/badtoken");
    cfg.token_file = (dir / "missing").string();
    CHECK(notifier(cfg).send(NotifyEvent::run, "t", "m") == NotifyOutcome::failed);
    cfg.token_file = token_file("  \n");
    CHECK(notifier(cfg).send(NotifyEvent::run, "t", "m") == NotifyOutcome::failed);
    cfg.token_file = token_file(kToken + "\nsecond-line");
    CHECK(notifier(cfg).send(NotifyEvent::run, "t", "m") == NotifyOutcome::failed);
    REQUIRE(warnings.size() == 3);
    CHECK(warnings[0] == "notification 'run' not sent: notify.token_file: cannot read " +
                             (dir / "missing").string() +
                             ": No such file or directory; the experiment goes on without it");
    CHECK(warnings[1] == "notification 'run' not sent: notify.token_file " + cfg.token_file +
                             " is empty; the experiment goes on without it");
    CHECK(warnings[2] ==
          "notification 'run' not sent: the notify token (" + cfg.token_file +
              ") has a line break inside: it must be one line; the experiment goes on without it");
    CHECK_FALSE(token_leaked());
    CHECK(loopback().requests("/notify/badtoken").empty());
}

TEST_CASE_METHOD(Fixture, "a flaky server is retried with backoff until it answers", "[notify]") {
    Notifier n = notifier(config("/notify-flaky/t1?fails=2"));
    CHECK(n.send(NotifyEvent::run, "t", "m") == NotifyOutcome::sent);
    CHECK(loopback().requests("/notify-flaky/t1").size() == 3);
    CHECK(warnings.empty());
}

TEST_CASE_METHOD(Fixture, "a permanent refusal (404) is not retried", "[notify]") {
    Notifier n = notifier(config("/notify-404/t"));
    CHECK(n.send(NotifyEvent::run, "t", "m") == NotifyOutcome::failed);
    CHECK(loopback().requests("/notify-404/t").size() == 1);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].rfind("notification 'run' to " + loopback().base() +
                                "/notify-404/t not sent (1 attempt in ",
                            0) == 0);
    CHECK(warnings[0].ends_with("): HTTP 404: no such topic; the experiment goes on without it"));
}

TEST_CASE_METHOD(Fixture, "a failing server (500) is retried within the bound, then given up",
                 "[notify]") {
    Notifier n = notifier(config("/notify-fail/t"));
    double start = clock.monotonic_s();
    CHECK(n.send(NotifyEvent::finish, "t", "m") == NotifyOutcome::failed);
    CHECK(clock.monotonic_s() - start < kFast.total_s + kLateS);
    size_t attempts = loopback().requests("/notify-fail/t").size();
    CHECK(attempts >= 3);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("not sent (" + std::to_string(attempts) + " attempts in ") !=
          std::string::npos);
    CHECK(warnings[0].ends_with("): HTTP 500: server error; the experiment goes on without it"));
}

TEST_CASE_METHOD(Fixture, "a notification that times out while the run goes on", "[notify]") {
    // Three runs of an experiment whose notification server never answers
    // (a dead socket) or answers too late: every run still happens, each
    // send() returns within its bound, and each leaves one warning.
    for (const std::string& base :
         {loopback().dead_base() + "/notify/x", loopback().base() + "/notify-slow/x"}) {
        warnings.clear();
        core::Notify cfg = config("");
        cfg.url = base;
        Notifier n = notifier(cfg, NotifyBounds{1.0, 0.4, 0.4, 0.1, 0.2});
        std::vector<int> runs_done;
        double start = clock.monotonic_s();
        for (int run = 1; run <= 3; ++run) {
            double before = clock.monotonic_s();
            CHECK(n.send(NotifyEvent::run, "run", "run " + std::to_string(run)) ==
                  NotifyOutcome::failed);
            CHECK(clock.monotonic_s() - before < 1.0 + kLateS);
            runs_done.push_back(run);
        }
        CHECK(runs_done == std::vector<int>{1, 2, 3});
        CHECK(clock.monotonic_s() - start < 3 * (1.0 + kLateS));
        REQUIRE(warnings.size() == 3);
        CHECK(warnings[0].find("Timeout was reached") != std::string::npos);
        CHECK(warnings[0].ends_with("; the experiment goes on without it"));
    }
}

TEST_CASE_METHOD(Fixture, "with the network down, attempts back off until the bound", "[notify]") {
    core::Notify cfg = config("");
    cfg.url = loopback().closed_base() + "/notify/x";
    Notifier n = notifier(cfg, NotifyBounds{1.0, 0.5, 0.5, 0.1, 0.2});
    double start = clock.monotonic_s();
    CHECK(n.send(NotifyEvent::start, "t", "m") == NotifyOutcome::failed);
    double took = clock.monotonic_s() - start;
    CHECK(took < 1.0 + kLateS);
    CHECK(took > 0.6); // it waited for the network, not gave up at once
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].rfind("notification 'start' to " + cfg.url + " not sent (", 0) == 0);
    CHECK(warnings[0].find("Couldn't connect to server") != std::string::npos);
}

TEST_CASE_METHOD(Fixture, "the token never appears in a warning, even when the server echoes it",
                 "[notify]") {
    core::Notify cfg = config("/notify-echo-auth/t");
    Notifier n = notifier(cfg);
    CHECK(n.send(NotifyEvent::failure, "t", "m") == NotifyOutcome::failed);
    REQUIRE(loopback().requests("/notify-echo-auth/t").at(0)["headers"]["Authorization"] ==
            "Bearer " + kToken);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].ends_with(
        "): HTTP 401: unauthorized: Bearer [redacted]; the experiment goes on without it"));

    cfg.url = loopback().closed_base() + "/notify/x?auth=" + kToken; // a token in the URL, too
    Notifier to_down = notifier(cfg, NotifyBounds{0.3, 0.2, 0.2, 0.1, 0.1});
    CHECK(to_down.send(NotifyEvent::failure, "t", "m") == NotifyOutcome::failed);
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[1].find("/notify/x?auth=[redacted] not sent") != std::string::npos);
    CHECK_FALSE(token_leaked());
}

// The bypasses: the answer cut before redaction, a TAB turned into
// a space before redaction, an echo in another encoding.
TEST_CASE_METHOD(Fixture, "an echo after padding is redacted before the answer is cut",
                 "[notify]") {
    core::Notify cfg = config("/notify-echo-auth/t?status=403&pad=160");
    Notifier n = notifier(cfg);
    CHECK(n.send(NotifyEvent::failure, "t", "m") == NotifyOutcome::failed);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].ends_with("): HTTP 403: " + std::string(160, '.') +
                                "unauthorized: Bearer [redacted]; the experiment goes on without it"));
    CHECK_FALSE(token_leaked());
}

TEST_CASE_METHOD(Fixture, "a long answer is cut after redaction and says so", "[notify]") {
    core::Notify cfg = config("/notify-echo-auth/t?status=403&pad=300");
    Notifier n = notifier(cfg);
    CHECK(n.send(NotifyEvent::failure, "t", "m") == NotifyOutcome::failed);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].ends_with("): HTTP 403: " + std::string(200, '.') +
                                " [... 131 more bytes of the answer cut]; the experiment goes on "
                                "without it"));
}

TEST_CASE_METHOD(Fixture, "a token with a TAB inside is redacted, raw or JSON-escaped",
                 "[notify]") {
    core::Notify cfg = config("/notify-echo-auth/t");
    cfg.token_file = token_file("tk_S3cr3t\t9f8e7d6c5b4a\n");
    Notifier raw = notifier(cfg);
    CHECK(raw.send(NotifyEvent::failure, "t", "m") == NotifyOutcome::failed);
    cfg.url += "?encode=json";
    Notifier json = notifier(cfg);
    CHECK(json.send(NotifyEvent::failure, "t", "m") == NotifyOutcome::failed);
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].ends_with(
        "): HTTP 401: unauthorized: Bearer [redacted]; the experiment goes on without it"));
    CHECK(warnings[1].ends_with(
        "): HTTP 401: unauthorized: {\"auth\": \"Bearer [redacted]\"}; the experiment goes on "
        "without it"));
    CHECK_FALSE(token_leaked());
}

TEST_CASE_METHOD(Fixture, "a URL-encoded echo of the token is redacted", "[notify]") {
    core::Notify cfg = config("/notify-echo-auth/t?encode=url");
    cfg.token_file = token_file("tk/S3cr3t+9f8e7d6c5b4a==\n");
    Notifier n = notifier(cfg);
    CHECK(n.send(NotifyEvent::failure, "t", "m") == NotifyOutcome::failed);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].ends_with(
        "): HTTP 401: unauthorized: Bearer%20[redacted]; the experiment goes on without it"));
    CHECK_FALSE(token_leaked());
}

TEST_CASE("redact replaces every occurrence", "[notify]") {
    CHECK(redact("a tok b tok", "tok") == "a [redacted] b [redacted]");
    CHECK(redact("nothing", "") == "nothing");
}
