// Targets that `start` stages (stage = true) on sandbox sysroots, with a
// stand-in bootc that deploys through the real ostree the way finalizing a
// staged deployment does (tests/integration/standin_bootc.sh): what survives
// each staging, the end state, layered packages.
#include "../unit/catch.hpp"
#include "core/result/run_result.hpp"
#include "sandbox_fixture.hpp"
#include "helpers.hpp"
#include "sys/store/files.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

using namespace bootbench;
using namespace bootbench::test;

namespace {

// fast_experiment(1) with `targets` in place of its own: image targets
// ghcr.io/x/<name>:1, each with `keys`.
std::string image_targets(const std::vector<std::string>& targets, const std::string& keys = "stage = true\n") {
    std::string text = fast_experiment(1);
    size_t from = text.find("\n[[target]]"), to = text.find("\n[conditions]");
    std::string tables;
    for (const auto& t : targets)
        tables += "\n[[target]]\nname = \"" + t + "\"\nimage = \"ghcr.io/x/" + t + ":1\"\n" + keys;
    text.replace(from, to - from, tables);
    text.replace(text.find("baseline = \"a\""), 14, "baseline = \"" + targets.front() + "\"");
    return text;
}

fs::path write_experiment(Sandbox& sb, const std::string& text) {
    fs::path path = sb.dir / "exp.toml";
    sys::write_file_atomic(path, text);
    return path;
}

std::vector<core::DeploymentInfo> deployments(Sandbox& sb) {
    sys::SandboxHost h = sb.host();
    return h.sysroot().deployments();
}

std::optional<core::DeploymentInfo> find(Sandbox& sb, const core::DeploymentRef& ref) {
    for (const auto& d : deployments(sb))
        if (d.ref == ref)
            return d;
    return std::nullopt;
}

std::optional<core::DeploymentInfo> of_image(Sandbox& sb, const std::string& name) {
    for (const auto& d : deployments(sb))
        if (d.image.find("ghcr.io/x/" + name + ":") != std::string::npos)
            return d;
    return std::nullopt;
}

// `start` again after every staging and its reboot, as the user is told to;
// returns how many stagings it took (at most `limit`) and the last output.
int start_until_started(Sandbox& sb, const fs::path& file, CliResult& last, int limit = 6,
                        const std::map<std::string, std::string>& env = {}) {
    for (int stagings = 0; stagings <= limit; ++stagings) {
        last = run_on_sandbox(sb, {"start", file.string()}, env);
        if (last.status != 0 || last.out.find("\nstaged ") == std::string::npos)
            return stagings;
        sb.boot(); // the reboot that makes the staged deployment real
    }
    return limit + 1;
}

} // namespace

TEST_CASE("staging two targets keeps the user's default; the end is the user's default and pins", "[staging]") {
    Sandbox sb(fast_experiment(1)); // host (the default), a and b
    {
        sys::SandboxHost h = sb.host();
        h.sysroot().set_pinned(sb.layout.targets.at("a"), true); // the user's own pin
    }
    fs::path file = write_experiment(sb, image_targets({"p", "q"}));
    CliResult last;
    CHECK(start_until_started(sb, file, last) == 2);
    INFO(last.out << last.err);
    REQUIRE(last.status == 0);
    REQUIRE(of_image(sb, "p"));
    REQUIRE(of_image(sb, "q"));
    CHECK(sb.state().original_default == sb.layout.host_default);
    CHECK_FALSE(fs::exists(sb.paths().dir / "staging.json")); // the state holds the pins now
    sb.boot_until_done();
    CHECK(sb.state().phase == core::Phase::finished);
    auto host = find(sb, sb.layout.host_default);
    REQUIRE(host);
    CHECK(host->index == 0);
    CHECK_FALSE(host->pinned);
    CHECK(find(sb, sb.layout.targets.at("a"))->pinned); // the user's pin stays
    CHECK_FALSE(of_image(sb, "p")->pinned);
    CHECK_FALSE(of_image(sb, "q")->pinned);
    CHECK(sb.result_files().size() == 2);
}

TEST_CASE("staging three targets converges: no staging deletes a target staged before", "[staging]") {
    Sandbox sb(fast_experiment(1));
    fs::path file = write_experiment(sb, image_targets({"p", "q", "r"}));
    CliResult last;
    CHECK(start_until_started(sb, file, last) == 3);
    INFO(last.out << last.err);
    REQUIRE(last.status == 0);
    CHECK(sys::read_text_file(sb.dir / "bootc-calls") ==
          "switch --retain ghcr.io/x/p:1\nswitch --retain ghcr.io/x/q:1\nswitch --retain ghcr.io/x/r:1\n");
    sb.boot_until_done();
    CHECK(sb.result_files().size() == 3);
    CHECK(find(sb, sb.layout.host_default)->index == 0); // the default again
    for (const auto& d : deployments(sb))
        CHECK_FALSE(d.pinned);
}

