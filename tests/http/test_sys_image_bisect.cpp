// bootbench bisect over an image's registry builds, on a sandbox: the
// loopback registry's hist/os history (its tags listed page by page, each
// image's config read for its creation time), the builds pinned by digest
// and imported through tests/integration/standin_ostree.sh as
// `ostree container image pull` would, a `command` bench that measures 15%
// less from the third build on (the value the stand-in put in each image's
// tree), and the whole search run with emulated reboots: the culprit named
// by its tag, the machine back as it was. Then the bad-input paths.
#include "../integration/sandbox_fixture.hpp"
#include "catch.hpp"
#include "loopback_server.hpp"
#include "core/bisect/bisect_run.hpp"
#include "sys/store/files.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

using namespace bootbench;
using namespace bootbench::test;

namespace {

// The booted build's value, then 1000 less 150 from build 2 on, plus 0-29.
std::string image_bisect_file(const std::string& keys) {
    return sandbox_bisect_file("which-image", 2, "metric = \"work_done\"\n" + keys);
}

std::string endpoints(const std::string& good, const std::string& bad) {
    return "good = { image = \"quay.io/hist/os:" + good + "\" }\nbad = { image = \"quay.io/hist/os:" + bad +
           "\" }\n";
}

const std::string kKeys = endpoints("stable-20261101", "stable-20261122") +
                          "tags = \"stable-202611[01]*\"\nendpoint_runs = 5\nstep_runs = 5\nconfirm_runs = 2\n";

// The sandbox with `ostree` the stand-in (its pulls in <dir>/bootc-calls) and
// the bisect file; the environment its commands and boots need.
std::map<std::string, std::string> prepare(Sandbox& sb, const std::string& keys) {
    fs::create_directories(sb.dir / "bin");
    if (!fs::exists(fs::symlink_status(sb.dir / "bin" / "ostree")))
        fs::create_symlink(STANDIN_OSTREE, sb.dir / "bin" / "ostree");
    sys::write_file_atomic(sb.dir / "bisect.toml", image_bisect_file(keys));
    return {{"BOOTBENCH_REGISTRY_URL", loopback().base()}};
}

// The builds' labels as `bisect` lists them, oldest first.
std::vector<std::string> listed_labels(const std::string& out) {
    std::vector<std::string> labels;
    std::istringstream in(out.substr(out.find("oldest first:\n")));
    for (std::string line; std::getline(in, line);)
        if (line.rfind("  ", 0) == 0 && line.size() > 14)
            labels.push_back(line.substr(2, 12));
    return labels;
}

// No image ref the stand-in made is left in the sandbox's repo.
void testing_refs_gone(Sandbox& sb) {
    std::string refs = (sb.dir / "refs.out").string();
    std::string cmd = "ostree refs --repo=" + (sb.layout.sysroot / "ostree/repo").string() + " > " + refs;
    REQUIRE(std::system(cmd.c_str()) == 0);
    CHECK(sys::read_text_file(refs).find("standin-container/") == std::string::npos);
}

std::string file_of(Sandbox& sb) {
    return (sb.dir / "bisect.toml").string();
}

} // namespace

