#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/experiment/experiment.hpp"
#include "core/state/estimate.hpp"
#include "experiment_text.hpp"

#include <string>

using namespace bootbench;
using namespace bootbench::core;

namespace {

// The shared file (experiment_text.hpp), whose line numbers the messages below name.
const std::string& kValid = bootbench::test::kExperiment;

constexpr auto error_of = &bootbench::test::experiment_error;
using bootbench::test::replace;

} // namespace

TEST_CASE("a valid experiment parses with defaults", "[experiment]") {
    Experiment e = parse_experiment(kValid, "exp.toml");
    CHECK(e.name == "kern-ab");
    CHECK(e.title == "kern-ab");
    CHECK(e.runs == 2);
    CHECK(e.order == Order::interleaved);
    CHECK(e.targets.size() == 2);
    CHECK(e.targets[0].selector.kind == SelectorKind::refspec);
    CHECK(e.targets[1].selector.kind == SelectorKind::image);
    CHECK(e.targets[1].kargs == std::vector<std::string>{"mitigations=off"});
    CHECK(e.benches.size() == 1);
    CHECK(e.benches[0].name == "perf-sched-pipe");
    CHECK(e.benches[0].loops == 1000000);
    CHECK(e.conditions.settle_s == 60);
    CHECK(e.load.kind == Load::Kind::none);
    CHECK(e.max_attempts == 3);
    CHECK(e.subject().name == "b");
}

TEST_CASE("syntax errors name the line and column", "[experiment]") {
    CHECK(error_of("[experiment\nname = 1\n").rfind("exp.toml:1:", 0) == 0);
    CHECK(error_of("[experiment]\nname = \n").find("exp.toml:2:") == 0);
    CHECK(error_of("[experiment]\nname = \n").find("syntax error") != std::string::npos);
}

// Found by fuzz-experiment: toml++'s own assert aborted the process here.
TEST_CASE("a table header left open is a syntax error, not an abort", "[experiment]") {
    CHECK(error_of("[experiment]\nname = \"x\"\n[[\n\n[load]\n") ==
          "exp.toml:3:3: syntax error: Error while parsing key: expected bare key starting character or string "
          "delimiter, saw '\\n'");
}

// Found by fuzz-experiment: toml++ 3.3 reached __builtin_unreachable() (UBSan)
// on a non-ASCII character after a line-ending backslash and in a quoted key.
// The sanitizer build runs this test; the build itself checks the fixed headers.
TEST_CASE("non-ASCII text after a line-ending backslash or in a quoted key is read as text", "[experiment]") {
    auto e = parse_experiment(replace(kValid, "runs = 2", "runs = 2\ntitle = \"\"\"\\\n   \u00a7 \u00e9t\u00e9\"\"\""),
                              "exp.toml");
    CHECK(e.title == "\u00a7 \u00e9t\u00e9");
    CHECK(error_of(replace(kValid, "runs = 2", "runs = 2\n\"caf\u00e9\" = 1")) ==
          "exp.toml:4:1: unknown key 'caf\u00e9' in [experiment]");
}

TEST_CASE("unknown keys are errors with a suggestion", "[experiment]") {
    CHECK(error_of(replace(kValid, "runs = 2", "runs = 2\nrnus = 3")) ==
          "exp.toml:4:1: unknown key 'rnus' in [experiment] (did you mean 'runs'?)");
    CHECK(error_of(kValid + "\n[extra]\nx = 1\n") ==
          "exp.toml:18:2: unknown key 'extra' in the experiment file");
    CHECK(error_of(replace(kValid, "kind = \"perf-sched-pipe\"",
                           "kind = \"perf-sched-pipe\"\nruntime_s = 5")) ==
          "exp.toml:17:1: unknown key 'runtime_s' in [[bench]] 'perf-sched-pipe'");
}

TEST_CASE("wrong types say what was expected", "[experiment]") {
    CHECK(error_of(replace(kValid, "runs = 2", "runs = \"2\"")) ==
          "exp.toml:3:1: experiment.runs must be a whole number, not a string");
    CHECK(error_of(replace(kValid, "kargs = [\"mitigations=off\"]", "kargs = \"mitigations=off\"")) ==
          "exp.toml:13:1: target 'b'.kargs must be an array of strings, not a string");
    CHECK(error_of(replace(kValid, "kargs = [\"mitigations=off\"]", "kargs = [1]")) ==
          "exp.toml:13:10: target 'b'.kargs must hold only strings, found an integer");
}

