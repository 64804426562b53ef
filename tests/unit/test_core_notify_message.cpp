#include "catch.hpp"
#include "core/report/notify_message.hpp"

#include <cmath>
#include <string>

using namespace bootbench::core;

namespace {

NotifyFacts run_facts() {
    NotifyFacts f;
    f.event = NotifyEvent::run;
    f.experiment = "margine-vs-bluefin";
    f.run_k = 3;
    f.run_n = 8;
    f.run_id = "bluefin-dx-2";
    f.target = "bluefin-dx";
    f.logs = "/var/lib/bootbench/margine-vs-bluefin/runs/bluefin-dx-2";
    return f;
}

} // namespace

TEST_CASE("events by name, and the ones [notify] asks for", "[notify]") {
    CHECK(notify_event_from_string("failure") == NotifyEvent::failure);
    CHECK_FALSE(notify_event_from_string("done").has_value());
    CHECK(std::string(to_string(NotifyEvent::finish)) == "finish");
    Notify n;
    n.on = {"finish", "failure"};
    CHECK(notify_wants(n, NotifyEvent::failure));
    CHECK_FALSE(notify_wants(n, NotifyEvent::run));
}

TEST_CASE("numbers are short and never in exponent form below 1e-4", "[notify]") {
    CHECK(format_number(5.12345) == "5.123");
    CHECK(format_number(1234.4) == "1234");
    CHECK(format_number(12345.6) == "12346");
    CHECK(format_number(-2.5) == "-2.5");
    CHECK(format_number(0.001234) == "0.001234");
    CHECK(format_number(NAN) == "nan");
}

TEST_CASE("a run message names the run, its numbers and its logs", "[notify]") {
    NotifyFacts f = run_facts();
    f.headlines = {
        {"pipe_usec_per_op", 5.12345, "us"}, {"messaging_s", 12.0, "s"}, {"events", 3, ""}};
    NotifyText t = format_notification(f);
    CHECK(t.title == "bootbench: margine-vs-bluefin run 3/8 done");
    CHECK(t.message == "margine-vs-bluefin: run 3/8 (bluefin-dx-2, target bluefin-dx) done\n"
                       "pipe_usec_per_op 5.123 us\nmessaging_s 12 s\nevents 3\n"
                       "logs: /var/lib/bootbench/margine-vs-bluefin/runs/bluefin-dx-2");
}

TEST_CASE("a run message shows at most a few headline numbers", "[notify]") {
    NotifyFacts f = run_facts();
    f.logs.clear();
    for (int i = 0; i < 9; ++i)
        f.headlines.push_back({"m" + std::to_string(i), static_cast<double>(i), "u"});
    NotifyText t = format_notification(f);
    CHECK(t.message.find("m5 5 u\n(3 more metrics in the result)") != std::string::npos);
    CHECK(t.message.find("m6") == std::string::npos);
    CHECK(t.message.find("logs:") == std::string::npos);
}

TEST_CASE("a failure message says what failed and where the logs are", "[notify]") {
    NotifyFacts f = run_facts();
    f.event = NotifyEvent::failure;
    f.failure = "the expected deployment os/aaaa.0 did not boot in 3 attempts";
    NotifyText t = format_notification(f);
    CHECK(t.title == "bootbench: margine-vs-bluefin FAILED at run 3/8");
    CHECK(t.message ==
          "margine-vs-bluefin: run 3/8 (bluefin-dx-2, target bluefin-dx) failed: the expected "
          "deployment os/aaaa.0 did not boot in 3 attempts\n"
          "logs: /var/lib/bootbench/margine-vs-bluefin/runs/bluefin-dx-2");

    NotifyFacts whole;
    whole.event = NotifyEvent::failure;
    whole.experiment = "x";
    NotifyText w = format_notification(whole);
    CHECK(w.title == "bootbench: x FAILED");
    CHECK(w.message == "x: failed: no reason recorded");
}

TEST_CASE("a long failure is cut without splitting a UTF-8 character", "[notify]") {
    NotifyFacts f = run_facts();
    f.event = NotifyEvent::failure;
    f.logs.clear();
    f.failure = std::string(kMaxFailureChars - 1, 'x') + "\xC3\xA9" + std::string(500, 'y');
    NotifyText t = format_notification(f);
    std::string expected_tail = std::string(kMaxFailureChars - 1, 'x') + "...";
    CHECK(t.message.size() < 400);
    CHECK(t.message.substr(t.message.size() - expected_tail.size()) == expected_tail);
}

TEST_CASE("start and finish messages", "[notify]") {
    NotifyFacts s;
    s.event = NotifyEvent::start;
    s.experiment = "e";
    s.run_n = 8;
    s.targets = {"a", "b"};
    s.logs = "/var/lib/bootbench/e";
    NotifyText t = format_notification(s);
    CHECK(t.title == "bootbench: e started");
    CHECK(t.message == "e: started, 8 runs of a, b\nlogs: /var/lib/bootbench/e");

    NotifyFacts f;
    f.event = NotifyEvent::finish;
    f.experiment = "e";
    f.run_n = 8;
    f.done = 7;
    f.failed = 1;
    f.report = "/var/lib/bootbench/e/report.html";
    t = format_notification(f);
    CHECK(t.title == "bootbench: e finished");
    CHECK(t.message ==
          "e: finished, 7 of 8 runs measured, 1 failed\nreport: /var/lib/bootbench/e/report.html");
}

TEST_CASE("no message is longer than ntfy's limit", "[notify]") {
    NotifyFacts f = run_facts();
    f.logs = std::string(10000, 'l');
    CHECK(format_notification(f).message.size() <= kMaxMessageBytes + 3);
}