TEST_CASE("a failed staging undoes its pins; abort between stagings puts the user's default back", "[staging]") {
    Sandbox sb(fast_experiment(1));
    fs::path file = write_experiment(sb, image_targets({"p", "q"}));
    std::string before = core::describe_all(deployments(sb));
    CliResult failed = run_on_sandbox(sb, {"start", file.string()}, {{"BOOTC_EXIT", "3"}});
    CHECK(failed.status == 1);
    CHECK(failed.err == "bootbench: error: staging failed: 'bootc switch --retain ghcr.io/x/p:1' exited with 3; "
                        "the pins made for it are undone, nothing else was changed\n");
    CHECK(core::describe_all(deployments(sb)) == before);
    CHECK_FALSE(fs::exists(sb.paths().dir / "staging.json"));

    CliResult staged = run_on_sandbox(sb, {"start", file.string()});
    REQUIRE(staged.status == 0);
    CHECK(staged.out.find("pinning " + core::describe(sb.layout.host_default) +
                          " so that the staging does not delete it (unpinned at the end)\n") != std::string::npos);
    sb.boot();
    std::string text = image_targets({"p", "q"});
    text.replace(text.find("name = \"loop\""), 13, "name = \"other\"");
    sys::write_file_atomic(sb.dir / "other.toml", text);
    std::string listing = tree_listing(sb.layout.sysroot);
    CliResult other = run_on_sandbox(sb, {"start", (sb.dir / "other.toml").string()});
    CHECK(other.status == 2);
    CHECK(other.err == "bootbench: error: targets of experiment 'loop' were staged here and it has not started (" +
                           (sb.paths().dir / "staging.json").string() +
                           " lists the deployments it pinned): finish it with its own 'bootbench start', or undo "
                           "its pins with 'bootbench abort'\n");
    CHECK(tree_listing(sb.layout.sysroot) == listing);

    CliResult aborted = run_on_sandbox(sb, {"abort"});
    INFO(aborted.err);
    CHECK(aborted.status == 0);
    CHECK(aborted.out == "experiment loop had not started: " + core::describe(sb.layout.host_default) +
                             " is the default again, and the pins bootbench made for staging are removed (1 pin)\n");
    CHECK(find(sb, sb.layout.host_default)->index == 0);
    for (const auto& d : deployments(sb))
        CHECK_FALSE(d.pinned);
    CHECK_FALSE(fs::exists(sb.paths().dir / "staging.json"));
}

TEST_CASE("an image target on a deployment with layered packages is refused unless allow_layered", "[staging][layered]") {
    Sandbox sb(fast_experiment(1)); // a (a refspec) is deployed; b will be an image with layered packages
    std::string text = fast_experiment(1, "", "stage = true\n");
    text.replace(text.find("ghcr.io/x/b:stable"), 18, "ghcr.io/x/l:1");
    fs::path file = write_experiment(sb, text);
    CliResult last;
    CHECK(start_until_started(sb, file, last, 6, {{"STANDIN_LAYERED", "htop vim"}}) == 1);
    auto l = of_image(sb, "l");
    REQUIRE(l);
    CHECK(l->layering.packages == std::vector<std::string>{"htop", "vim"});
    CHECK(l->image_digest.rfind("sha256:", 0) == 0); // the image's, from the parent commit
    CHECK(last.status == 2);
    CHECK(last.err == "bootbench: error: cannot start: target 'b' is the image ghcr.io/x/l:1, but its deployment " +
                          core::describe(l->ref) + " has packages layered on the image by rpm-ostree (packages "
                          "htop, vim): its runs would measure them as the image. Remove them from that deployment "
                          "('rpm-ostree uninstall' or 'rpm-ostree reset' when it is booted), or set allow_layered = "
                          "true in target 'b' to measure the deployment as it is (the report names the packages)\n");
    std::string listing = tree_listing(sb.layout.sysroot);
    CHECK(run_on_sandbox(sb, {"start", file.string()}).status == 2);
    CHECK(tree_listing(sb.layout.sysroot) == listing);

    text.insert(text.find("\n", text.find("ghcr.io/x/l:1")) + 1, "allow_layered = true\n");
    CliResult allowed = run_on_sandbox(sb, {"start", write_experiment(sb, text).string()});
    INFO(allowed.err);
    REQUIRE(allowed.status == 0);
    sb.boot_until_done();
    auto b1 = core::run_result_from_json(nlohmann::json::parse(sb.result_files().at("b-1")), "b-1");
    CHECK(b1.deployment.layering.packages == std::vector<std::string>{"htop", "vim"});
    auto a1 = core::run_result_from_json(nlohmann::json::parse(sb.result_files().at("a-1")), "a-1");
    CHECK_FALSE(a1.deployment.layering.layered);
    CHECK(sys::read_text_file(sb.results() / "report.md")
              .find("*Layered on the image by rpm-ostree (measured with it): b: packages htop, vim.*") !=
          std::string::npos);
    CHECK(find(sb, sb.layout.host_default)->index == 0);
}

TEST_CASE("an update finalized during the experiment cannot delete the user's default", "[staging]") {
    Sandbox sb(fast_experiment(1));
    sb.start();
    CHECK(find(sb, sb.layout.host_default)->pinned); // for the whole experiment
    sb.boot(); // the first run; the second one's target is the default now
    // An update service stages an image and the shutdown finalizes it.
    testing::run_ok({STANDIN_BOOTC, "switch", "ghcr.io/x/update:1"}, sb.dir / "update.out", sb.dir / "update.err",
                    {{"BOOTBENCH_SANDBOX", sb.layout.sysroot.string()}, {"STANDIN_CALLS", (sb.dir / "update-calls").string()}});
    sb.boot_until_done();
    CHECK(sb.state().phase == core::Phase::finished);
    CHECK(sb.result_files().size() == 2);
    auto host = find(sb, sb.layout.host_default);
    REQUIRE(host);
    CHECK(host->index == 0);
    CHECK_FALSE(host->pinned);
}
