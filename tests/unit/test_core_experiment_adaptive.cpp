// [experiment] runs = { min, max }, until, precision, primary: what parses,
// and the message for each mistake.
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/experiment/experiment.hpp"
#include "experiment_text.hpp"

#include <cstdio>
#include <string>

using namespace bootbench;
using namespace bootbench::core;

namespace {

using bootbench::test::replace;

// The shared file (experiment_text.hpp) as an adaptive night: its lines 3
// and 4 become lines 3 to 7 below, and a second bench follows its first.
const std::string kNight = replace(bootbench::test::kExperiment, "runs = 2\nbaseline = \"a\"\n",
                                   "runs = { min = 6, max = 30 }\n"
                                   "baseline = \"a\"\n"
                                   "until = \"06:30\"\n"
                                   "precision = 0.02\n"
                                   "primary = [\"sched_pipe_usecs_op\", \"sysbench_events\"]\n") +
                           "\n[[bench]]\nkind = \"sysbench-threads\"\n";

constexpr auto error_of = &bootbench::test::experiment_error;

} // namespace

TEST_CASE("an adaptive experiment parses: runs is the max, min and the rule are kept", "[experiment][adaptive]") {
    Experiment e = parse_experiment(kNight, "exp.toml");
    REQUIRE(e.adaptive);
    CHECK(e.runs == 30);
    CHECK(e.adaptive->min_runs == 6);
    CHECK(e.adaptive->until == "06:30");
    CHECK(e.adaptive->until_minutes == 390);
    CHECK(e.adaptive->precision == 0.02);
    CHECK(e.adaptive->primary == std::vector<std::string>{"sched_pipe_usecs_op", "sysbench_events"});
    // an integer still means a fixed count; until alone keeps it, as a max
    Experiment fixed = parse_experiment(
        replace(replace(kNight, "runs = { min = 6, max = 30 }\n", "runs = 4\n"), "precision = 0.02\n", ""), "exp.toml");
    REQUIRE(fixed.adaptive);
    CHECK(fixed.runs == 4);
    CHECK(fixed.adaptive->min_runs == 4);
    // a system metric is a metric every run gives
    CHECK_NOTHROW(parse_experiment(replace(kNight, "\"sysbench_events\"]", "\"mem_used_mib\"]"), "exp.toml"));
}

TEST_CASE("runs as a table: min above max, min below 1, an unknown key, wrong types", "[experiment][adaptive]") {
    CHECK(error_of(replace(kNight, "min = 6, max = 30", "min = 8, max = 6")) ==
          "exp.toml:3:10: experiment.runs.min (8) is more than experiment.runs.max (6)");
    CHECK(error_of(replace(kNight, "min = 6", "min = 0")) ==
          "exp.toml:3:10: experiment.runs.min must be between 1 and 1000 (got 0)");
    CHECK(error_of(replace(kNight, "min = 6, max = 30", "min = 6, max = 30, mean = 9")) ==
          "exp.toml:3:29: unknown key 'mean' in experiment.runs (did you mean 'min'?)");
    CHECK(error_of(replace(kNight, "min = 6", "min = \"6\"")) ==
          "exp.toml:3:10: experiment.runs.min must be a whole number, not a string");
    CHECK(error_of(replace(kNight, "min = 6, ", "")) == "exp.toml:3:8: missing experiment.runs.min");
}

TEST_CASE("until must be a local time HH:MM", "[experiment][adaptive]") {
    CHECK(error_of(replace(kNight, "\"06:30\"", "\"6:30\"")) ==
          "exp.toml:5:1: experiment.until must be a local time HH:MM such as \"06:30\", not \"6:30\"");
    CHECK(error_of(replace(kNight, "\"06:30\"", "\"24:00\"")) ==
          "exp.toml:5:1: experiment.until must be a local time HH:MM such as \"06:30\", not \"24:00\"");
    CHECK(error_of(replace(kNight, "\"06:30\"", "630")) ==
          "exp.toml:5:1: experiment.until must be a string, not an integer");
}

