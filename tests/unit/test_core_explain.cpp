// Issue 31 section 3: the likely explanations of a metric's change, ranked
// on fake comparisons between a control `a` and a subject `b`.
#include "catch.hpp"
#include "core/report/explain.hpp"

using namespace bootbench::core;

namespace {

MetricMove move(const std::string& metric, BenchKind kind, const std::string& bench, double ratio) {
    MetricMove m;
    m.metric = metric;
    m.kind = kind;
    m.bench = bench;
    m.ratio = ratio;
    m.control = "a";
    m.subject = "b";
    return m;
}

MetricMove threads(double ratio) {
    return move("sysbench_events", BenchKind::sysbench_threads, "threads", ratio);
}

MetricMove pipe(double ratio) {
    return move("sched_pipe_usecs_op", BenchKind::perf_sched_pipe, "pipe", ratio);
}

ArmFact fact(FactKind kind, const std::string& name, const std::string& control,
             const std::string& subject, bool varies = false) {
    return ArmFact{kind, name, control, subject, varies};
}

ArmFact kernel() {
    return fact(FactKind::kernel_version, "kernel", "6.1.0-1", "6.2.0-1");
}

ArmFact unit_in_b(const std::string& name, bool varies = false) {
    return fact(FactKind::unit_enabled, name, "", "etc: multi-user.target.wants", varies);
}

std::vector<std::string> whats(const std::vector<Explanation>& es) {
    std::vector<std::string> out;
    for (const auto& e : es)
        out.push_back(e.what);
    return out;
}

} // namespace

TEST_CASE(
    "explain: a busy service ranks first for a CPU-bound bench, above a kernel version change") {
    std::vector<ArmFact> facts = {kernel(), unit_in_b("busy.service"),
                                  fact(FactKind::package, "busy", "", "1.0-1")};
    auto es = explain(threads(0.6), facts, {});
    REQUIRE(es.size() == 2);
    CHECK(es[0].what == "busy.service enabled in b only (package busy: 1.0-1 in b only)");
    CHECK(es[0].why == "a unit enabled only in b runs beside the bench and takes CPU time from it");
    CHECK(es[0].score == Approx(1.0));
    CHECK(es[1].what == "kernel: 6.1.0-1 in a, 6.2.0-1 in b");
    CHECK(es[1].why == "another kernel changes most code paths the bench runs through (a weak, "
                       "generic explanation)");
    CHECK(es[1].score == Approx(0.3));
}

TEST_CASE("explain: an extra unit in the target that got faster explains nothing") {
    // b got worse, but the unit runs in a: it would have made a slower.
    ArmFact in_a = fact(FactKind::unit_enabled, "busy.service", "etc: multi-user.target.wants", "");
    CHECK(whats(explain(threads(0.6), {in_a, kernel()}, {})) ==
          std::vector<std::string>{"kernel: 6.1.0-1 in a, 6.2.0-1 in b"});
    // b got better: the same unit now explains it.
    auto es = explain(threads(1.4), {in_a}, {});
    REQUIRE(es.size() == 1);
    CHECK(es[0].why == "a unit enabled only in a runs beside the bench and takes CPU time from it");
}

// Its vulnerabilities' lines are the same cause: one explanation.
TEST_CASE("explain: mitigations=off ranks first for perf-sched-pipe") {
    std::vector<ArmFact> facts = {
        kernel(),
        unit_in_b("busy.service"),
        fact(FactKind::sysctl, "vm.swappiness", "60", "10"),
        fact(FactKind::kernel_arg, "mitigations", "mitigations=off", ""),
        fact(FactKind::mitigation, "spectre_v2", "Vulnerable", "Mitigation: Retpolines"),
    };
    auto es = explain(pipe(0.55), facts, {});
    CHECK(whats(es) ==
          std::vector<std::string>{
              "mitigations=off in a only; spectre_v2: Vulnerable in a, Mitigation: Retpolines in b",
              "busy.service enabled in b only", "kernel: 6.1.0-1 in a, 6.2.0-1 in b"});
    REQUIRE(!es.empty());
    CHECK(es[0].why == "the mitigations of CPU vulnerabilities (page-table isolation, branch and "
                       "return barriers, buffer clearing) cost time at every syscall and context "
                       "switch, which this bench does in a tight loop");
}

