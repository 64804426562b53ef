// The [bisect] table of a bisect file: what parses, and the message for each
// mistake (FILE:LINE:COL, what is wrong and what to write instead).
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/bisect/bisect_config.hpp"
#include "core/stats/stats.hpp"
#include "experiment_text.hpp"

#include <string>

using namespace bootbench;
using namespace bootbench::core;
using bootbench::test::replace;

namespace {

const std::string kBisect = R"([experiment]
name = "which-build"
primary = ["sysbench_events"]

[[bench]]
kind = "sysbench-threads"

[[bench]]
kind = "perf-sched-pipe"

[bisect]
good = { refspec = "fedora:fedora/43/x86_64/silverblue", commit = "3f2a9c" }
bad = { refspec = "fedora:fedora/43/x86_64/silverblue" }
)";

const std::string kImages = R"([experiment]
name = "which-build"

[[bench]]
kind = "sysbench-threads"

[bisect]
good = { image = "ghcr.io/ublue-os/bazzite:stable-20261101" }
bad = { image = "ghcr.io/ublue-os/bazzite:stable-20261130" }
tags = "stable-2026*"
metric = "sysbench_events"
threshold = 0.1
)";

// The message parse_bisect gives for `text` (read as bisect.toml, exit 2),
// or "" when it is valid.
std::string error_of(const std::string& text) {
    try {
        parse_bisect(text, "bisect.toml");
    } catch (const Error& e) {
        CHECK(e.code() == ExitCode::bad_input);
        return e.what();
    }
    return "";
}

// kBisect with `keys` first in its [bisect] table (their line is 12).
std::string with_keys(const std::string& keys) {
    return replace(kBisect, "[bisect]\n", "[bisect]\n" + keys);
}

const std::string kBenches =
    "the benches give: boot_firmware_s, boot_initrd_s, boot_kernel_s, boot_loader_s, "
    "boot_total_s, boot_userspace_s, mem_slab_mib, mem_used_mib, processes, "
    "sched_pipe_ops_sec, sched_pipe_usecs_op, sysbench_events, sysbench_lat_95th_ms, "
    "sysbench_lat_avg_ms";

} // namespace

TEST_CASE("a bisect file parses: good, bad, the metric from primary, the default threshold",
          "[bisect]") {
    BisectFile f = parse_bisect(kBisect, "bisect.toml");
    CHECK(f.experiment.name == "which-build");
    CHECK(f.experiment.targets.empty());
    CHECK(f.bisect.good.kind == SelectorKind::refspec);
    CHECK(f.bisect.good.refspec == "fedora:fedora/43/x86_64/silverblue");
    CHECK(f.bisect.good.commit == "3f2a9c");
    CHECK(f.bisect.bad.commit.empty());
    CHECK(f.bisect.good.pos.line == 12);
    CHECK(f.bisect.metric == "sysbench_events");
    CHECK(f.bisect.threshold == 0.05);
    CHECK(f.bisect.candidates.empty());
    BisectFile images = parse_bisect(kImages, "bisect.toml");
    CHECK(images.bisect.good.kind == SelectorKind::image);
    CHECK(images.bisect.bad.image == "ghcr.io/ublue-os/bazzite:stable-20261130");
    CHECK(images.bisect.tags == "stable-2026*");
    CHECK(images.bisect.threshold == 0.1);
    BisectFile listed = parse_bisect(
        replace(kBisect, "[bisect]\n", "[bisect]\ncandidates = [\"aa11\", \"bb22\"]\n"),
        "bisect.toml");
    CHECK(listed.bisect.candidates == std::vector<std::string>{"aa11", "bb22"});
}

TEST_CASE("a bisect's threshold must be above 0 and below 1", "[bisect]") {
    CHECK(error_of(replace(kImages, "threshold = 0.1", "threshold = 1.5")) ==
          "bisect.toml:12:1: bisect.threshold must be above 0 and below 1 (0.05 is a 5% change), "
          "got 1.5");
    CHECK(error_of(replace(kImages, "threshold = 0.1", "threshold = 0")) ==
          "bisect.toml:12:1: bisect.threshold must be above 0 and below 1 (0.05 is a 5% change), "
          "got 0");
    CHECK(error_of(replace(kImages, "threshold = 0.1", "threshold = \"5%\"")) ==
          "bisect.toml:12:1: bisect.threshold must be a number, not a string");
}