TEST_CASE("runs must be at least one", "[experiment]") {
    CHECK(error_of(replace(kValid, "runs = 2", "runs = 0")) ==
          "exp.toml:3:1: experiment.runs must be between 1 and 1000 (got 0)");
}

TEST_CASE("missing tables and keys", "[experiment]") {
    CHECK(error_of(replace(kValid, "name = \"kern-ab\"\n", "")) ==
          "exp.toml:1:1: missing experiment.name");
    std::string no_experiment = kValid.substr(kValid.find("[[target]]"));
    CHECK(error_of(no_experiment) == "exp.toml:1:1: missing [experiment] table");
    std::string no_bench = kValid.substr(0, kValid.find("[[bench]]"));
    CHECK(error_of(no_bench) == "exp.toml:1:1: missing [[bench]] tables");
}

TEST_CASE("targets: missing, duplicate, baseline, selectors", "[experiment]") {
    std::string one_target = replace(kValid, "[[target]]\nname = \"b\"", "[[targetx]]\nname = \"b\"");
    CHECK(error_of(one_target).find("an experiment needs at least two [[target]] tables to "
                                    "compare, found 1") != std::string::npos);
    CHECK(error_of(replace(kValid, "name = \"b\"", "name = \"a\"")) ==
          "exp.toml:11:1: duplicate target name 'a'");
    CHECK(error_of(replace(kValid, "baseline = \"a\"", "baseline = \"c\"")) ==
          "exp.toml:4:1: experiment.baseline 'c' is not a target (targets: a, b)");
    CHECK(error_of(replace(kValid, "refspec = \"fedora:fedora/x86_64/silverblue\"",
                           "refspec = \"x:y\"\ndeployment = 1")) ==
          "exp.toml:9:1: target 'a' has two selectors (refspec and deployment): keep exactly one");
    CHECK(error_of(replace(kValid, "refspec = \"fedora:fedora/x86_64/silverblue\"", "")) ==
          "exp.toml:6:1: target 'a' has no selector: give exactly one of image, refspec, "
          "checksum, deployment");
    CHECK(error_of(replace(kValid, "refspec = \"fedora:fedora/x86_64/silverblue\"",
                           "checksum = \"XYZ\"")) ==
          "exp.toml:8:1: target 'a'.checksum must be 4 to 64 lowercase hex digits, not 'XYZ'");
}

TEST_CASE("names with / or .. are refused", "[experiment]") {
    const std::string why = "' is not a valid name: use 1 to 64 of a-z, 0-9, '.', '_', '-', "
                            "starting with a letter or digit, without '/' or '..'";
    CHECK(error_of(replace(kValid, "name = \"kern-ab\"", "name = \"../etc\"")) ==
          "exp.toml:2:1: experiment.name '../etc" + why);
    CHECK(error_of(replace(kValid, "name = \"b\"", "name = \"b/c\"")) ==
          "exp.toml:11:1: target.name 'b/c" + why);
    CHECK(error_of(replace(kValid, "name = \"b\"", "name = \"b..c\"")) ==
          "exp.toml:11:1: target.name 'b..c" + why);
    CHECK(is_valid_name("margine-cachyos"));
    CHECK(is_valid_name("a.b_c-1"));
    CHECK_FALSE(is_valid_name(""));
    CHECK_FALSE(is_valid_name("-a"));
    CHECK_FALSE(is_valid_name("Upper"));
    CHECK_FALSE(is_valid_name(std::string(65, 'a')));
}

TEST_CASE("enumerations list their choices", "[experiment]") {
    CHECK(error_of(replace(kValid, "runs = 2", "runs = 2\norder = \"zigzag\"")) ==
          "exp.toml:4:1: experiment.order must be one of \"blocked\", \"interleaved\", "
          "\"counterbalanced\", \"random\", not \"zigzag\"");
    CHECK(error_of(replace(kValid, "perf-sched-pipe", "perf-pipe")) ==
          "exp.toml:16:1: bench.kind must be one of \"perf-sched-pipe\", \"perf-sched-messaging\", "
          "\"sysbench-threads\", \"schbench\", \"command\", \"perf-bench-futex\", not \"perf-pipe\"");
}

