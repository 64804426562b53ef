// bootbench bisect on the sandbox: `simulate` of a bisect file builds a ref
// history of 8 builds whose trees differ, a `command` bench reads the booted
// build's number from its tree and measures less from build 4 on (a 15%
// regression in 3% noise), and the whole search runs with emulated reboots:
// the builds deployed when the search asks for them, the culprit named, the
// machine back as it was. Then `bisect --dry-run` on the kept sandbox, and
// the bad-input paths with the messages the user sees.
#include "../unit/catch.hpp"
#include "helpers.hpp"
#include "sandbox_fixture.hpp"
#include "core/base/json_bounds.hpp"
#include "core/bisect/bisect_run.hpp"
#include "core/state/state.hpp"
#include "sys/ostree/sandbox.hpp"
#include "sys/store/files.hpp"

using namespace bootbench;
using namespace bootbench::test;

namespace {

// The booted build's number, then 1000 less 150 from build 4 on, plus 0-29.
std::string bisect_file(const std::string& bisect_keys) {
    return sandbox_bisect_file("which-build", 4, bisect_keys);
}

const char* kSandboxKeys = "good = { refspec = \"fedora:fedora/43/x86_64/silverblue\", commit = \"3f2a\" }\n"
                           "bad = { refspec = \"fedora:fedora/43/x86_64/silverblue\" }\n"
                           "metric = \"work_done\"\n";

fs::path write_file(const fs::path& dir, const std::string& name, const std::string& text) {
    fs::create_directories(dir);
    sys::write_file_atomic(dir / name, text);
    return dir / name;
}

core::State final_state(const fs::path& sandbox) {
    for (const auto& e : fs::recursive_directory_iterator(sandbox / "ostree/deploy"))
        if (e.path().filename() == "state.json" && e.path().parent_path().filename() == "bootbench")
            return core::state_from_json(core::parse_bounded_json(sys::read_text_file(e.path()), "state"), "state");
    FAIL("no state.json in the sandbox");
    return {};
}

} // namespace

TEST_CASE("simulate of a bisect file names the build that made it slower", "[bisect]") {
    testing::TempDir tmp;
    fs::path file = write_file(tmp.path(), "bisect.toml", bisect_file(kSandboxKeys));
    fs::path sandbox = tmp.path() / "sandbox", results = tmp.path() / "results";
    CliResult r = run_cli({"simulate", "--sandbox", sandbox.string(), "--results", results.string(), file.string()});
    INFO(r.out + r.err);
    REQUIRE(r.status == 0);
    core::State s = final_state(sandbox);
    core::BisectRun run = core::bisect_run_from_json(s.bisect, "state");
    REQUIRE(run.labels.size() == 8);
    CHECK(run.search.outcome == core::BisectOutcome::culprit);
    CHECK(run.search.first_bad == 4);
    CHECK(run.search.last_good == 3);
    CHECK(r.out.find("bisect: " + run.labels[4] + " is the first bad build: against " + run.labels[3]) !=
          std::string::npos);
    CHECK(s.phase == core::Phase::finished);
    // only the builds the search asked for were deployed, and none is left
    CHECK(s.targets.size() < 8);
    // each build the search asked for is said as it is deployed (good and bad at start)
    for (const auto& t : s.targets)
        if (t.target != run.labels[0] && t.target != run.labels[7])
            CHECK(r.err.find("bootbench: bisect: deployed build " + t.target + " (") != std::string::npos);
    CHECK(r.err.find("the sandbox's history: 8 builds of ") != std::string::npos);
    CHECK(fs::exists(results / "runs" / (run.labels[0] + "-1.json")));
    for (const char* f : {"bisect.md", "bisect.svg", "bisect.html", "bisect.json", "report.md"})
        CHECK(fs::exists(results / f));
    CHECK(sys::read_text_file(results / "bisect.md").find("**Culprit: " + run.labels[4] + " is the first bad build") !=
          std::string::npos);
    CHECK(r.out.find("bisect report: " + (results / "bisect.md").string()) != std::string::npos);

    CliResult st = run_cli({"status", "--sandbox", sandbox.string()});
    CHECK(st.out.find("\nbisect: done after 5 decisions: " + run.labels[4] + " is the first bad build") !=
          std::string::npos);

    // the same history, as `bisect` lists it on the kept sandbox's sysroot
    std::string ref = "{ refspec = \"sandbox:bisect\", commit = \"";
    std::string keys = "good = " + ref + run.commits[0].substr(0, 8) + "\" }\nbad = " + ref + run.commits[7] +
                       "\" }\nmetric = \"work_done\"\n";
    fs::path dry = write_file(tmp.path(), "dry.toml", bisect_file(keys));
    CliResult d = run_cli({"bisect", "--dry-run", "--sysroot", sandbox.string(), dry.string()});
    INFO(d.out + d.err);
    CHECK(d.status == 0);
    CHECK(d.out.find("  " + run.labels[0] + " (good)  ") != std::string::npos);
    CHECK(d.out.find("sandbox build 3\n") != std::string::npos);
    CHECK(d.out.find("the search: 6 builds between good and bad, 3 steps; 52 runs (one boot each)") !=
          std::string::npos);
    CHECK(d.out.find("dry run: nothing is changed.") != std::string::npos);

    // fewer runs a decision, for a regression far above the noise: the plan counts them
    fs::path fewer =
        write_file(tmp.path(), "fewer.toml",
                   bisect_file(keys + "endpoint_runs = 5\nstep_runs = 5\nconfirm_runs = 2\n"));
    CliResult fr = run_cli({"bisect", "--dry-run", "--sysroot", sandbox.string(), fewer.string()});
    INFO(fr.out + fr.err);
    CHECK(fr.status == 0);
    CHECK(fr.out.find(
              "the search: 6 builds between good and bad, 3 steps; 29 runs (one boot each)") !=
          std::string::npos); // 2 x 5 + 3 x 5 + 2 x 2
    CHECK(fr.out.find("; at most 218 runs (") != std::string::npos);

    // a candidate that is not in the ref's history between good and bad
    fs::path listed = write_file(tmp.path(), "listed.toml",
                                 bisect_file(keys + "candidates = [\"" + run.commits[2].substr(0, 10) +
                                             "\", \"" + run.commits[0].substr(0, 10) + "\"]\n"));
    CliResult l = run_cli({"bisect", "--dry-run", "--sysroot", sandbox.string(), listed.string()});
    CHECK(l.status == 2);
    CHECK(l.err == "bootbench: error: bisect.candidates: '" + run.commits[0].substr(0, 10) +
                       "' is not a commit between good and bad in the history of the ref (6 commits there)\n");
    sys::remove_sandbox(sandbox);
}