TEST_CASE("explain: mitigations turned off in the target that got slower explain nothing") {
    auto es =
        explain(pipe(0.55), {fact(FactKind::kernel_arg, "mitigations", "", "mitigations=off")}, {});
    CHECK(es.empty());
}

TEST_CASE("explain: a counter moving with the metric lifts its explanation, against it not") {
    // the pipe got slower in b: the power profile (0.8) or the tick (0.7)
    std::vector<ArmFact> facts = {
        fact(FactKind::power_profile, "power profile", "performance", "balanced"),
        fact(FactKind::kernel_config, "CONFIG_HZ", "1000", "250")};
    auto alone = explain(pipe(0.7), facts, {});
    REQUIRE(alone.size() == 2);
    CHECK(alone[0].what == "power profile: performance in a, balanced in b");
    CHECK(alone[1].score == Approx(0.7));

    auto with = explain(pipe(0.7), facts, {{"context-switches", 1.5, true}, {"ipc", 0.9, true}});
    REQUIRE(with.size() == 2);
    CHECK(with[0].what == "CONFIG_HZ: 1000 in a, 250 in b");
    CHECK(with[0].score == Approx(1.05));
    CHECK(with[0].evidence == std::vector<std::string>{"context-switches 1.50x in b"});
    CHECK(explanation_line(with[0]) ==
          "CONFIG_HZ: 1000 in a, 250 in b: the tick rate and the preemption model "
          "decide how soon a woken task preempts a running one (moved with it: "
          "context-switches 1.50x in b)");

    SECTION("against the metric, unclear, or far smaller than its move: no lift") {
        for (CounterMove c : {CounterMove{"context-switches", 0.67, true},
                              CounterMove{"context-switches", 1.5, false},
                              CounterMove{"context-switches", 1.02, true}}) {
            auto es = explain(pipe(0.7), facts, {c});
            REQUIRE(es.size() == 2);
            CHECK(es[0].what == "power profile: performance in a, balanced in b");
            CHECK(es[1].score == Approx(0.7));
            CHECK(es[1].evidence.empty());
        }
    }
    SECTION("when the metric got better, a counter that went down moves with it") {
        auto es = explain(pipe(1.4), {facts[1]},
                          {{"context-switches", 0.6, true}, {"cpu-migrations", 0.5, true}});
        REQUIRE(es.size() == 1);
        CHECK(es[0].evidence ==
              std::vector<std::string>{"context-switches 0.60x in b", "cpu-migrations 0.50x in b"});
        CHECK(es[0].score == Approx(1.4));
    }
}

TEST_CASE("explain: nothing explains it, said plainly") {
    MetricMove build = move("wall_s", BenchKind::command, "build", 0.8);
    std::vector<ArmFact> facts = {fact(FactKind::sysctl, "vm.swappiness", "60", "10"),
                                  fact(FactKind::kernel_arg, "quiet", "quiet", ""),
                                  fact(FactKind::package, "vim", "9.0-1", "9.1-1"),
                                  fact(FactKind::kernel_version, "kernel", "6.1.0-1", "6.1.0-1")};
    CHECK(explain(build, facts, {{"context-switches", 3, true}}).empty());
    CHECK(nothing_explains(build) ==
          "Nothing that differs between a and b is known to move wall_s (build), 1.25x "
          "worse in b.");
    CHECK(nothing_explains(threads(1.3)) ==
          "Nothing that differs between a and b is known to move sysbench_events "
          "(threads), 1.30x better in b.");
}

TEST_CASE("explain: a metric that did not change gets no explanation") {
    std::vector<ArmFact> facts = {unit_in_b("busy.service"), kernel()};
    CHECK(explain(threads(1.002), facts, {}).empty());
    CHECK(explain(threads(0.0), facts, {}).empty());
    MetricMove straddles = threads(0.9);
    straddles.ci = Interval{0.8, 1.05};
    CHECK(explain(straddles, facts, {}).empty());
    CHECK(nothing_explains(threads(1.002)) ==
          "sysbench_events (threads) did not change between a and b: nothing "
          "to explain.");
}