TEST_CASE("command benches need argv, name, timeout and metrics", "[experiment]") {
    std::string cmd = replace(kValid, "kind = \"perf-sched-pipe\"", "kind = \"command\"");
    std::string err = error_of(cmd);
    CHECK(err.find("exp.toml:15:1: missing [[bench]] 'command'.argv") != std::string::npos);
    CHECK(err.find("missing [[bench]] 'command'.name (a command bench needs a name)") != std::string::npos);
    CHECK(err.find("missing [[bench]] 'command'.timeout_s") != std::string::npos);
    CHECK(err.find("needs at least one [[bench.metric]] table") != std::string::npos);

    std::string good = replace(kValid, "kind = \"perf-sched-pipe\"",
                               "kind = \"command\"\nname = \"build\"\nargv = [\"/bin/true\"]\n"
                               "timeout_s = 60\n[[bench.metric]]\nkey = \"build_s\"\n"
                               "regex = 'real ([0-9.]+)'\nunit = \"s\"\nbetter = \"lower\"");
    Experiment e = parse_experiment(good, "exp.toml");
    REQUIRE(e.benches[0].metrics.size() == 1);
    CHECK(e.benches[0].metrics[0].key == "build_s");
    CHECK(error_of(replace(good, "'real ([0-9.]+)'", "'real ([0-9.]+'")).find(
              "exp.toml:22:1: [[bench]] 'build'.metric.regex is not a valid regular expression") == 0);
    CHECK(error_of(replace(good, "'real ([0-9.]+)'", "'real [0-9.]+'")) ==
          "exp.toml:22:1: [[bench]] 'build'.metric.regex needs one capture group for the value");
}

TEST_CASE("a metric regex is checked with the engine that runs it, nesting bounded",
          "[experiment]") {
    std::string good = replace(kValid, "kind = \"perf-sched-pipe\"",
                               "kind = \"command\"\nname = \"build\"\nargv = [\"/bin/true\"]\n"
                               "timeout_s = 60\n[[bench.metric]]\nkey = \"build_s\"\n"
                               "regex = 'real ([0-9.]+)'\nunit = \"s\"\nbetter = \"lower\"");
    std::string deep = std::string(20000, '(') + "[0-9]+" + std::string(20000, ')');
    CHECK(error_of(replace(good, "'real ([0-9.]+)'", "'" + deep + "'")) ==
          "exp.toml:22:1: [[bench]] 'build'.metric.regex is not a valid regular expression: "
          "it is 40006 bytes long, more than 4096");
    std::string nested = std::string(100, '(') + "[0-9]+" + std::string(100, ')');
    CHECK(error_of(replace(good, "'real ([0-9.]+)'", "'" + nested + "'")) ==
          "exp.toml:22:1: [[bench]] 'build'.metric.regex is not a valid regular expression: "
          "parentheses are too deeply nested at offset 65");
    CHECK(error_of(replace(good, "'real ([0-9.]+)'", "'real ([0-9.]+'")) ==
          "exp.toml:22:1: [[bench]] 'build'.metric.regex is not a valid regular expression: "
          "missing closing parenthesis at offset 13");
    // PCRE2 syntax, as the suite will run it
    CHECK(error_of(replace(good, "'real ([0-9.]+)'", "'real (?<v>\\d+)'")).empty());
}

std::string repeated(const std::string& part, int n, const std::string& separator) {
    std::string s = part;
    for (int i = 1; i < n; ++i)
        s += separator + part;
    return s;
}

TEST_CASE("nesting is bounded before toml++ parses the file", "[experiment]") {
    const std::string tail = " levels (tables, dotted keys, arrays); not an experiment file?";
    CHECK(error_of("[" + repeated("a", 60000, ".") + "]\n") ==
          "exp.toml:1:129: nesting deeper than 64" + tail);
    CHECK(error_of(kValid + repeated("a", 60000, ".") + " = 1\n") ==
          "exp.toml:17:128: nesting deeper than 64" + tail);
    CHECK(error_of(kValid + "x = " + std::string(60000, '[') + std::string(60000, ']') + "\n") ==
          "exp.toml:17:67: nesting deeper than 64" + tail);
    CHECK(error_of(kValid + "x = " + repeated("{a = ", 40, "") + "1" + std::string(40, '}') +
                   "\n") == "exp.toml:17:160: nesting deeper than 64" + tail);
    // dots, brackets and '#' in strings and comments are not levels
    std::string quiet = kValid + "# " + std::string(100, '[') + "\n[report]\nexclude = [\"" +
                        std::string(100, '.') + "\", '" + std::string(100, '{') + "']\n";
    CHECK(error_of(quiet).find("nesting") == std::string::npos);
    CHECK(error_of("[" + repeated("a", 64, ".") + "]\n").find("nesting") == std::string::npos);
}

