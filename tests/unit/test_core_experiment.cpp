#include "catch.hpp"
#include "core/error.hpp"
#include "core/experiment.hpp"

#include <string>

using namespace bootbench;
using namespace bootbench::core;

namespace {

const std::string kValid = R"([experiment]
name = "kern-ab"
runs = 2
baseline = "a"

[[target]]
name = "a"
refspec = "fedora:fedora/x86_64/silverblue"

[[target]]
name = "b"
image = "ostree-image-signed:docker://ghcr.io/x/y:stable"
kargs = ["mitigations=off"]

[[bench]]
kind = "perf-sched-pipe"
)";

// The message parse_experiment reports for `text`, or "" when it is valid.
std::string error_of(const std::string& text) {
    try {
        parse_experiment(text, "exp.toml");
    } catch (const Error& e) {
        CHECK(e.code() == ExitCode::bad_input);
        return e.what();
    }
    return "";
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
    auto pos = text.find(from);
    REQUIRE(pos != std::string::npos);
    return text.replace(pos, from.size(), to);
}

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
          "exp.toml:3:1: experiment.runs must be at least 1, not 0");
}

TEST_CASE("missing tables and keys", "[experiment]") {
    CHECK(error_of(replace(kValid, "name = \"kern-ab\"\n", "")) ==
          "exp.toml:1:1: missing experiment.name");
    CHECK(error_of("[[target]]\nname = \"a\"\ndeployment = 0\n[[target]]\nname = \"b\"\n"
                   "deployment = 1\n[[bench]]\nkind = \"schbench\"\n") ==
          "exp.toml:1:1: missing [experiment] table");
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
          "\"sysbench-threads\", \"schbench\", \"command\", not \"perf-pipe\"");
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
    for (const char* name : {"demo.toml", "margine-vs-bluefin.toml"}) {
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
    }
}