TEST_CASE("explain: a difference that varies within a target ranks below a steady one") {
    std::vector<ArmFact> facts = {unit_in_b("flaky.service", true), unit_in_b("busy.service")};
    auto es = explain(threads(0.6), facts, {});
    CHECK(whats(es) ==
          std::vector<std::string>{"busy.service enabled in b only",
                                   "flaky.service enabled in b only (varies within a target)"});
    REQUIRE(es.size() == 2);
    CHECK(es[1].score == Approx(0.5));
}

TEST_CASE("explain: at most three, and one topic's many differences are one explanation") {
    std::vector<ArmFact> facts = {kernel()};
    for (const char* u : {"u1.service", "u2.service", "u3.service", "u4.service"})
        facts.push_back(unit_in_b(u));
    CHECK(whats(explain(threads(0.6), facts, {})) ==
          std::vector<std::string>{"u1.service enabled in b only", "u2.service enabled in b only",
                                   "u3.service enabled in b only"});

    std::vector<ArmFact> lines;
    for (const char* v : {"spectre_v1", "spectre_v2", "mds", "retbleed", "srbds"})
        lines.push_back(fact(FactKind::mitigation, v, "Mitigation: x", "Vulnerable"));
    auto es = explain(pipe(1.3), lines, {});
    REQUIRE(es.size() == 1);
    CHECK(es[0].what ==
          "spectre_v1: Mitigation: x in a, Vulnerable in b; spectre_v2: Mitigation: x in a, "
          "Vulnerable in b; mds: Mitigation: x in a, Vulnerable in b; and 2 more of the kind");
}

TEST_CASE("explain: the system's metrics by their key, whatever the kind says") {
    auto boot = explain(move("boot_total_s", BenchKind::command, "", 0.8),
                        {unit_in_b("busy.service"), kernel()}, {});
    REQUIRE(boot.size() == 2);
    CHECK(boot[0].why == "a unit enabled only in b starts at every boot and adds to its time");
    CHECK(boot[1].why == "another kernel boots differently: its drivers, modules and initrd");
    auto mem = explain(move("mem_used_mib", BenchKind::sysbench_threads, "", 0.8),
                       {fact(FactKind::thp, "transparent_hugepage/enabled", "madvise", "always"),
                        fact(FactKind::package, "sysbench", "1.0.20-1", "1.0.20-2")},
                       {{"page-faults", 0.5, true}});
    REQUIRE(mem.size() == 1);
    CHECK(
        mem[0].why ==
        "transparent huge pages change how much memory processes map and how their page faults are "
        "served");
    CHECK(mem[0].evidence.empty()); // fewer faults go with less memory, not more
}

TEST_CASE("explain: a package explains a bench only when it is the bench's program or glibc") {
    std::vector<ArmFact> facts = {fact(FactKind::package, "vim", "9.0-1", "9.1-1"),
                                  fact(FactKind::package, "linux-perf", "6.1-1", "6.2-1"),
                                  fact(FactKind::package, "sysbench", "1.0.20-1", "1.0.20-2")};
    auto es = explain(pipe(0.8), facts, {{"instructions", 1.3, true}});
    REQUIRE(es.size() == 1);
    CHECK(es[0].what == "linux-perf: 6.1-1 in a, 6.2-1 in b");
    CHECK(es[0].why == "it is the bench's own program or the C library it calls");
    CHECK(es[0].evidence == std::vector<std::string>{"instructions 1.30x in b"});
    CHECK(whats(explain(threads(0.8), facts, {})) ==
          std::vector<std::string>{"sysbench: 1.0.20-1 in a, 1.0.20-2 in b"});
    CHECK(whats(explain(move("wall_s", BenchKind::command, "build", 0.8),
                        {fact(FactKind::package, "glibc", "2.39-1", "2.40-1")}, {})) ==
          std::vector<std::string>{"glibc: 2.39-1 in a, 2.40-1 in b"});
}
