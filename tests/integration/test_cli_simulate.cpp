// simulate --results: the copy of the results never deletes what bootbench
// did not write, and replaces a previous results folder only once the new
// one is complete.
#include "../unit/catch.hpp"
#include "../unit/error_of.hpp"
#include "sandbox_fixture.hpp"
#include "helpers.hpp"
#include "sys/store/files.hpp"
#include "sys/store/results_folder.hpp"

#include <sys/stat.h>

using namespace bootbench;
using namespace bootbench::test;

namespace {

// A folder with one file per name, each holding its own name.
void fill(const fs::path& dir, const std::vector<std::string>& names) {
    for (const auto& n : names) {
        fs::create_directories((dir / n).parent_path());
        sys::write_file_atomic(dir / n, n + "\n");
    }
}

bool siblings_left(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir.parent_path()))
        if (e.path().filename().string().find(dir.filename().string() + ".") == 0)
            return true;
    return false;
}

std::string refusal(const fs::path& dir, const std::string& problem) {
    return "cannot put the results in " + dir.string() + ": " + problem +
           "; bootbench replaces only a results folder of its own: give a new or empty folder with "
           "--results, or move those files out";
}

} // namespace

TEST_CASE("simulate --results refuses a folder of the user's before running anything",
          "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path exp = sb.dir / "exp.toml", dir = sb.dir / "mine";
    sys::write_file_atomic(exp, sb.text);
    fill(dir, {"thesis.tex", "data/raw.csv"});
    CliResult r = run_cli({"simulate", "--results", dir.string(), exp.string()});
    CHECK(r.status == 2);
    CHECK(r.err == "bootbench: error: " +
                       refusal(dir, dir.string() +
                                        " is not empty and is not a bootbench results folder (it "
                                        "has no .bootbench-results, nor runs/ and bootbench.log)") +
                       "\n");
    CHECK(sys::read_text_file(dir / "thesis.tex") == "thesis.tex\n");
    CHECK(sys::read_text_file(dir / "data/raw.csv") == "data/raw.csv\n");
}

TEST_CASE("simulate replaces its own results folder whole, and then only its own", "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path exp = sb.dir / "exp.toml", dir = sb.dir / "out" / "results";
    sys::write_file_atomic(exp, sb.text);
    CliResult first = run_cli({"simulate", "--results", dir.string(), exp.string()});
    INFO(first.err);
    REQUIRE(first.status == 0);
    CHECK(fs::exists(dir / "report.md"));
    CHECK(fs::exists(dir / "runs" / "a-1.json"));
    CHECK(fs::exists(dir / sys::kResultsMarker));
    // the verdicts as `report` prints them, and the four files kept
    CHECK(first.out.find("\nb vs a (baseline):\n  echo_value ") != std::string::npos);
    // a sandbox's runs measured this machine's kernel, whatever the targets: said first
    CHECK(first.out.find("not a measurement of the targets: Simulated on a sandbox (bootbench simulate)") !=
          std::string::npos);
    CHECK(sys::read_text_file(dir / "report.md").find("> **Not a measurement of the targets.** Simulated") !=
          std::string::npos);
    CHECK(first.out.find("\nreport: " + (dir / "report.md").string() +
                         " (and report.json, .svg, .html beside it)\n") != std::string::npos);
    for (const char* file : {"report.json", "report.svg", "report.html"})
        CHECK(fs::exists(dir / file));
    CHECK(first.err.find("holds earlier results") == std::string::npos);
    // a run of a sandbox that the next copy does not have
    sys::write_file_atomic(dir / "runs/zz-9.json", R"({"schema": "bootbench-run/1", "environment": {"sandbox": true}})");
    CliResult second = run_cli({"simulate", "--results", dir.string(), exp.string()});
    INFO(second.err);
    REQUIRE(second.status == 0);
    CHECK(second.err.find("bootbench: " + dir.string() +
                          " holds earlier results of bootbench: they are replaced when this simulation ends\n") !=
          std::string::npos);
    CHECK(fs::exists(dir / "report.md"));
    CHECK_FALSE(fs::exists(dir / "runs" / "zz-9.json"));
    CHECK_FALSE(siblings_left(dir));
    fill(dir, {"notes.txt"});
    CliResult third = run_cli({"simulate", "--results", dir.string(), exp.string()});
    CHECK(third.status == 2);
    CHECK(third.err ==
          "bootbench: error: " +
              refusal(dir, dir.string() + " holds files bootbench did not write (notes.txt)") +
              "\n");
    CHECK(sys::read_text_file(dir / "notes.txt") == "notes.txt\n");
}