TEST_CASE("load, conditions and report are checked", "[experiment]") {
    CHECK(parse_experiment(kValid + "[load]\ncpu_workers = \"half\"\n", "e").load.kind == Load::Kind::half);
    CHECK(parse_experiment(kValid + "[load]\ncpu_workers = 3\n", "e").load.count == 3);
    CHECK(error_of(kValid + "[load]\ncpu_workers = \"most\"\n") ==
          "exp.toml:18:1: load.cpu_workers must be \"half\", \"all\" or a whole number of workers");
    CHECK(error_of(kValid + "[conditions]\nset_governor = true\n") ==
          "exp.toml:18:1: conditions.set_governor = true needs conditions.governor");
    CHECK(error_of(kValid + "[report]\nexclude = [\"a-3\"]\n") ==
          "exp.toml:18:1: report.exclude: 'a-3' is not a run of this experiment (run ids look "
          "like 'a-1')");
    CHECK(parse_experiment(kValid + "[report]\nexclude = [\"b-2\"]\n", "e").report.exclude.size() == 1);
}

TEST_CASE("every mistake is reported at once, in file order", "[experiment]") {
    std::string text = replace(replace(kValid, "runs = 2", "runs = 0"), "name = \"b\"", "name = \"B\"");
    std::string err = error_of(text);
    auto first = err.find("exp.toml:3:1:");
    auto second = err.find("exp.toml:11:1:");
    CHECK(first == 0);
    CHECK(second != std::string::npos);
    CHECK(first < second);
}

TEST_CASE("the shipped configs are valid", "[experiment]") {
    for (const char* name : {"demo.toml", "margine-vs-bluefin.toml", "repeat-demo.toml", "overnight.toml"}) {
        std::string path = std::string(TEST_DATA_DIR) + "/../../configs/" + name;
        FILE* f = std::fopen(path.c_str(), "r");
        REQUIRE(f != nullptr);
        std::string text;
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
            text.append(buf, n);
        std::fclose(f);
        CHECK_NOTHROW(parse_experiment(text, path));
        if (std::string(name) == "repeat-demo.toml")
            for (const auto& b : parse_experiment(text, path).benches)
                CHECK(b.repeat == 3);
    }
}

namespace {

using bootbench::test::with_bench;
using bootbench::test::with_experiment_key;

// The shared file with `runs` runs and `count` targets: a, b, then t2... by deployment.
std::string with_targets(int count, int runs) {
    std::string text = replace(kValid, "runs = 2", "runs = " + std::to_string(runs));
    for (int i = 2; i < count; ++i)
        text += "[[target]]\nname = \"t" + std::to_string(i) + "\"\ndeployment = " + std::to_string(i) + "\n";
    return text;
}

} // namespace

// The repros of the "hostile inputs" issue: values that wrapped when cast to int.
TEST_CASE("[experiment] integers are checked on the 64-bit value", "[experiment][range]") {
    CHECK(error_of(replace(kValid, "runs = 2", "runs = 4294967296")) ==
          "exp.toml:3:1: experiment.runs must be between 1 and 1000 (got 4294967296)");
    CHECK(error_of(replace(kValid, "runs = 2", "runs = 2147483647")) ==
          "exp.toml:3:1: experiment.runs must be between 1 and 1000 (got 2147483647)");
    CHECK(error_of(replace(kValid, "runs = 2", "runs = -9223372036854775808")) ==
          "exp.toml:3:1: experiment.runs must be between 1 and 1000 (got -9223372036854775808)");
    CHECK(error_of(with_experiment_key("max_attempts = 4294967296")) ==
          "exp.toml:4:1: experiment.max_attempts must be between 1 and 100 (got 4294967296)");
    CHECK(error_of(with_experiment_key("max_attempts = 0")) ==
          "exp.toml:4:1: experiment.max_attempts must be between 1 and 100 (got 0)");
    CHECK(error_of(with_experiment_key("seed = -1")) ==
          "exp.toml:4:1: experiment.seed must be between 0 and 9223372036854775807 (got -1)");
}

TEST_CASE("the largest values in range are kept exactly", "[experiment][range]") {
    Experiment e = parse_experiment(
        replace(with_experiment_key("seed = 9223372036854775807\nmax_attempts = 100"), "runs = 2",
                "runs = 1000") +
            "[conditions]\nsettle_s = 86400\ntemp_wait_timeout_s = 86400\nmax_start_temp_c = 200.0\n",
        "exp.toml");
    CHECK(e.runs == 1000);
    CHECK(e.seed == 9223372036854775807ULL);
    CHECK(e.max_attempts == 100);
    CHECK(e.conditions.settle_s == 86400);
    CHECK(e.conditions.temp_wait_timeout_s == 86400);
    Experiment d = parse_experiment(replace(kValid, "refspec = \"fedora:fedora/x86_64/silverblue\"",
                                            "deployment = 999"),
                                    "exp.toml");
    CHECK(d.targets[0].selector.index == 999);
}