TEST_CASE("a bisect file may set its runs: endpoint_runs, step_runs, confirm_runs", "[bisect]") {
    BisectRules defaults = parse_bisect(kBisect, "bisect.toml").bisect.rules;
    CHECK(defaults.endpoint_runs == 10);
    CHECK(defaults.step_runs == 8);
    CHECK(defaults.confirm_runs == 4);
    BisectRules set =
        parse_bisect(with_keys("endpoint_runs = 5\nstep_runs = 6\nconfirm_runs = 2\n"),
                     "bisect.toml")
            .bisect.rules;
    CHECK(set.endpoint_runs == 5);
    CHECK(set.step_runs == 6);
    CHECK(set.confirm_runs == 2);
    CHECK(set.more_runs == defaults.more_runs);
    CHECK(set.max_rounds == defaults.max_rounds);
    CHECK(set.alpha == defaults.alpha);
}

TEST_CASE("a bisect's runs are whole numbers, enough for a rank test below alpha, at most 50",
          "[bisect]") {
    CHECK(
        error_of(with_keys("endpoint_runs = 4\nstep_runs = 4\nconfirm_runs = 1\n")) ==
        "bisect.toml:12:1: bisect.endpoint_runs = 4: with fewer than 5 runs each, bad's rank test "
        "against good cannot go below alpha 0.01; use at least 5\n"
        "bisect.toml:13:1: bisect.step_runs = 4: with fewer than 5 runs a candidate's rank test "
        "against good cannot go below alpha 0.01; use at least 5\n"
        "bisect.toml:14:1: bisect.confirm_runs = 1: with fewer than 2 runs each the final pair's "
        "direct A/B is not interleaved (good, bad, good, bad); use at least 2");
    CHECK(error_of(with_keys("endpoint_runs = 51\nstep_runs = -3\nconfirm_runs = 9999999999\n")) ==
          "bisect.toml:12:1: bisect.endpoint_runs = 51: use at most 50 (the default is 10)\n"
          "bisect.toml:13:1: bisect.step_runs = -3: with fewer than 5 runs a candidate's rank test "
          "against good cannot go below alpha 0.01; use at least 5\n"
          "bisect.toml:14:1: bisect.confirm_runs = 9999999999: use at most 50 (the default is 4)");
    CHECK(error_of(with_keys("endpoint_runs = true\nstep_runs = \"6\"\n")) ==
          "bisect.toml:12:1: bisect.endpoint_runs must be a whole number, not a boolean\n"
          "bisect.toml:13:1: bisect.step_runs must be a whole number, not a string");
    CHECK(error_of(with_keys("more_runs = 2\n")) ==
          "bisect.toml:12:1: unknown key 'more_runs' in [bisect]");
}

TEST_CASE("5 runs against 5 are the fewest whose exact rank test can go below a bisect's alpha",
          "[bisect]") {
    double alpha = BisectRules{}.alpha;
    CHECK(mann_whitney({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}).p_value < alpha); // 2 / C(10, 5)
    CHECK(mann_whitney({1, 2, 3, 4}, {6, 7, 8, 9}).p_value > alpha);        // 2 / C(8, 4)
    CHECK(mann_whitney({1, 2, 3, 4}, {6, 7, 8, 9, 10}).p_value >
          alpha); // a step of 4 against good's 5
}

TEST_CASE("a bisect's metric is one a bench gives; without one it needs experiment.primary",
          "[bisect]") {
    CHECK(
        error_of(replace(kImages, "metric = \"sysbench_events\"", "metric = \"sysbench_event\"")) ==
        "bisect.toml:11:1: bisect.metric: no bench gives the metric 'sysbench_event' (the benches "
        "give: "
        "boot_firmware_s, boot_initrd_s, boot_kernel_s, boot_loader_s, boot_total_s, "
        "boot_userspace_s, "
        "mem_slab_mib, mem_used_mib, processes, sysbench_events, sysbench_lat_95th_ms, "
        "sysbench_lat_avg_ms)");
    CHECK(error_of(replace(kBisect, "primary = [\"sysbench_events\"]\n", "")) ==
          "bisect.toml:10:1: bisect.metric is missing: name the metric that regressed, or list it "
          "first in "
          "experiment.primary (" +
              kBenches + ")");
}