TEST_CASE("plan, start and run-suite send a bisect file to bisect and simulate", "[bisect]") {
    testing::TempDir tmp;
    fs::path file = write_file(tmp.path(), "bisect.toml", bisect_file(kSandboxKeys));
    for (const char* cmd : {"plan", "start"}) {
        CliResult r = run_cli({cmd, file.string()});
        CHECK(r.status == 2);
        CHECK(r.err == "bootbench: error: " + file.string() +
                           " is a bisect file (it has a [bisect] table): plan it with 'bootbench bisect --dry-run " +
                           file.string() + "', rehearse it with 'bootbench simulate " + file.string() +
                           "', run it with 'bootbench bisect " + file.string() + "'\n");
    }
}

TEST_CASE("an image bisection whose registry cannot be reached says so, before changing anything", "[bisect]") {
    Sandbox sb(fast_experiment(1));
    fs::path images = write_file(sb.dir, "images.toml",
                                 bisect_file("good = { image = \"ghcr.io/x/y:stable-1\" }\n"
                                             "bad = { image = \"ghcr.io/x/y:stable-9\" }\n"
                                             "candidates = [\"ghcr.io/x/y:stable-3\", \"ghcr.io/x/y:stable-5\"]\n"
                                             "metric = \"work_done\"\n"));
    fs::create_directories(sb.dir / "bin"); // ostree-container played by its stand-in: Debian has none
    fs::create_symlink(STANDIN_OSTREE, sb.dir / "bin" / "ostree");
    CliResult r = run_on_sandbox(sb, {"bisect", images.string()}); // the registry: a refused port (meson.build)
    INFO(r.out + r.err);
    CHECK(r.status == 1);
    CHECK(r.err.rfind("bootbench: error: cannot read the image config of ghcr.io/x/y:stable-1: ", 0) == 0);
    CHECK(r.err.find("127.0.0.1:9") != std::string::npos);
    CHECK_FALSE(fs::exists(sb.paths().state()));
    CHECK(sb.host().sysroot().default_deployment().ref == sb.layout.host_default);
}