TEST_CASE("an image's registry builds bisected on a sandbox name the build that made it slower", "[http][bisect]") {
    Sandbox sb(fast_experiment(1));
    auto env = prepare(sb, kKeys);
    CliResult dry = run_on_sandbox(sb, {"bisect", "--dry-run", file_of(sb)}, env);
    INFO(dry.out + dry.err);
    REQUIRE(dry.status == 0);
    CHECK(dry.out.find("reading the images of 4 tags of quay.io/hist/os (good's, bad's and stable-202611[01]*)\n") !=
          std::string::npos);
    // oldest first by creation time, each with its version label and tag
    size_t at = 0;
    for (const char* day : {"01", "08", "15", "22"}) {
        size_t next = dry.out.find("43.202611" + std::string(day) + ".0  stable-202611" + day + "\n", at);
        CHECK(next != std::string::npos);
        at = next == std::string::npos ? at : next;
    }
    CHECK(dry.out.find("the search: 2 builds between good and bad") != std::string::npos);
    std::vector<std::string> labels = listed_labels(dry.out);
    REQUIRE(labels.size() == 4);

    env["STANDIN_IMAGE_VALUES"] = labels[0] + "=0 " + labels[1] + "=1 " + labels[2] + "=2 " + labels[3] + "=3";
    CliResult start = run_on_sandbox(sb, {"bisect", file_of(sb)}, env);
    INFO(start.out + start.err);
    REQUIRE(start.status == 0);
    // good and bad pulled by digest, into the sandbox's repo
    std::string repo = (sb.layout.sysroot / "ostree/repo").string();
    std::string pulls = sys::read_text_file(sb.dir / "bootc-calls");
    CHECK(pulls == "ostree container image pull " + repo + " ostree-unverified-registry:quay.io/hist/os@sha256:" +
                       labels[0] + pulls.substr(pulls.find(labels[0]) + 12, 52) + "\n" +
                       "ostree container image pull " + repo + " ostree-unverified-registry:quay.io/hist/os@sha256:" +
                       labels[3] + pulls.substr(pulls.find(labels[3]) + 12, 52) + "\n");
    {
        sys::SandboxHost h = sb.host();
        int images = 0;
        for (const auto& d : h.sysroot().deployments())
            if (d.kargs_for == labels[0] || d.kargs_for == labels[3]) {
                CHECK(d.image.rfind("ostree-unverified-registry:quay.io/hist/os@sha256:" + d.kargs_for, 0) == 0);
                CHECK(d.pinned);
                // the unit's time allows the next build's pull at the end of a run
                std::string unit = sys::read_text_file(h.etc_dir(d.ref) / "systemd/system/bootbench-resume.service");
                size_t max = unit.find("RuntimeMaxSec=");
                REQUIRE(max != std::string::npos);
                CHECK(std::stoi(unit.substr(max + 14)) > 3600 + 600);
                ++images;
            }
        CHECK(images == 2);
    }

    ScopedEnv during({{"PATH", (sb.dir / "bin").string() + ":" + std::getenv("PATH")},
                       {"STANDIN_CALLS", (sb.dir / "bootc-calls").string()},
                       {"STANDIN_IMAGE_VALUES", env["STANDIN_IMAGE_VALUES"]}});
    sb.boot_until_done(80);
    core::State s = sb.state();
    core::BisectRun run = core::bisect_run_from_json(s.bisect, "state");
    CHECK(run.search.outcome == core::BisectOutcome::culprit);
    CHECK(run.search.first_bad == 2);
    CHECK(run.search.last_good == 1);
    CHECK(run.images[2].find("@sha256:" + labels[2]) != std::string::npos);
    fs::path results = sb.paths().results("which-image");
    std::string md = sys::read_text_file(results / "bisect.md");
    CHECK(md.find("**Culprit: " + labels[2] + " is the first bad build") != std::string::npos);
    CHECK(md.find("stable-20261115") != std::string::npos); // the culprit's tag
    CHECK(s.phase == core::Phase::finished);
    sys::SandboxHost h = sb.host();
    CHECK(h.sysroot().default_deployment().ref == sb.layout.host_default);
    for (const auto& d : h.sysroot().deployments())
        CHECK(d.image.find("hist/os") == std::string::npos); // every build removed
    CHECK(no_units_left(sb));
    // the images it imported are dropped from the repo: every build deployed, by its base reference
    std::string calls = sys::read_text_file(sb.dir / "bootc-calls");
    REQUIRE(calls.find("ostree container image remove") != std::string::npos);
    std::string removed = calls.substr(calls.rfind("ostree container image remove"));
    for (const auto& t : s.targets)
        CHECK(removed.find(" registry:quay.io/hist/os@sha256:" + t.target) != std::string::npos);
    CHECK(std::count(removed.begin(), removed.end(), '@') == static_cast<long>(s.targets.size()));
    CHECK(sys::read_text_file(sb.dir / "bootc-calls").find("standin: ") == std::string::npos);
    testing_refs_gone(sb);
}