TEST_CASE("target.deployment is an index from 0 to 999", "[experiment][range]") {
    const std::string refspec = "refspec = \"fedora:fedora/x86_64/silverblue\"";
    CHECK(error_of(replace(kValid, refspec, "deployment = 4294967296")) ==
          "exp.toml:8:1: target 'a'.deployment must be between 0 and 999 (got 4294967296)");
    CHECK(error_of(replace(kValid, refspec, "deployment = -1")) ==
          "exp.toml:8:1: target 'a'.deployment must be between 0 and 999 (got -1)");
}

TEST_CASE("[conditions] and [load] numbers have ranges", "[experiment][range]") {
    CHECK(error_of(kValid + "[conditions]\nsettle_s = 4294967295\n") ==
          "exp.toml:18:1: conditions.settle_s must be between 0 and 86400 (got 4294967295)");
    CHECK(error_of(kValid + "[conditions]\nsettle_s = -1\n") ==
          "exp.toml:18:1: conditions.settle_s must be between 0 and 86400 (got -1)");
    CHECK(error_of(kValid + "[conditions]\ntemp_wait_timeout_s = 86401\n") ==
          "exp.toml:18:1: conditions.temp_wait_timeout_s must be between 0 and 86400 (got 86401)");
    CHECK(error_of(kValid + "[conditions]\nmax_start_temp_c = nan\n") ==
          "exp.toml:18:1: conditions.max_start_temp_c must be between 0 and 200 (got nan)");
    CHECK(error_of(kValid + "[conditions]\nmax_start_temp_c = inf\n") ==
          "exp.toml:18:1: conditions.max_start_temp_c must be between 0 and 200 (got inf)");
    CHECK(error_of(kValid + "[conditions]\nmax_start_temp_c = -0.5\n") ==
          "exp.toml:18:1: conditions.max_start_temp_c must be between 0 and 200 (got -0.5)");
    CHECK(error_of(kValid + "[conditions]\nstart_temp_band_c = nan\n") ==
          "exp.toml:18:1: conditions.start_temp_band_c must be above 0 and at most 100 (got nan)");
    CHECK(error_of(kValid + "[conditions]\nstart_temp_band_c = 0\n") ==
          "exp.toml:18:1: conditions.start_temp_band_c must be above 0 and at most 100 (got 0)");
    CHECK(error_of(kValid + "[load]\ncpu_workers = 4294967296\n") ==
          "exp.toml:18:1: load.cpu_workers must be between 0 and 4096 (got 4294967296)");
    CHECK(error_of(kValid + "[load]\ncpu_workers = -1\n") ==
          "exp.toml:18:1: load.cpu_workers must be between 0 and 4096 (got -1)");
}

