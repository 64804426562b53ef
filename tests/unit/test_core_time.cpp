#include "catch.hpp"
#include "run_builder.hpp"
#include "core/report/report.hpp"
#include "core/base/time.hpp"

using namespace bootbench::core;

namespace {

// A run of `target` whose bench "pipe" ran twice (2 s) with latencies `lat`.
RunResult timed_run(const std::string& id, const std::string& target, const std::string& started, double lat) {
    RunResult r = bootbench::test::run_of(id, target, started);
    r.metrics.push_back({"lat", lat, "ms", Better::lower, "pipe", {lat, lat + 1}});
    BenchRecord b;
    b.name = "pipe";
    b.wall_s = 2;
    b.iterations = 2;
    r.benches.push_back(b);
    return r;
}

// The night of 2026-10-25 in Europe/Berlin: at 03:00+02:00 the clock goes
// back to 02:00+01:00. Runs every 62 s across it, a then b.
ReportInput fall_back_night() {
    ReportInput in;
    in.baseline = "a";
    const char* stamps[] = {"2026-10-25T02:56:54+02:00", "2026-10-25T02:57:56+02:00", "2026-10-25T02:58:58+02:00",
                            "2026-10-25T02:00:00+01:00", "2026-10-25T02:01:02+01:00", "2026-10-25T02:02:04+01:00"};
    for (int i = 0; i < 6; ++i) {
        std::string target = i % 2 ? "b" : "a";
        in.runs.push_back(timed_run(target + "-" + std::to_string(i / 2 + 1), target, stamps[i], 10.0 + i));
    }
    return in;
}

} // namespace

TEST_CASE("time: ISO 8601 with an offset is seconds since the epoch and the writer's clock", "[time]") {
    auto summer = parse_instant("2026-10-25T02:30:00+02:00"), winter = parse_instant("2026-10-25T02:10:00+01:00");
    REQUIRE(summer);
    REQUIRE(winter);
    CHECK(summer->epoch_s == 1792888200);
    CHECK(winter->epoch_s == 1792890600); // later, though its text sorts first
    CHECK(summer->utc_offset_s == 7200);
    CHECK(winter->local_second_of_day() == 2 * 3600 + 10 * 60);
    CHECK(parse_instant("1970-01-01T01:00:00+01:00")->epoch_s == 0);
    CHECK(parse_instant("2026-10-25T00:10:00.250Z")->epoch_s == 1792887000);
    CHECK(parse_instant("1969-12-31T23:00:00-02:00")->local_second_of_day() == 23 * 3600);
    CHECK_FALSE(parse_instant("yesterday"));
    CHECK_FALSE(parse_instant("2026-10-25T02:30:00")); // no offset: not a moment
    CHECK_FALSE(parse_instant("2026-13-25T02:30:00Z"));
    CHECK_FALSE(parse_instant("2026-06-16"));
    CHECK(compare_instants("2026-10-25T02:30:00+02:00", "2026-10-25T02:10:00+01:00") < 0);
    CHECK(compare_instants("2026-06-16", "2026-06-17") < 0); // dates only: as text
}

TEST_CASE("report: runs across a DST fall-back are in the order they ran", "[time][report]") {
    Report r = build_report(fall_back_night());
    CHECK(r.find_target("a")->runs == std::vector<std::string>{"a-1", "a-2", "a-3"});
    CHECK(r.find_target("b")->runs == std::vector<std::string>{"b-1", "b-2", "b-3"});
    CHECK(r.metrics[0].targets[0].samples[0].run == "a-1");
}

TEST_CASE("report: the boot cost across a DST fall-back is measured, not negative", "[time][report]") {
    ReportInput in = fall_back_night();
    in.runs = {in.runs[2], in.runs[3]}; // a-2 at 02:58:58+02:00, then b-2 at 02:00:00+01:00
    Report r = build_report(in);
    CHECK(r.boot_cost.measured);
    CHECK(r.boot_cost.seconds == 60); // 62 s apart, minus a-2's 2 s of benches
}

// The one writer: what RealClock and `status --json` write, read back by the
// one reader as the same moment.
TEST_CASE("format_instant writes what parse_instant reads back") {
    CHECK(format_instant({0, 0}) == "1970-01-01T00:00:00+00:00");
    CHECK(format_instant({1792887000, 3600}) == "2026-10-25T01:10:00+01:00");
    CHECK(format_instant({1792887000, -9000}) == "2026-10-24T21:40:00-02:30");
    CHECK(format_instant({-3600, -7200}) == "1969-12-31T21:00:00-02:00");
    for (const char* text : {"2024-02-29T23:59:59+05:30", "2026-10-25T02:30:00+02:00", "2026-10-25T02:10:00+01:00",
                             "1999-12-31T23:59:59-11:00", "2000-03-01T00:00:00+00:00"}) {
        auto t = parse_instant(text);
        REQUIRE(t);
        CHECK(format_instant(*t) == text);
    }
    CHECK(format_instant(*parse_instant("2026-10-25T00:10:00.250Z")) == "2026-10-25T00:10:00+00:00");
}

TEST_CASE("parse_instant refuses what is not a moment") {
    for (const char* text : {"", "2026-10-25T02:30:00", "2026-10-25 02:30:00+01:00", "2026-02-30T02:30:00+25:00",
                             "2026-10-25T24:00:00Z", "2026-10-25T02:60:00Z", "2026-00-25T02:30:00Z",
                             "2026-10-25T02:30:00+0100", "2026-10-25T02:30:00 +01:00"})
        CHECK_FALSE(parse_instant(text));
}