TEST_CASE("a bisect needs at least two candidates between good and bad", "[bisect]") {
    CHECK(error_of(replace(kBisect, "[bisect]\n", "[bisect]\ncandidates = [\"aa11\"]\n")) ==
          "bisect.toml:12:1: bisect.candidates needs at least two builds between good and bad, "
          "found 1: with "
          "fewer there is nothing to bisect");
    CHECK(error_of(replace(kBisect, "[bisect]\n",
                           "[bisect]\ncandidates = [\"aa11\", \"main\", \"aa11\"]\n")) ==
          "bisect.toml:12:1: bisect.candidates: 'main' is not a commit (4 to 64 lowercase hex "
          "digits)\n"
          "bisect.toml:12:1: bisect.candidates: 'aa11' is listed twice");
    CHECK(error_of(replace(kImages, "tags = \"stable-2026*\"\n", "")) ==
          "bisect.toml:7:1: bisect with images needs the builds between good and bad: tags = "
          "\"GLOB\" (the "
          "registry's tags, by creation time) or candidates = [...]");
    CHECK(error_of(replace(kImages, "tags = \"stable-2026*\"\n",
                           "tags = \"x*\"\ncandidates = [\"a:1\", \"a:2\"]\n")) ==
          "bisect.toml:10:1: bisect.candidates and bisect.tags both name the builds between good "
          "and bad: keep one");
    CHECK(error_of(replace(kBisect, "[bisect]\n", "[bisect]\ntags = \"stable-*\"\n")) ==
          "bisect.toml:12:1: bisect.tags selects an image's registry tags; with a refspec the "
          "builds between good "
          "and bad are the ref's commits: remove tags, or list them in bisect.candidates");
}

TEST_CASE("a bisect's good and bad: missing, malformed, or not in one history", "[bisect]") {
    CHECK(error_of(replace(kBisect, "bad = { refspec = \"fedora:fedora/43/x86_64/silverblue\" }\n",
                           "")) == "bisect.toml:11:1: bisect.bad is missing: give bad = { refspec "
                                   "= \"REMOTE:REF\", commit = \"HEX\" } or "
                                   "{ image = \"REFERENCE\" }");
    CHECK(error_of(replace(kBisect, "bad = { refspec = \"fedora:fedora/43/x86_64/silverblue\" }",
                           "bad = \"f43\"")) == "bisect.toml:13:1: bisect.bad must be bad = { "
                                                "refspec = \"REMOTE:REF\", commit = \"HEX\" } or "
                                                "{ image = \"REFERENCE\" }");
    CHECK(error_of(replace(kBisect, "bad = { refspec = \"fedora:fedora/43/x86_64/silverblue\" }",
                           "bad = { }")) == "bisect.toml:13:7: bisect.bad names no build: give { "
                                            "refspec = \"REMOTE:REF\", commit = \"HEX\" } or "
                                            "{ image = \"REFERENCE\" }");
    CHECK(error_of(
              replace(kImages, "stable-20261130\" }", "stable-20261130\", refspec = \"f:x\" }")) ==
          "bisect.toml:9:7: bisect.bad has both refspec and image: keep one, { refspec = "
          "\"REMOTE:REF\", commit = "
          "\"HEX\" } or { image = \"REFERENCE\" }");
    CHECK(
        error_of(replace(kBisect, "commit = \"3f2a9c\"", "commit = \"HEAD~3\"")) ==
        "bisect.toml:12:58: bisect.good.commit must be 4 to 64 lowercase hex digits, not 'HEAD~3'");
    CHECK(error_of(replace(kBisect, ", commit = \"3f2a9c\"", "")) ==
          "bisect.toml:12:8: bisect.good needs commit = \"HEX\": the commit of "
          "fedora:fedora/43/x86_64/silverblue "
          "that was good (bad without a commit is the ref's head)");
    CHECK(error_of(replace(kBisect, "bad = { refspec = \"fedora:fedora/43/x86_64/silverblue\" }",
                           "bad = { image = \"quay.io/fedora/fedora-silverblue:43\" }")) ==
          "bisect.toml:13:7: bisect.bad is an image and bisect.good a refspec: both must be of one "
          "kind, in one "
          "history");
    CHECK(error_of(replace(kBisect, "bad = { refspec = \"fedora:fedora/43/x86_64/silverblue\" }",
                           "bad = { refspec = \"fedora:fedora/43/x86_64/kinoite\" }")) ==
          "bisect.toml:13:7: bisect.bad.refspec 'fedora:fedora/43/x86_64/kinoite' is not "
          "bisect.good.refspec "
          "'fedora:fedora/43/x86_64/silverblue': a bisect follows one ref's history");
    CHECK(error_of(
              replace(kImages, "stable-20261101\" }", "stable-20261101\", commit = \"abcd\" }")) ==
          "bisect.toml:8:62: bisect.good.commit goes with refspec, not with image: remove it");
    CHECK(error_of(replace(kBisect, "[bisect]\ngood", "[bisect.x]\ngood")) ==
          "bisect.toml:11:1: bisect.good is missing: give good = { refspec = \"REMOTE:REF\", "
          "commit = \"HEX\" } or "
          "{ image = \"REFERENCE\" }\n"
          "bisect.toml:11:1: bisect.bad is missing: give bad = { refspec = \"REMOTE:REF\", commit "
          "= \"HEX\" } or "
          "{ image = \"REFERENCE\" }\n"
          "bisect.toml:11:9: unknown key 'x' in [bisect]");
}

