// The experiment file as hostile input, through the binary: what is not a
// regular file, files too large, NUL bytes; and `simulate --quick` applied to
// the parsed experiment whatever the file's text says.
#include "catch.hpp"
#include "helpers.hpp"
#include "sys/process/subprocess.hpp"

#include <nlohmann/json.hpp>
#include <sys/stat.h>

using namespace bootbench;
using testing::TempDir;
namespace fs = std::filesystem;

namespace {

struct Cli {
    sys::ProcessEnd end = sys::ProcessEnd::exited;
    int status = -1;
    std::string out;
    std::string err;
};

// A refused file must be refused at once: the limit only ends a hang.
Cli bootbench_cli(const TempDir& dir, std::vector<std::string> args, double limit_s = 30) {
    args.insert(args.begin(), BOOTBENCH_EXE);
    sys::ProcessSpec spec{args, dir.path() / "cli.out", dir.path() / "cli.err", limit_s};
    auto o = sys::run_process(spec);
    return {o.end, o.exit_status, testing::read(spec.stdout_path), testing::read(spec.stderr_path)};
}

// Two sandbox targets; `experiment_header` is the [experiment] line as written.
std::string experiment_text(const std::string& experiment_header, const std::string& extra = "") {
    return "# a rehearsal file\n" + experiment_header + "\nname = \"quick-test\"\nruns = 1\n" +
           "baseline = \"a\"\n" + extra +
           "\n[[target]]\nname = \"a\"\nrefspec = \"sandbox:test/a\"\n"
           "\n[[target]]\nname = \"b\"\nrefspec = \"sandbox:test/b\"\n"
           "\n[conditions]\nsettle_s = 2\nmax_start_temp_c = 200.0\ntemp_wait_timeout_s = 1\n"
           "\n[[bench]]\nkind = \"perf-sched-pipe\"\nloops = 20000\n";
}

} // namespace

TEST_CASE("an experiment file that is a folder is refused, exit 2", "[cli][input]") {
    TempDir dir;
    std::string path = dir.path().string();
    for (const char* verb : {"plan", "simulate", "start"}) {
        Cli r = bootbench_cli(dir, {verb, path});
        CHECK(r.status == 2);
        CHECK(r.err == "bootbench: error: " + path +
                           ": not a regular file (a directory); give the path of the experiment file\n");
    }
}

TEST_CASE("an experiment file that is a FIFO is refused at once, never read", "[cli][input]") {
    TempDir dir;
    fs::path fifo = dir.path() / "exp.toml";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    Cli r = bootbench_cli(dir, {"plan", fifo.string()}, 10);
    CHECK(r.end == sys::ProcessEnd::exited);
    CHECK(r.status == 2);
    CHECK(r.err == "bootbench: error: " + fifo.string() +
                       ": not a regular file (a FIFO); give the path of the experiment file\n");
}

TEST_CASE("a device as the experiment file is refused without reading it", "[cli][input]") {
    TempDir dir;
    Cli r = bootbench_cli(dir, {"plan", "/dev/zero"}, 10);
    CHECK(r.end == sys::ProcessEnd::exited);
    CHECK(r.status == 2);
    CHECK(r.err == "bootbench: error: /dev/zero: not a regular file (a character device); give the path "
                   "of the experiment file\n");
}

TEST_CASE("an experiment file over 1 MiB is refused", "[cli][input]") {
    TempDir dir;
    fs::path file = dir.path() / "big.toml";
    testing::write(file, experiment_text("[experiment]") + std::string(1024 * 1024, '#'));
    Cli r = bootbench_cli(dir, {"plan", file.string()});
    CHECK(r.status == 2);
    CHECK(r.err == "bootbench: error: " + file.string() +
                       ": larger than 1048576 bytes (1 MiB), the most the experiment file may have\n");
    fs::resize_file(file, 1024 * 1024); // at the limit: a valid file (one long comment)
    Cli at_limit = bootbench_cli(dir, {"plan", file.string()});
    CHECK(at_limit.status == 0);
    CHECK(at_limit.out.find("quick-test") != std::string::npos);
}

TEST_CASE("a NUL in the experiment file is reported whole and at its position", "[cli][input]") {
    TempDir dir;
    fs::path file = dir.path() / "nul.toml";
    std::string text = experiment_text("[experiment]");
    text.replace(text.find("quick-test"), 10, std::string("quick\0test", 10));
    testing::write(file, text);
    Cli raw = bootbench_cli(dir, {"plan", file.string()});
    CHECK(raw.status == 2);
    CHECK(raw.err.rfind("bootbench: error: " + file.string() + ":3:14: syntax error: ", 0) == 0);
    CHECK(raw.err.back() == '\n');
    CHECK(raw.err.find('\0') == std::string::npos);

    text = experiment_text("[experiment]");
    text.replace(text.find("quick-test"), 10, "quick\\u0000test\\u001b[2J");
    testing::write(file, text);
    Cli escaped = bootbench_cli(dir, {"plan", file.string()});
    CHECK(escaped.status == 2);
    CHECK(escaped.err == "bootbench: error: " + file.string() +
                             ":3:1: experiment.name 'quick\\u0000test\\u001B[2J' is not a valid name: "
                             "use 1 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or "
                             "digit, without '/' or '..'\n");
}

namespace {

// simulate --quick on `text`; every run's perf-sched-pipe must have the quick
// loop count and the settle time of a rehearsal.
void check_quick_simulation(const std::string& text) {
    TempDir dir;
    testing::write(dir.path() / "exp.toml", text);
    fs::path results = dir.path() / "results";
    Cli r = bootbench_cli(dir, {"simulate", "--quick", (dir.path() / "exp.toml").string(),
                                "--results", results.string()},
                          300);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(testing::read(results / "experiment.toml") == text); // kept as written
    for (const char* run : {"a-1", "b-1"}) {
        auto j = nlohmann::json::parse(testing::read(results / "runs" / (std::string(run) + ".json")));
        INFO(j.dump(2));
        CHECK(j["status"] == "ok");
        CHECK(j["benches"][0]["argv"] ==
              nlohmann::json::array({"perf", "bench", "sched", "pipe", "-l", "1000"}));
        bool settle_zero = false;
        for (const auto& c : j["conditions"])
            settle_zero = settle_zero || (c["check"] == "settle" && c["wanted"] == "0 s after boot");
        CHECK(settle_zero);
    }
}

} // namespace

TEST_CASE("simulate --quick on a file with quick = false: every boot runs the rehearsal",
          "[cli][quick]") {
    check_quick_simulation(experiment_text("[experiment]", "quick = false\n"));
}

TEST_CASE("simulate --quick on a file whose table is written [ experiment ]", "[cli][quick]") {
    check_quick_simulation(experiment_text("[ experiment ]"));
}

// 2 runs of (a 60 s boot + the 2 s settle + 0.7 s of perf) on a machine;
// as a simulation 2 x (0.5 s + 0.7 s): no reboot and no settle to wait for.
TEST_CASE("plan estimates the night on a machine and the same file as a simulation", "[cli]") {
    TempDir dir;
    testing::write(dir.path() / "exp.toml", experiment_text("[experiment]"));
    Cli r = bootbench_cli(dir, {"plan", (dir.path() / "exp.toml").string()});
    CHECK(r.status == 0);
    CHECK(r.out.find("\nestimate: 2 min 05 s (1 min 03 s per run, assuming 1 min 00 s per boot; waits for "
                     "the CPU to cool are extra)\nas a simulation (bootbench simulate, no reboots): 2 s\n") !=
          std::string::npos);
}