TEST_CASE("precision is a fraction above 0 and below 1, and needs runs = { min, max }", "[experiment][adaptive]") {
    CHECK(error_of(replace(kNight, "0.02", "0")) ==
          "exp.toml:6:1: experiment.precision must be above 0 and below 1 (0.02 is +-2%), got 0");
    CHECK(error_of(replace(kNight, "0.02", "2")) ==
          "exp.toml:6:1: experiment.precision must be above 0 and below 1 (0.02 is +-2%), got 2");
    CHECK(error_of(replace(kNight, "0.02", "\"2%\"")) ==
          "exp.toml:6:1: experiment.precision must be a number, not a string");
    CHECK(error_of(replace(kNight, "runs = { min = 6, max = 30 }", "runs = 30")) ==
          "exp.toml:6:1: experiment.precision needs runs = { min = N, max = M }: with a fixed number of runs "
          "nothing can stop early");
}

TEST_CASE("primary names metrics the benches give", "[experiment][adaptive]") {
    CHECK(error_of(replace(kNight, "\"sysbench_events\"]", "\"schbench_p99_us\"]")) ==
          "exp.toml:7:35: experiment.primary: no bench gives the metric 'schbench_p99_us' (the benches give: "
          "boot_firmware_s, boot_initrd_s, boot_kernel_s, boot_loader_s, boot_total_s, boot_userspace_s, "
          "mem_slab_mib, mem_used_mib, processes, sched_pipe_ops_sec, sched_pipe_usecs_op, sysbench_events, "
          "sysbench_lat_95th_ms, sysbench_lat_avg_ms)");
    // The boot's times are primary metrics only where they are measured.
    CHECK_NOTHROW(parse_experiment(replace(kNight, "\"sysbench_events\"]", "\"boot_total_s\"]"), "exp.toml"));
    CHECK(error_of(replace(kNight, "\"sysbench_events\"]", "\"boot_total_s\"]") + "[boot]\nmeasure = false\n")
              .rfind("exp.toml:7:35: experiment.primary: no bench gives the metric 'boot_total_s' (the benches give: "
                     "mem_slab_mib,",
                     0) == 0);
    CHECK(error_of(replace(kNight, "primary = [\"sched_pipe_usecs_op\", \"sysbench_events\"]", "primary = \"x\"")) ==
          "exp.toml:7:1: experiment.primary must be an array of strings, not a string");
    // a command bench declares its own
    std::string command = replace(replace(kNight, "kind = \"sysbench-threads\"",
                                          "kind = \"command\"\nname = \"mine\"\nargv = [\"x\"]\ntimeout_s = 5\n[[bench.metric]]\nbetter = \"higher\"\n"
                                          "key = \"night_ops\"\nregex = 'v ([0-9]+)'"),
                                  "\"sysbench_events\"]", "\"night_ops\"]");
    CHECK(error_of(command) == "");
    // a per-watt metric of [report] per_watt
    std::string watts = replace(kNight, "\"sysbench_events\"]", "\"sysbench_events_per_watt\"]") +
                        "\n[report]\nper_watt = [\"sysbench_events\"]\n";
    CHECK(error_of(watts) == "");
    CHECK(error_of(replace(kNight, "\"sysbench_events\"]", "\"sysbench_events_per_watt\"]"))
              .find("no bench gives the metric 'sysbench_events_per_watt'") != std::string::npos);
}

TEST_CASE("a blocked order cannot grow one round at a time", "[experiment][adaptive]") {
    CHECK(error_of(replace(kNight, "baseline = \"a\"", "baseline = \"a\"\norder = \"blocked\"")) ==
          "exp.toml:5:1: experiment.order = \"blocked\" cannot grow one round at a time: with runs = { min, max }, "
          "until or precision use \"interleaved\", \"counterbalanced\" or \"random\"");
}

TEST_CASE("configs/overnight.toml is an adaptive experiment", "[experiment][adaptive]") {
    std::string path = std::string(TEST_DATA_DIR) + "/../../configs/overnight.toml";
    FILE* f = std::fopen(path.c_str(), "r");
    REQUIRE(f != nullptr);
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        text.append(buf, n);
    std::fclose(f);
    Experiment e = parse_experiment(text, path);
    REQUIRE(e.adaptive);
    CHECK(e.runs == 30);
    CHECK(e.adaptive->min_runs == 6);
    CHECK(e.adaptive->until == "06:30");
    CHECK(e.adaptive->precision == 0.02);
    CHECK(e.adaptive->primary.size() == 2);
}