TEST_CASE("simulate moves a real night's runs aside, never deletes them, and says where", "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path exp = sb.dir / "exp.toml", dir = sb.dir / "results";
    sys::write_file_atomic(exp, sb.text);
    // A night on a real machine (fetched, or copied here): its runs are no sandbox's.
    std::string night = R"({"schema": "bootbench-run/1", "environment": {"hostname": "lab1"}})";
    fill(dir, {"runs/a-1.json", "bootbench.log"});
    sys::write_file_atomic(dir / "runs/a-1.json", night);
    CliResult r = run_cli({"simulate", "--results", dir.string(), exp.string()});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("holds earlier results") == std::string::npos);
    std::string said = "bootbench: " + dir.string() + " holds runs of a real machine, not of a sandbox: moved "
                       "aside to " + dir.string() + ".before-";
    size_t at = r.err.find(said);
    REQUIRE(at != std::string::npos);
    std::string aside = r.err.substr(at + said.size() - dir.string().size() - 8);
    aside = aside.substr(0, aside.find(", "));
    CHECK(r.err.find(aside + ", where they stay; this simulation's results go to " + dir.string() + "\n") !=
          std::string::npos);
    CHECK(sys::read_text_file(fs::path(aside) / "runs/a-1.json") == night);
    CHECK(fs::exists(dir / "report.md"));
}

TEST_CASE("a results destination that is a file is refused", "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path file = sb.dir / "results";
    fill(sb.dir, {"results"});
    CHECK(error_of([&] { sys::check_results_destination(file); }) ==
          refusal(file, file.string() + " exists and is not a folder"));
    fs::create_directories(sb.dir / "empty");
    CHECK(error_of([&] { sys::check_results_destination(sb.dir / "empty"); }) == "(no error)");
    CHECK(error_of([&] { sys::check_results_destination(sb.dir / "new"); }) == "(no error)");
}

TEST_CASE("a copy that fails leaves the previous results as they were", "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path from = sb.dir / "from", dir = sb.dir / "results";
    fill(from, {"runs/a-1.json", "bootbench.log"});
    REQUIRE(::mkfifo((from / "runs" / "a-2.json").c_str(), 0600) ==
            0); // fs::copy cannot copy a fifo
    fill(dir, {"runs/old-1.json", "bootbench.log", sys::kResultsMarker});
    std::string msg = error_of([&] { sys::install_results_folder(from, dir); });
    CHECK(msg.find("cannot copy the results from " + from.string() + " to " + dir.string() +
                   ".new-") == 0);
    CHECK(msg.find("; " + dir.string() + " is unchanged") != std::string::npos);
    CHECK(sys::read_text_file(dir / "runs/old-1.json") == "runs/old-1.json\n");
    CHECK_FALSE(siblings_left(dir));
    fs::remove(from / "runs" / "a-2.json");
    CHECK(error_of([&] { sys::install_results_folder(from, dir); }) == "(no error)");
    CHECK(sys::read_text_file(dir / "runs/a-1.json") == "runs/a-1.json\n");
    CHECK_FALSE(fs::exists(dir / "runs/old-1.json"));
    CHECK(fs::exists(dir / sys::kResultsMarker));
    CHECK_FALSE(siblings_left(dir));
}

TEST_CASE("a results folder named with a trailing slash is replaced beside, not inside",
          "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path from = sb.dir / "from", dir = sb.dir / "results";
    fill(from, {"runs/a-1.json", "bootbench.log"});
    fill(dir, {"runs/old-1.json", "bootbench.log"});
    CHECK(error_of([&] { sys::install_results_folder(from, dir.string() + "/"); }) == "(no error)");
    CHECK(sys::read_text_file(dir / "runs/a-1.json") == "runs/a-1.json\n");
    CHECK_FALSE(fs::exists(dir / "runs/old-1.json"));
    for (const auto& e : fs::directory_iterator(dir))
        CHECK(e.path().filename().string().find(".new-") == std::string::npos);
    CHECK_FALSE(siblings_left(dir));
}

