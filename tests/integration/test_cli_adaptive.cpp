// An adaptive experiment on the sandbox (simulate --quick): it stops for the
// reason its rule gives, and the report, the results and status say why.
#include "../unit/catch.hpp"
#include "sandbox_fixture.hpp"
#include "sys/store/files.hpp"
#include "sys/ostree/sandbox.hpp"
#include "sys/store/state_store.hpp"

using namespace bootbench;
using namespace bootbench::test;

namespace {

// fast_experiment with `runs` (a table) and `keys` in [experiment].
std::string night(const std::string& runs, const std::string& keys) {
    std::string text = fast_experiment(1, keys);
    return text.replace(text.find("runs = 1\n"), 9, "runs = " + runs + "\n");
}

CliResult simulate(const Sandbox& sb, const std::string& text, const fs::path& results, const fs::path& kept) {
    fs::path exp = sb.dir / "night.toml";
    sys::write_file_atomic(exp, text);
    return run_cli({"simulate", "--quick", "--results", results.string(), "--sandbox", kept.string(), exp.string()});
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("simulate: an adaptive experiment whose primary metric is exact stops at min on precision",
          "[simulate][adaptive]") {
    Sandbox sb(fast_experiment(1));
    fs::path results = sb.dir / "res", kept = sb.dir / "kept";
    // echo gives 42.5 in every run: the interval is 1.00x to 1.00x from 6 runs on
    CliResult r = simulate(sb, night("{ min = 6, max = 9 }", "precision = 0.02\nprimary = [\"echo_value\"]\n"),
                           results, kept);
    INFO(r.err);
    REQUIRE(r.status == 0);
    const std::string why = "every primary metric within +-2% after 6 rounds";
    CHECK(fs::exists(results / "runs/a-6.json"));
    CHECK(fs::exists(results / "runs/b-6.json"));
    CHECK_FALSE(fs::exists(results / "runs/a-7.json"));
    CHECK(has(r.out, "stopped: " + why + "\n"));
    CHECK(has(sys::read_text_file(results / "report.md"), "*Stopped: " + why + ".*"));
    CHECK(has(sys::read_text_file(results / "report.json"), "\"stopped\": \"" + why + "\""));
    CHECK(has(sys::read_text_file(results / "adaptive.json"), "\"stopped\": \"" + why + "\""));
    CHECK(has(sys::read_text_file(results / "bootbench.log"), "round 6 added"));
    CliResult status = run_cli({"status", "--sandbox", kept.string()});
    CHECK(has(status.out, "  stopped: " + why + "\n"));
    CHECK(has(status.out, "  rounds: min 6, max 9\n  precision (target +-2%):\n    echo_value (b): +-0% ok\n"));
    CliResult json = run_cli({"status", "--json", "--sandbox", kept.string()});
    CHECK(has(json.out, "\"half_width\": 0.0"));
    CHECK(has(json.out, "\"rounds\": 6"));
    CliResult report = run_cli({"report", results.string()});
    CHECK(has(report.out, "stopped: " + why + "\n"));
    sys::remove_sandbox(kept);
}

TEST_CASE("simulate: an adaptive experiment without a precision target stops at max", "[simulate][adaptive]") {
    Sandbox sb(fast_experiment(1));
    fs::path results = sb.dir / "res", kept = sb.dir / "kept";
    CliResult r = simulate(sb, night("{ min = 2, max = 3 }", "order = \"counterbalanced\"\n"), results, kept);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(fs::exists(results / "runs/b-3.json"));
    CHECK_FALSE(fs::exists(results / "runs/a-4.json"));
    CHECK(has(r.out, "stopped: max 3 runs reached\n"));
    CHECK(has(sys::read_text_file(results / "report.md"), "*Stopped: max 3 runs reached.*"));
    // counterbalanced rounds: a b, b a, a b
    std::string log = sys::read_text_file(results / "bootbench.log");
    CHECK(log.find("run b-2") < log.find("run a-2"));
    CHECK(log.find("run a-3") < log.find("run b-3"));
    sys::remove_sandbox(kept);
}

TEST_CASE("plan prints the rounds, and how many fit before until", "[simulate][adaptive]") {
    Sandbox sb(fast_experiment(1));
    fs::path exp = sb.dir / "night.toml";
    sys::write_file_atomic(exp, night("{ min = 6, max = 9 }", "until = \"06:30\"\nprecision = 0.05\n"));
    CliResult r = run_cli({"plan", exp.string()});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has(r.out, "  2 targets x 6 to 9 runs, order interleaved"));
    CHECK(has(r.out, "\nrounds (one run per target each): min 6, max 9, stopping when every primary metric is "
                     "within +-5%; the run order above is the longest night\nuntil 06:30: "));
    CHECK(has(r.out, " per round): ")); // the rest depends on the time now: core/sizing/adaptive's until_text
    CHECK(has(r.out, "  18. b-9\n"));
}

TEST_CASE("an adaptive experiment past its until stops after the round that ran, and says so",
          "[loop][adaptive]") {
    Sandbox sb(night("{ min = 2, max = 5 }", "until = \"06:30\"\n"));
    sb.start();
    // started a minute before a 06:30 long gone: every next round ends after it
    core::State s = sb.state();
    s.started_at = "2020-01-01T06:29:00+00:00";
    sys::save_state(sb.paths().state(), s);
    sb.boot_until_done();
    core::State end = sb.state();
    CHECK(end.phase == core::Phase::finished);
    CHECK(end.runs.size() == 2); // the round under way was finished, none started after
    CHECK(end.stopped_because == "the next round would end after 06:30");
    CHECK(end.stop_reason.empty());
    CHECK(has(sys::read_text_file(sb.results() / "report.md"), "*Stopped: the next round would end after 06:30.*"));
}
