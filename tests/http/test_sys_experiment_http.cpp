// Digests and notifications in a whole experiment: a sandbox run whose image
// target resolves against the loopback registry and whose notifications land
// in the loopback sink.
#include "../integration/sandbox_fixture.hpp"
#include "catch.hpp"
#include "loopback_server.hpp"
#include "core/base/error.hpp"
#include "core/result/run_result.hpp"
#include "sys/store/files.hpp"
#include "sys/net/images.hpp"

#include <cstdlib>
#include <sstream>

using namespace bootbench;
using namespace bootbench::test;

TEST_CASE("an experiment records its image digests and notifies start, runs and end", "[http][experiment]") {
    std::string text = fast_experiment(1);
    text.replace(text.find("ghcr.io/x/b:stable"), 18, "ghcr.io/auth/index:stable");
    text += "\n[notify]\nurl = \"" + loopback().base() + "/notify/e2e\"\nformat = \"json\"\n";
    Sandbox sb(text);
    ::setenv("BOOTBENCH_REGISTRY_URL", loopback().base().c_str(), 1);
    std::ostringstream out;
    nlohmann::json images = sys::resolve_images(sb.experiment, out, sys::DigestPolicy::required);
    ::unsetenv("BOOTBENCH_REGISTRY_URL");
    REQUIRE(images.contains("b"));
    CHECK_FALSE(images.contains("a")); // a is selected by refspec
    std::string digest = images["b"]["index_digest"];
    CHECK(digest.rfind("sha256:", 0) == 0);
    CHECK(out.str().find("  b: ostree-image-signed:docker://ghcr.io/auth/index:stable is " + digest + " (linux/") == 0);

    sb.start(images);
    sb.boot_until_done();
    CHECK(sb.state().images["b"] == images["b"]);
    auto b1 = core::run_result_from_json(nlohmann::json::parse(sb.result_files().at("b-1")), "b-1");
    CHECK(core::to_json(b1.image.value()) == images["b"]); // every result names the exact image
    auto a1 = core::run_result_from_json(nlohmann::json::parse(sb.result_files().at("a-1")), "a-1");
    CHECK_FALSE(a1.image);
    auto report = nlohmann::json::parse(sys::read_text_file(sb.results() / "report.json"));
    for (const auto& t : report["targets"])
        if (t["name"] == "b")
            CHECK(t["images"] == nlohmann::json::array({images["b"]["pinned_reference"]})); // the report names it

    std::vector<std::string> events;
    for (const auto& req : loopback().requests("/notify/e2e"))
        events.push_back(nlohmann::json::parse(req["body"].get<std::string>())["event"]);
    CHECK(events == std::vector<std::string>{"start", "run", "run", "finish"});
}

TEST_CASE("a pin_digest target whose digest cannot be resolved stops start", "[http][experiment]") {
    std::string text = fast_experiment(1, "", "pin_digest = true\n");
    text.replace(text.find("ghcr.io/x/b:stable"), 18, "ghcr.io/private/x:stable");
    Sandbox sb(text);
    ::setenv("BOOTBENCH_REGISTRY_URL", loopback().base().c_str(), 1);
    std::ostringstream out;
    try {
        sys::resolve_images(sb.experiment, out, sys::DigestPolicy::required);
        FAIL("resolved a private image");
    } catch (const Error& e) {
        std::string msg = e.what();
        CHECK(msg.rfind("target 'b': cannot resolve", 0) == 0);
        CHECK(msg.find("(pin_digest = true needs the digest)") != std::string::npos);
    }
    // Without pin_digest the tag alone is recorded and the experiment goes on.
    nlohmann::json images = sys::resolve_images(
        core::parse_experiment(fast_experiment(1), "x.toml"), out, sys::DigestPolicy::required);
    ::unsetenv("BOOTBENCH_REGISTRY_URL");
    CHECK(images.empty());
    CHECK(out.str().find("b: digest not resolved, results name the tag only") != std::string::npos);
}

TEST_CASE("a pin_digest target with stage = true starts after its one staging", "[http][experiment][stage]") {
    Sandbox sb(fast_experiment(1)); // b's deployment is ghcr.io/x/b:stable: the image below is not deployed
    std::string text = fast_experiment(1, "", "stage = true\npin_digest = true\n");
    text.replace(text.find("ghcr.io/x/b:stable"), 18, "ghcr.io/auth/index:stable");
    fs::path file = sb.dir / "exp.toml";
    sys::write_file_atomic(file, text);
    ::setenv("BOOTBENCH_REGISTRY_URL", loopback().base().c_str(), 1);
    std::ostringstream out;
    nlohmann::json images = sys::resolve_images(core::parse_experiment(text, "x.toml"), out, sys::DigestPolicy::required);
    std::string index = images["b"]["index_digest"], manifest = images["b"]["manifest_digest"];
    // ostree-rs-ext records the platform manifest's digest on the commit
    std::map<std::string, std::string> env = {{"STANDIN_DIGEST", manifest}};

    CliResult staged = run_on_sandbox(sb, {"start", file.string()}, env);
    INFO(staged.out << staged.err);
    CHECK(staged.status == 0);
    CHECK(sys::read_text_file(sb.dir / "bootc-calls") ==
          "switch --retain --enforce-container-sigpolicy ghcr.io/auth/index@" + index + "\n");
    sb.boot();
    CliResult started = run_on_sandbox(sb, {"start", file.string()}, env);
    ::unsetenv("BOOTBENCH_REGISTRY_URL");
    INFO(started.out << started.err);
    CHECK(started.status == 0);
    CHECK(started.out.find("staged") == std::string::npos);
    CHECK(started.out.find("(image ghcr.io/auth/index:stable at " + index + ")\n") != std::string::npos);
    CHECK(sys::read_text_file(sb.dir / "bootc-calls") ==
          "switch --retain --enforce-container-sigpolicy ghcr.io/auth/index@" + index + "\n"); // once
    sb.boot_until_done();
    auto b1 = core::run_result_from_json(nlohmann::json::parse(sb.result_files().at("b-1")), "b-1");
    CHECK(b1.status == core::RunStatus::ok); // the booted digest is the one recorded
    CHECK(core::to_json(b1.image.value()) == images["b"]);
    sys::SandboxHost h = sb.host();
    CHECK(h.sysroot().default_deployment().ref == sb.layout.host_default);
}