namespace {

// Runs `bootbench simulate` in the background, waits (bounded) for `go` to
// appear, sends SIGINT, and returns what it said and its exit status.
CliResult simulate_interrupted(const fs::path& dir, const fs::path& exp, const fs::path& results,
                               const fs::path& go, const std::string& options = "") {
    fs::path out = dir / "out.txt", err = dir / "err.txt", rc = dir / "rc.txt";
    std::string script = "TMPDIR='" + (dir / "tmp").string() + "' '" + BOOTBENCH_BIN +
                         "' simulate " + options + " --results '" + results.string() + "' '" + exp.string() + "' >'" +
                         out.string() + "' 2>'" + err.string() + "' & pid=$!\n"
                         "for i in $(seq 1 600); do [ -e '" + go.string() + "' ] && break; sleep 0.2; done\n"
                         "kill -INT $pid; wait $pid; echo $? >'" + rc.string() + "'\n";
    fs::create_directories(dir / "tmp");
    sys::write_file_atomic(dir / "interrupt.sh", script);
    testing::run_ok({"bash", (dir / "interrupt.sh").string()}, dir / "script.out", dir / "script.err");
    return {std::stoi(sys::read_text_file(rc)), sys::read_text_file(out), sys::read_text_file(err)};
}

// An experiment of 2 x 2 runs whose third bench (run a-2) touches `go` and
// then hangs until it is stopped.
void write_third_bench_hangs(const fs::path& dir, const fs::path& exp, const fs::path& go) {
    std::string bench = "n=$(ls " + dir.string() + "/m* 2>/dev/null | wc -l); touch " + dir.string() +
                        "/m$n; if [ $n -ge 2 ]; then touch " + go.string() + "; sleep 60; fi; echo value 42.5";
    std::string text = fast_experiment(2, "", "", bench);
    text.replace(text.find("timeout_s = 2"), 13, "timeout_s = 120");
    sys::write_file_atomic(exp, text);
}

} // namespace

TEST_CASE("Ctrl-C during simulate: the experiment is aborted, the runs so far are kept with a report, "
          "and the sandbox is removed", "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path exp = sb.dir / "exp.toml", results = sb.dir / "res", go = sb.dir / "go";
    write_third_bench_hangs(sb.dir, exp, go);
    CliResult r = simulate_interrupted(sb.dir, exp, results, go);
    CHECK(r.status == 130);
    CHECK(r.err.find("bootbench: interrupted by SIGINT after 2 of 4 runs: the experiment was aborted; "
                     "results so far (incomplete) in " + results.string() + "\n") != std::string::npos);
    CHECK(r.out == "report (incomplete): " + (results / "report.md").string() + "\n");
    // progress: one line as each run ends; the details (where each run
    // begins, conditions that only say "run", in one line) in the log
    CHECK(r.err.find("bootbench: run 1/4 (a): ok, echo ") != std::string::npos);
    CHECK(r.err.find("bootbench: run 2/4 (b): ok, echo ") != std::string::npos);
    CHECK(r.err.find("conditions: met") == std::string::npos);
    CHECK(r.err.find("bootbench: conditions: settle:") == std::string::npos);
    std::string log = sys::read_text_file(results / "bootbench.log");
    CHECK(log.find(" run 3/4 (a), about ") != std::string::npos);
    CHECK(log.find(" conditions: met: quiet (") != std::string::npos);
    CHECK(fs::exists(results / "runs/a-1.json"));
    CHECK(fs::exists(results / "runs/b-1.json"));
    CHECK_FALSE(fs::exists(results / "runs/a-2.json"));
    CHECK(fs::exists(results / "report.md"));
    // the report says it is not a finished experiment: title, banner, JSON
    const std::string why = "aborted by the user after 2 of 4 runs";
    std::string md = sys::read_text_file(results / "report.md");
    CHECK(md.rfind("# loop (incomplete)\n\n> **Incomplete: " + why + ".** The comparison is of the runs so "
                   "far, not of the experiment as planned.\n\n", 0) == 0);
    std::string json = sys::read_text_file(results / "report.json");
    CHECK(json.find("\"incomplete\": \"" + why + "\"") != std::string::npos);
    CHECK(json.find("\"title\": \"loop (incomplete)\"") != std::string::npos);
    CHECK(sys::read_text_file(results / "report.html").find("<strong>Incomplete: " + why + ".</strong>") !=
          std::string::npos);
    CHECK(fs::is_empty(sb.dir / "tmp")); // the throwaway sandbox is gone
}