TEST_CASE("an image history that cannot be bisected says why, before anything changes", "[http][bisect]") {
    Sandbox sb(fast_experiment(1));
    auto refused = [&](const std::string& keys, int status, const std::string& message) {
        auto env = prepare(sb, keys);
        CliResult r = run_on_sandbox(sb, {"bisect", file_of(sb)}, env);
        INFO(r.out + r.err);
        CHECK(r.status == status);
        CHECK(r.err == "bootbench: error: " + message + "\n");
        CHECK_FALSE(fs::exists(sb.paths().state()));
    };
    // stable-20261129's config has no creation time
    refused(endpoints("stable-20261101", "stable-20261122") + "tags = \"stable-*\"\n", 2,
            "the build quay.io/hist/os:stable-20261129 has no creation time in its image config: its place in "
            "the history is unknown; list the builds between good and bad in bisect.candidates, oldest first");
    refused(endpoints("stable-20261031", "stable-20261122") + "tags = \"stable-*\"\n", 2,
            "bisect.good's tag 'stable-20261031' is not a tag of quay.io/hist/os");
    refused(endpoints("stable-20261122", "stable-20261101") + "tags = \"stable-202611[01]*\"\n", 2,
            "bisect.good (quay.io/hist/os:stable-20261122, created 2026-11-22T04:10:00Z) is not older than "
            "bisect.bad (stable-20261101, created 2026-11-01T04:10:00Z): good must be the earlier build");
    refused(endpoints("stable-20261101", "stable-20261115") + "tags = \"stable-202611[01]*\"\n", 2,
            "nothing to bisect: quay.io/hist/os has 1 build between good 'stable-20261101' and bad "
            "'stable-20261115'; bisect needs at least 2 (with fewer, compare good and bad with 'bootbench start')");
    refused("good = { image = \"quay.io/hist/os:stable-20261101\" }\nbad = { image = \"quay.io/other/os:v2\" }\n"
            "tags = \"stable-*\"\n",
            2, "bisect.bad 'quay.io/other/os:v2' is not an image of quay.io/hist/os (bisect.good's): a bisect "
               "follows one image's builds");
    auto env = prepare(sb, endpoints("stable-20261101", "stable-20261122") +
                               "candidates = [\"quay.io/hist/os:stable-20261129\", \"quay.io/hist/os:latest\"]\n");
    CliResult twice = run_on_sandbox(sb, {"bisect", file_of(sb)}, env);
    CHECK(twice.status == 2);
    CHECK(twice.err.rfind("bootbench: error: quay.io/hist/os:stable-20261129 and latest are one image (sha256:", 0) == 0);
    CHECK(twice.err.find("): list each build once\n") != std::string::npos);
}

TEST_CASE("an image's listed builds are taken as written, each pinned by digest", "[http][bisect]") {
    Sandbox sb(fast_experiment(1));
    auto env = prepare(sb, endpoints("stable-20261101", "stable-20261122") +
                               "candidates = [\"quay.io/hist/os:stable-20261115\", "
                               "\"quay.io/hist/os:stable-20261108\"]\n");
    CliResult dry = run_on_sandbox(sb, {"bisect", "--dry-run", file_of(sb)}, env);
    INFO(dry.out + dry.err);
    REQUIRE(dry.status == 0);
    size_t at15 = dry.out.find("  stable-20261115\n"), at08 = dry.out.find("  stable-20261108\n");
    CHECK(at15 != std::string::npos);
    CHECK(at08 != std::string::npos);
    CHECK(at15 < at08); // the user's order, not the registry's times
    CHECK(dry.out.find("reading the images") == std::string::npos); // no tag list read
    CHECK(listed_labels(dry.out).size() == 4);
}

TEST_CASE("an image bisection without ostree-container says so before it asks the registry", "[http][bisect]") {
    Sandbox sb(fast_experiment(1));
    auto env = prepare(sb, kKeys);
    fs::remove(sb.dir / "bin" / "ostree"); // Debian's ostree alone: no `container` command
    CliResult r = run_on_sandbox(sb, {"bisect", "--dry-run", file_of(sb)}, env);
    INFO(r.out + r.err);
    CHECK(r.status == 2);
    CHECK(r.err.rfind("bootbench: error: bisect over an image's builds imports each with ostree-container "
                      "('ostree container', which rpm-ostree and bootc install), but 'ostree container image list' "
                      "failed here (exited with status ",
                      0) == 0); // 1 for Debian 12's ostree ("Unknown command"); its words vary by release
    CHECK(r.out.find("reading the images") == std::string::npos);
}

TEST_CASE("an image build whose pull fails stops the start with what ostree-container said", "[http][bisect]") {
    Sandbox sb(fast_experiment(1));
    auto env = prepare(sb, kKeys);
    env["STANDIN_PULL_EXIT"] = "1";
    CliResult r = run_on_sandbox(sb, {"bisect", file_of(sb)}, env);
    INFO(r.out + r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("pulling the image ostree-unverified-registry:quay.io/hist/os@sha256:") != std::string::npos);
    CHECK(r.err.find("(ostree container image pull) failed (exited with status 1): error: Importing: Fetching manifest: "
                     "unauthorized") != std::string::npos);
    CliResult abort = run_on_sandbox(sb, {"abort"}, {});
    INFO(abort.out + abort.err);
    CHECK(abort.status == 0);
    sys::SandboxHost h = sb.host();
    CHECK(h.sysroot().default_deployment().ref == sb.layout.host_default);
    CHECK(no_units_left(sb));
}