TEST_CASE("[[bench]] numbers have ranges", "[experiment][range]") {
    const std::string pipe = "kind = \"perf-sched-pipe\"\n";
    CHECK(error_of(with_bench(pipe + "timeout_s = 4294967297")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-pipe'.timeout_s must be between 1 and 86400 (got 4294967297)");
    CHECK(error_of(with_bench(pipe + "timeout_s = 0")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-pipe'.timeout_s must be between 1 and 86400 (got 0)");
    CHECK(error_of(with_bench(pipe + "loops = 4294967296")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-pipe'.loops must be between 1 and 1000000000 (got 4294967296)");
    const std::string msg = "kind = \"perf-sched-messaging\"\n";
    CHECK(error_of(with_bench(msg + "groups = 1001")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-messaging'.groups must be between 1 and 1000 (got 1001)");
    CHECK(error_of(with_bench(msg + "loops = 1000001")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-messaging'.loops must be between 1 and 1000000 (got 1000001)");
    const std::string sysbench = "kind = \"sysbench-threads\"\n";
    CHECK(error_of(with_bench(sysbench + "runtime_s = 4294967297")) ==
          "exp.toml:17:1: [[bench]] 'sysbench-threads'.runtime_s must be between 1 and 86400 (got 4294967297)");
    CHECK(error_of(with_bench(sysbench + "threads = 4097")) ==
          "exp.toml:17:1: [[bench]] 'sysbench-threads'.threads must be between 0 and 4096 (got 4097)");
    const std::string sch = "kind = \"schbench\"\n";
    CHECK(error_of(with_bench(sch + "message_threads = -1")) ==
          "exp.toml:17:1: [[bench]] 'schbench'.message_threads must be between 0 and 4096 (got -1)");
    CHECK(error_of(with_bench(sch + "threads = 4294967296")) ==
          "exp.toml:17:1: [[bench]] 'schbench'.threads must be between 0 and 4096 (got 4294967296)");
    CHECK(error_of(with_bench(sch + "runtime_s = 0")) ==
          "exp.toml:17:1: [[bench]] 'schbench'.runtime_s must be between 1 and 86400 (got 0)");
}

TEST_CASE("perf-bench-futex: its keys, their ranges and perf's default run time", "[experiment][bench-kinds]") {
    const std::string futex = "kind = \"perf-bench-futex\"\n";
    Bench plain = parse_experiment(with_bench(futex), "exp.toml").benches[0];
    CHECK(plain.name == "perf-bench-futex");
    CHECK(plain.runtime_s == 10);
    CHECK(plain.threads == 0);
    Bench set = parse_experiment(with_bench(futex + "runtime_s = 5\nthreads = 2\nrepeat = 3"), "exp.toml").benches[0];
    CHECK(set.runtime_s == 5);
    CHECK(set.threads == 2);
    CHECK(set.repeat == 3);
    CHECK(error_of(with_bench(futex + "runtime_s = 0")) ==
          "exp.toml:17:1: [[bench]] 'perf-bench-futex'.runtime_s must be between 1 and 86400 (got 0)");
    CHECK(error_of(with_bench(futex + "threads = 4097")) ==
          "exp.toml:17:1: [[bench]] 'perf-bench-futex'.threads must be between 0 and 4096 (got 4097)");
    CHECK(error_of(with_bench(futex + "loops = 5")) ==
          "exp.toml:17:1: unknown key 'loops' in [[bench]] 'perf-bench-futex'");
}

TEST_CASE("a bench read without its keys equals one built in code; every kind takes counters", "[experiment][bench-kinds][counters]") {
    for (const auto& [name, kind] : kBenchKindNames) {
        if (kind == BenchKind::command)
            continue; // needs argv and metrics: no defaults
        INFO(name);
        Bench read = parse_experiment(with_bench("kind = \"" + std::string(name) + "\""), "exp.toml").benches[0];
        Bench built;
        built.kind = kind;
        CHECK(estimate_bench_seconds(read) == Approx(estimate_bench_seconds(built)));
        // and every kind takes `counters`
        CHECK(parse_experiment(with_bench("kind = \"" + std::string(name) + "\"\ncounters = true"), "exp.toml")
                  .benches[0]
                  .counters.size() == 7);
    }
}

TEST_CASE("runs x targets is bounded, so a plan never allocates millions of runs", "[experiment][range]") {
    CHECK(parse_experiment(with_targets(10, 1000), "exp.toml").targets.size() == 10);
    CHECK(error_of(with_targets(11, 1000)) ==
          "exp.toml:3:1: experiment.runs x targets is 1000 x 11 = 11000 runs, more than 10000: "
          "lower runs or split the experiment");
}

TEST_CASE("an experiment has at most 100 [[bench]] tables", "[experiment][range]") {
    std::string benches;
    for (int i = 0; i < 101; ++i)
        benches += "[[bench]]\nkind = \"schbench\"\nname = \"s" + std::to_string(i) + "\"\n";
    std::string text = replace(kValid, "[[bench]]\nkind = \"perf-sched-pipe\"\n", benches);
    CHECK(error_of(text) == "exp.toml:15:3: 101 [[bench]] tables, more than 100: split the suite");
}

// Values echoed in messages may hold any character a TOML escape can write;
// main prints the message as a C string, so a NUL would cut it.
TEST_CASE("control characters echoed in errors are escaped", "[experiment]") {
    const std::string why = "' is not a valid name: use 1 to 64 of a-z, 0-9, '.', '_', '-', "
                            "starting with a letter or digit, without '/' or '..'";
    CHECK(error_of(replace(kValid, "name = \"kern-ab\"", R"(name = "a\u0000b\u001b[31m\n")")) ==
          "exp.toml:2:1: experiment.name 'a\\u0000b\\u001B[31m\\u000A" + why);
    CHECK(error_of(with_experiment_key(R"("x\u0000y" = 1)")) ==
          "exp.toml:4:1: unknown key 'x\\u0000y' in [experiment]");
    CHECK(error_of(with_experiment_key("order = \"\\u007f\"")) ==
          "exp.toml:4:1: experiment.order must be one of \"blocked\", \"interleaved\", "
          "\"counterbalanced\", \"random\", not \"\\u007F\"");
}

TEST_CASE("a NUL byte in the file is a syntax error at its position", "[experiment]") {
    std::string nul(1, '\0');
    CHECK(error_of(replace(kValid, "runs = 2", "runs = 2 # a" + nul + "b")) ==
          "exp.toml:3:13: syntax error: Error while parsing comment: control characters other "
          "than TAB (U+0009) are explicitly prohibited in comments");
    std::string err = error_of(replace(kValid, "kern-ab", "kern" + nul + "ab"));
    CHECK(err.rfind("exp.toml:2:13: syntax error: ", 0) == 0);
    CHECK(err.find('\0') == std::string::npos);
}

// `plan --quick` on a file with quick = true, or a rehearsal's state on such a
// file, must not scale the run times down twice.
TEST_CASE("quick applies once, from the file, a flag, or both", "[experiment]") {
    Experiment once = quick_version(parse_experiment(kValid, "exp.toml"));
    CHECK(once.quick);
    CHECK(once.benches[0].loops == 20000);
    CHECK(quick_version(once).benches[0].loops == 20000);
    Experiment in_file = parse_experiment(with_experiment_key("quick = true"), "exp.toml");
    CHECK(in_file.benches[0].loops == 20000);
    CHECK(quick_version(in_file).benches[0].loops == 20000);
}

TEST_CASE("[tools] image names the container the benches run in", "[experiment][tools]") {
    CHECK(parse_experiment(kValid, "exp.toml").tools_image.empty());
    CHECK(parse_experiment(kValid + "[tools]\nimage = \"host\"\n", "exp.toml").tools_image.empty());
    CHECK(parse_experiment(kValid + "[tools]\nimage = \"ghcr.io/x/bench-tools:44\"\n", "exp.toml").tools_image ==
          "ghcr.io/x/bench-tools:44");
    CHECK(parse_experiment(kValid + "[tools]\nimage = \"localhost/t@sha256:ab12\"\n", "exp.toml").tools_image ==
          "localhost/t@sha256:ab12");
}

TEST_CASE("a [tools] image that is no image reference is refused where it is written", "[experiment][tools]") {
    const std::string why = "tools.image must be \"host\" or a container image reference such as "
                            "\"ghcr.io/example/bench-tools:44\" (letters, digits and ._/:@-)";
    CHECK(error_of(kValid + "[tools]\nimage = \"--privileged\"\n") == "exp.toml:18:1: " + why);
    CHECK(error_of(kValid + "[tools]\nimage = \"a b\"\n") == "exp.toml:18:1: " + why);
    CHECK(error_of(kValid + "[tools]\nimage = \"\"\n") == "exp.toml:18:1: " + why);
    CHECK(error_of(kValid + "[tools]\nimage = \"x\\u0000y\"\n") == "exp.toml:18:1: " + why);
    CHECK(error_of(kValid + "[tools]\nimage = \"" + std::string(256, 'a') + "\"\n") == "exp.toml:18:1: " + why);
    CHECK(error_of(kValid + "[tools]\n") == "exp.toml:17:1: missing tools.image");
    CHECK(error_of(kValid + "[tools]\nimage = 4\n") == "exp.toml:18:1: tools.image must be a string, not an integer");
    CHECK(error_of(kValid + "[tools]\nimage = \"x\"\npull = true\n") == "exp.toml:19:1: unknown key 'pull' in [tools]");
}

TEST_CASE("[boot] measure is on unless the file turns it off", "[experiment][boot]") {
    CHECK(parse_experiment(kValid, "exp.toml").boot.measure);
    CHECK(parse_experiment(kValid + "[boot]\nmeasure = true\n", "exp.toml").boot.measure);
    CHECK_FALSE(parse_experiment(kValid + "[boot]\nmeasure = false\n", "exp.toml").boot.measure);
    CHECK(parse_experiment(kValid + "[boot]\n", "exp.toml").boot.measure);
}

TEST_CASE("a bad [boot] table is refused where it is written", "[experiment][boot]") {
    CHECK(error_of(kValid + "[boot]\nmeasure = \"yes\"\n") ==
          "exp.toml:18:1: boot.measure must be true or false, not a string");
    CHECK(error_of(kValid + "[boot]\nmeasure = 1\n") ==
          "exp.toml:18:1: boot.measure must be true or false, not an integer");
    CHECK(error_of(kValid + "[boot]\nmesure = false\n") ==
          "exp.toml:18:1: unknown key 'mesure' in [boot] (did you mean 'measure'?)");
    CHECK(error_of("boot = true\n" + kValid) == "exp.toml:1:1: [boot] must be a table, not a boolean");
}

TEST_CASE("[[bench]] repeat: iterations in one boot, 1 to 1000", "[experiment][repeat]") {
    const std::string pipe = "kind = \"perf-sched-pipe\"\n";
    CHECK(parse_experiment(kValid, "exp.toml").benches[0].repeat == 1);
    CHECK(parse_experiment(with_bench(pipe + "repeat = 5"), "exp.toml").benches[0].repeat == 5);
    CHECK(parse_experiment(with_bench(pipe + "repeat = 1000"), "exp.toml").benches[0].repeat == 1000);
    CHECK(error_of(with_bench(pipe + "repeat = 0")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-pipe'.repeat must be between 1 and 1000 (got 0)");
    CHECK(error_of(with_bench(pipe + "repeat = -3")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-pipe'.repeat must be between 1 and 1000 (got -3)");
    CHECK(error_of(with_bench(pipe + "repeat = 1001")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-pipe'.repeat must be between 1 and 1000 (got 1001)");
    CHECK(error_of(with_bench(pipe + "repeat = \"3\"")) ==
          "exp.toml:17:1: [[bench]] 'perf-sched-pipe'.repeat must be a whole number, not a string");
    const std::string cmd = "kind = \"command\"\nname = \"c\"\nargv = [\"true\"]\ntimeout_s = 5\n"
                            "repeat = 3\n[[bench.metric]]\nkey = \"k\"\nregex = \"(\\\\d+)\"\nbetter = \"lower\"\n";
    CHECK(parse_experiment(with_bench(cmd), "exp.toml").benches[0].repeat == 3);
    CHECK(quick_version(parse_experiment(with_bench(pipe + "repeat = 4"), "exp.toml")).benches[0].repeat == 4);
}

TEST_CASE("allow_layered is a boolean of a target, false by default", "[experiment][layered]") {
    Experiment e = parse_experiment(replace(kValid, "kargs = [", "allow_layered = true\nkargs = ["), "exp.toml");
    CHECK_FALSE(e.targets[0].allow_layered);
    CHECK(e.targets[1].allow_layered);
    CHECK(error_of(replace(kValid, "kargs = [", "allow_layered = \"yes\"\nkargs = [")) ==
          "exp.toml:13:1: target.allow_layered must be true or false, not a string");
    CHECK(error_of(replace(kValid, "kargs = [", "allow_layerd = true\nkargs = [")) ==
          "exp.toml:13:1: unknown key 'allow_layerd' in [[target]] (did you mean 'allow_layered'?)");
}

TEST_CASE("counters: true is the default set, a list names perf events, bad values say why", "[experiment][counters]") {
    const std::string sysbench = "kind = \"sysbench-threads\"\n";
    CHECK(parse_experiment(with_bench(sysbench), "exp.toml").benches[0].counters.empty());
    CHECK(parse_experiment(with_bench(sysbench + "counters = false"), "exp.toml").benches[0].counters.empty());
    CHECK(parse_experiment(with_bench(sysbench + "counters = true"), "exp.toml").benches[0].counters ==
          std::vector<std::string>{"cycles", "instructions", "context-switches", "cpu-migrations", "page-faults",
                                   "cache-misses", "branch-misses"});
    CHECK(parse_experiment(with_bench(sysbench + "counters = [\"cycles:u\", \"sched:sched_switch\"]"), "exp.toml")
              .benches[0]
              .counters == std::vector<std::string>{"cycles:u", "sched:sched_switch"});
    CHECK(error_of(with_bench(sysbench + "counters = \"cycles\"")) ==
          "exp.toml:17:1: [[bench]] 'sysbench-threads'.counters must be true (the default set), false or a list of "
          "perf events");
    CHECK(error_of(with_bench(sysbench + "counters = []")) ==
          "exp.toml:17:1: [[bench]] 'sysbench-threads'.counters must name 1 to 32 perf events, or be true for the "
          "default set");
    CHECK(error_of(with_bench(sysbench + "counters = [\"cycles,instructions\"]")) ==
          "exp.toml:17:1: [[bench]] 'sysbench-threads'.counters: event 'cycles,instructions' has ',': an event name "
          "has letters, digits and - _ : . / = @ (one event a string)");
    CHECK(error_of(with_bench(sysbench + "counters = [1]")) ==
          "exp.toml:17:13: [[bench]] 'sysbench-threads'.counters must hold only strings, found an integer");
}