TEST_CASE("a sandbox kept by simulate --sandbox answers status and abort after Ctrl-C", "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path exp = sb.dir / "exp.toml", results = sb.dir / "res", go = sb.dir / "go", kept = sb.dir / "kept";
    write_third_bench_hangs(sb.dir, exp, go);
    CliResult r = simulate_interrupted(sb.dir, exp, results, go, "--sandbox '" + kept.string() + "'");
    CHECK(r.status == 130);
    CHECK(r.err.find("bootbench: the sandbox is kept in " + kept.string() + "\n") != std::string::npos);
    CliResult status = run_cli({"status", "--sandbox", kept.string()});
    CHECK(status.status == 0);
    CHECK(status.out.find("aborted") != std::string::npos);
    CHECK(status.out.find("runs: 2 done, 0 failed, of 4\n  stopped: aborted by the user\n") != std::string::npos);
    // abort again: the machine (here the sandbox) is put back again, harmlessly.
    CliResult abort = run_cli({"abort", "--sandbox", kept.string()});
    CHECK(abort.status == 0);
    CHECK(abort.err.find("boots next; results kept in " + kept.string()) != std::string::npos);
    CHECK(run_cli({"status", "--sandbox", kept.string(), "--sysroot", "/"}).err ==
          "bootbench: error: --sandbox and --sysroot name two machines: give one\n");
    CHECK(run_cli({"status", "--sandbox", results.string()}).err ==
          "bootbench: error: " + results.string() + " is not a bootbench sandbox (no ostree/repo in it; "
          "simulate --sandbox DIR keeps one)\n");
    sys::remove_sandbox(kept);
}

TEST_CASE("status with no experiment on this machine says how to look at a simulation", "[simulate]") {
    if (fs::exists("/var/lib/bootbench/state.json")) {
        WARN("not checked: this machine has an experiment of its own");
        return;
    }
    CliResult r = run_cli({"status"});
    CHECK(r.out == "no experiment here (no state in /var/lib/bootbench)\n"
                   "a simulation keeps its state in its sandbox: bootbench status --sandbox DIR "
                   "(DIR is the folder simulate named when it started)\n");
}

// Issue 34 item 3: the terminal of `simulate` is one line a run and what
// needs a person; --verbose (or BOOTBENCH_VERBOSE=1) prints every detail,
// which the log has either way.
TEST_CASE("simulate says one line a run, --verbose every boot's details", "[simulate]") {
    Sandbox sb(fast_experiment(1));
    fs::path exp = sb.dir / "exp.toml", dir = sb.dir / "res";
    sys::write_file_atomic(exp, sb.text);
    CliResult brief = run_cli({"simulate", "--results", dir.string(), exp.string()});
    REQUIRE(brief.status == 0);
    for (const char* detail : {"--- boot ", "switching the default", "boot into ", "conditions: met",
                               "bench echo: running", "sleep inhibitor"})
        CHECK(brief.err.find(detail) == std::string::npos);
    CHECK(brief.err.find("bootbench: run 1/2 (a): ok, echo ") != std::string::npos);
    CHECK(brief.err.find("bootbench: run 2/2 (b): ok, echo ") != std::string::npos);
    CHECK(brief.err.find("; the last run\n") != std::string::npos);
    std::string log = sys::read_text_file(dir / "bootbench.log");
    CHECK(log.find(" conditions: met: ") != std::string::npos);
    CHECK(log.find(" bench echo: running ") != std::string::npos);
    CliResult verbose = run_cli({"simulate", "--verbose", "--results", dir.string(), exp.string()});
    REQUIRE(verbose.status == 0);
    for (const char* detail : {"--- boot 1: a\n", "bootbench: switching the default", "bootbench: conditions: met: ",
                               "bootbench: bench echo: running", "bootbench: run 1/2 (a): ok, echo "})
        CHECK(verbose.err.find(detail) != std::string::npos);
    // what to do next on a real machine, after the report
    CHECK(brief.out.find("\nnext, on the ostree machine to measure (Fedora Atomic, Universal Blue, bootc):\n"
                         "  bootbench doctor " + exp.string()) != std::string::npos);
    CHECK(brief.out.find("then sudo bootbench start " + exp.string() + "  (pins, installs the unit, reboots)\n") !=
          std::string::npos);
}

TEST_CASE("simulate's report says what differs between the arms: b's kernel argument", "[simulate][arms]") {
    Sandbox sb(fast_experiment(1, "", "kargs = [\"mitigations=off\"]\n"));
    fs::path exp = sb.dir / "exp.toml", dir = sb.dir / "results";
    sys::write_file_atomic(exp, sb.text);
    CliResult r = run_cli({"simulate", "--results", dir.string(), exp.string()});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(fs::exists(dir / "arms.json"));
    std::string md = sys::read_text_file(dir / "report.md");
    CHECK(md.find("## What differs between the arms") != std::string::npos);
    CHECK(md.find("| kernel arguments of the boot entry | (none beyond the common ones) | mitigations=off |") !=
          std::string::npos);
}