TEST_CASE("a bisect's image, refspec and tags are not empty or malformed", "[bisect]") {
    CHECK(error_of(replace(kImages, "tags = \"stable-2026*\"", "tags = \"\"")) ==
          "bisect.toml:10:1: bisect.tags is empty: give a glob such as \"stable-2026*\"");
    CHECK(error_of(replace(kImages, "ghcr.io/ublue-os/bazzite:stable-20261101", "bazzite stable")) ==
          "bisect.toml:8:10: bisect.good.image must be a container image reference such as "
          "\"ghcr.io/ublue-os/bazzite:stable-20261101\"");
    CHECK(error_of(replace(kBisect, "bad = { refspec = \"fedora:fedora/43/x86_64/silverblue\" }",
                           "bad = { refspec = \"\" }")) ==
          "bisect.toml:13:9: bisect.bad.refspec is empty");
}

TEST_CASE("a bisect file names no targets, baseline or runs, and needs [bisect]", "[bisect]") {
    std::string ab = replace(kBisect, "name = \"which-build\"\n",
                             "name = \"which-build\"\nbaseline = \"a\"\nruns = 5\n");
    ab += "\n[[target]]\nname = \"a\"\ndeployment = 0\n";
    CHECK(error_of(ab) == "bisect.toml:3:1: experiment.baseline: a bisect compares its builds with "
                          "[bisect] good and bad: remove it\n"
                          "bisect.toml:4:1: experiment.runs: a bisect chooses how many runs each "
                          "build needs: remove it (a first round's runs: [bisect] endpoint_runs, "
                          "step_runs, confirm_runs)\n"
                          "bisect.toml:17:3: a bisect names its builds in [bisect] (good, bad, "
                          "candidates or tags): remove the "
                          "[[target]] tables");
    CHECK(error_of(kBisect.substr(0, kBisect.find("[bisect]"))) ==
          "bisect.toml:1:1: missing [bisect] table");
    CHECK(error_of(kBisect + "\n[bisec]\nmetric = \"x\"\n") ==
          "bisect.toml:15:2: unknown key 'bisec' in the bisect file (did you mean 'bisect'?)");
    // and an A/B experiment file still refuses [bisect]
    CHECK(bootbench::test::experiment_error(bootbench::test::kExperiment + "[bisect]\nmetric = \"x\"\n") ==
          "exp.toml:17:2: unknown key 'bisect' in the experiment file");
}

TEST_CASE("a file with a [bisect] table is a bisect file; an experiment or broken TOML is not") {
    CHECK(names_bisect(kBisect));
    CHECK_FALSE(names_bisect(bootbench::test::kExperiment));
    CHECK_FALSE(names_bisect("[bisect\ngood = "));
    CHECK_FALSE(names_bisect("bisect = 1\n")); // a key, not a table: parse_experiment says what is wrong
}
