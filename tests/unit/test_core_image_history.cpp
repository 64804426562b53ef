// An image's history for bisect (core/bisect/image_history): the tags to
// read, the builds ordered by creation time between good and bad, tags of
// one image folded, each build pinned by digest; what ostree-container's
// pull prints (core/image/container_pull); and an image bisection's record.
#include "catch.hpp"
#include "core/bisect/bisect_run.hpp"
#include "core/bisect/image_history.hpp"
#include "core/image/container_pull.hpp"
#include "error_of.hpp"

#include <string>
#include <vector>

using namespace bootbench;
using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

std::string file(const std::string& bisect_body) {
    return "[experiment]\nname = \"which-build\"\n\n[[bench]]\nkind = \"sysbench-threads\"\n\n[bisect]\n" +
           bisect_body + "metric = \"sysbench_events\"\n";
}

BisectConfig tags_config(const std::string& good = "quay.io/x/os:stable-2", const std::string& bad = "quay.io/x/os:stable-6") {
    return parse_bisect(file("good = { image = \"" + good + "\" }\nbad = { image = \"" + bad +
                             "\" }\ntags = \"stable-*\"\n"),
                        "b.toml")
        .bisect;
}

std::string digest(char c) {
    return "sha256:" + std::string(64, c);
}

// stable-1 .. stable-7, created a day apart; `latest` is stable-7's image.
std::vector<ImageBuild> registry() {
    std::vector<ImageBuild> out;
    for (int i = 1; i <= 7; ++i)
        out.push_back({"stable-" + std::to_string(i), digest(static_cast<char>('0' + i)),
                       "2026-11-0" + std::to_string(i) + "T04:00:00Z", "43." + std::to_string(i)});
    out.push_back({"latest", digest('7'), "2026-11-07T04:00:00Z", "43.7"});
    return out;
}

std::vector<std::string> tags_of(const std::vector<ImageBuild>& builds) {
    std::vector<std::string> out;
    for (const auto& b : builds)
        out.push_back(b.tag);
    return out;
}

} // namespace

TEST_CASE("the tags read are good's, bad's and those the glob matches, once each", "[image-history]") {
    BisectConfig c = tags_config("quay.io/x/os:nightly-1", "quay.io/x/os:stable-6");
    CHECK(tags_to_describe(c, {"latest", "stable-1", "nightly-1", "stable-6", "stable-1", "testing-3"}) ==
          std::vector<std::string>{"stable-1", "nightly-1", "stable-6"});
}

TEST_CASE("the builds between good and bad, oldest first by creation time", "[image-history]") {
    std::vector<ImageBuild> listed = registry();
    std::swap(listed[1], listed[5]); // the registry lists tags in its own order
    auto builds = order_image_builds(listed, "stable-2", "stable-6", "quay.io/x/os");
    CHECK(tags_of(builds) == std::vector<std::string>{"stable-2", "stable-3", "stable-4", "stable-5", "stable-6"});
}

TEST_CASE("times are compared as instants, not as text", "[image-history]") {
    std::vector<ImageBuild> listed = registry();
    listed[2].created = "2026-11-03T01:00:00+05:00"; // stable-3: 2026-11-02T20:00Z
    listed[1].created = "2026-11-02T21:00:00Z";      // stable-2: an hour later, though earlier as text
    auto builds = order_image_builds(listed, "stable-1", "stable-6", "quay.io/x/os");
    CHECK(tags_of(builds) ==
          std::vector<std::string>{"stable-1", "stable-3", "stable-2", "stable-4", "stable-5", "stable-6"});
}

TEST_CASE("tags of one image are one build; good's and bad's tags stay", "[image-history]") {
    std::vector<ImageBuild> listed = registry();
    listed.push_back({"release-3", digest('3'), "2026-11-03T04:00:00Z", "43.3"}); // stable-3 again
    auto builds = order_image_builds(listed, "stable-1", "latest", "quay.io/x/os"); // latest is stable-7
    CHECK(tags_of(builds) ==
          std::vector<std::string>{"stable-1", "stable-2", "stable-3", "stable-4", "stable-5", "stable-6", "latest"});
}

TEST_CASE("an image history that cannot be bisected says why", "[image-history]") {
    auto order = [](std::vector<ImageBuild> b, const char* good, const char* bad) {
        return error_of([&] { order_image_builds(b, good, bad, "quay.io/x/os"); });
    };
    CHECK(order(registry(), "stable-9", "stable-6") == "bisect.good's tag 'stable-9' is not a tag of quay.io/x/os");
    CHECK(order(registry(), "stable-1", "stable-0") == "bisect.bad's tag 'stable-0' is not a tag of quay.io/x/os");
    CHECK(order(registry(), "stable-6", "stable-2") ==
          "bisect.good (quay.io/x/os:stable-6, created 2026-11-06T04:00:00Z) is not older than bisect.bad "
          "(stable-2, created 2026-11-02T04:00:00Z): good must be the earlier build");
    CHECK(order(registry(), "stable-7", "latest") ==
          "bisect.good (stable-7) and bisect.bad (latest) are one image of quay.io/x/os (" + digest('7') +
              "): nothing to bisect");
    CHECK(order(registry(), "stable-2", "stable-4") ==
          "nothing to bisect: quay.io/x/os has 1 build between good 'stable-2' and bad 'stable-4'; bisect needs at "
          "least 2 (with fewer, compare good and bad with 'bootbench start')");
    std::vector<ImageBuild> reproducible = registry();
    for (auto& b : reproducible)
        b.created = "1970-01-01T00:00:00Z";
    CHECK(order(reproducible, "stable-1", "stable-6") ==
          "the builds quay.io/x/os:stable-1 and stable-2 were both created at 1970-01-01T00:00:00Z: their order in "
          "the history is unknown; list the builds between good and bad in bisect.candidates, oldest first");
    std::vector<ImageBuild> outside = registry(); // a tie outside good..bad is no matter
    outside[6].created = outside[5].created;
    CHECK(tags_of(order_image_builds(outside, "stable-1", "stable-5", "quay.io/x/os")).size() == 5);
    std::vector<ImageBuild> undated = registry();
    undated[3].created = "";
    CHECK(order(undated, "stable-1", "stable-6") ==
          "the build quay.io/x/os:stable-4 has no creation time in its image config: its place in the history is "
          "unknown; list the builds between good and bad in bisect.candidates, oldest first");
}

TEST_CASE("good, bad and the candidates must be builds of one repository", "[image-history]") {
    CHECK(bisect_image_repository(tags_config()).repository == "x/os");
    CHECK(error_of([] { bisect_image_repository(tags_config("quay.io/x/os:stable-2", "ghcr.io/x/os:stable-6")); }) ==
          "bisect.bad 'ghcr.io/x/os:stable-6' is not an image of quay.io/x/os (bisect.good's): a bisect follows "
          "one image's builds");
    BisectConfig listed =
        parse_bisect(file("good = { image = \"quay.io/x/os:a\" }\nbad = { image = \"quay.io/x/os:d\" }\n"
                          "candidates = [\"quay.io/x/os:b\", \"quay.io/y/os:c\"]\n"),
                     "b.toml")
            .bisect;
    CHECK(error_of([&] { bisect_image_repository(listed); }) ==
          "bisect.candidates: 'quay.io/y/os:c' is not an image of quay.io/x/os (bisect.good's): a bisect follows "
          "one image's builds");
    CHECK(error_of([] { endpoint_tag({SelectorKind::image, "", "", "quay.io/x/os@" + digest('1'), {}}, "good"); }) ==
          "bisect.good 'quay.io/x/os@" + digest('1') +
              "' names a digest: give the tag it was built as (e.g. :stable-20261101), so that it can be placed "
              "among the registry's tags");
}

TEST_CASE("listed builds are kept as written, but one image twice is refused", "[image-history]") {
    std::vector<ImageBuild> b = registry();
    CHECK_NOTHROW(check_listed_builds({b[0], b[3], b[1], b[5]}, "quay.io/x/os"));
    CHECK(error_of([&] { check_listed_builds({b[0], b[6], b[2], b[7]}, "quay.io/x/os"); }) ==
          "quay.io/x/os:stable-7 and latest are one image (" + digest('7') + "): list each build once");
}

TEST_CASE("a build is deployed from its repository pinned by digest, through ostree-container", "[image-history]") {
    ImageBuild b = registry()[2];
    CHECK(pinned_image(parse_image_ref("quay.io/x/os:stable-3"), b) ==
          "ostree-unverified-registry:quay.io/x/os@" + digest('3'));
    CHECK(pinned_image(parse_image_ref("docker://quay.io/x/os:stable-3"), b) ==
          "ostree-unverified-registry:quay.io/x/os@" + digest('3'));
    CHECK(pinned_image(parse_image_ref("ostree-image-signed:docker://quay.io/x/os:stable-3"), b) ==
          "ostree-image-signed:docker://quay.io/x/os@" + digest('3'));
    CommitInfo info = image_build_info(b);
    CHECK(info.checksum == std::string(64, '3'));
    CHECK(info.subject == "stable-3");
    CHECK(info.version == "43.3");
    CHECK(info.timestamp == "2026-11-03T04:00:00+00:00");
}

TEST_CASE("the commit ostree-container's pull wrote, or found already there", "[image-history]") {
    std::string c(64, 'a');
    CHECK(container_pull_argv("/sysroot/ostree/repo", "ostree-unverified-registry:q/x@sha256:1") ==
          std::vector<std::string>{"ostree", "container", "image", "pull", "/sysroot/ostree/repo",
                                   "ostree-unverified-registry:q/x@sha256:1"});
    CHECK(pulled_commit("layers already present: 3; layers needed: 2 (1.2 GB)\nWrote: ostree-unverified-registry:"
                        "q/x@sha256:1 => " + c + "\n") == c);
    CHECK(pulled_commit("No changes in ostree-unverified-registry:q/x@sha256:1 => " + c + "\n") == c);
    CHECK_FALSE(pulled_commit("Wrote: x => " + std::string(63, 'a') + "\n"));
    CHECK_FALSE(pulled_commit("fetching layer 3 => 40%\n"));
    CHECK_FALSE(pulled_commit(""));
}

TEST_CASE("the images a bisection pulled are removed by their base reference", "[image-history]") {
    CHECK(base_image_ref("ostree-unverified-registry:quay.io/x/os@sha256:1") == "registry:quay.io/x/os@sha256:1");
    CHECK(base_image_ref("ostree-unverified-image:docker://quay.io/x/os@sha256:1") == "docker://quay.io/x/os@sha256:1");
    CHECK(base_image_ref("ostree-image-signed:docker://quay.io/x/os@sha256:1") == "docker://quay.io/x/os@sha256:1");
    CHECK(base_image_ref("ostree-remote-image:fedora:docker://quay.io/x/os@sha256:1") ==
          "docker://quay.io/x/os@sha256:1");
    CHECK(base_image_ref("ostree-remote-registry:fedora:quay.io/x/os@sha256:1") == "registry:quay.io/x/os@sha256:1");
    CHECK(container_list_argv("/r") == std::vector<std::string>{"ostree", "container", "image", "list", "--repo", "/r"});
    CHECK(container_remove_argv("/r", {"ostree-unverified-registry:q/a@sha256:1", "ostree-image-signed:docker://q/a@sha256:2"}) ==
          std::vector<std::string>{"ostree", "container", "image", "remove", "--repo", "/r", "registry:q/a@sha256:1",
                                   "docker://q/a@sha256:2"});
}

TEST_CASE("an image bisection's record keeps each build's pinned image", "[image-history]") {
    BisectFile f = parse_bisect(file("good = { image = \"quay.io/x/os:stable-1\" }\nbad = { image = "
                                     "\"quay.io/x/os:stable-6\" }\ntags = \"stable-*\"\n"),
                                "b.toml");
    std::vector<ImageBuild> builds = order_image_builds(registry(), "stable-1", "stable-6", "quay.io/x/os");
    std::vector<CommitInfo> history;
    std::vector<std::string> images;
    for (const auto& b : builds) {
        history.push_back(image_build_info(b));
        images.push_back(pinned_image(parse_image_ref("quay.io/x/os"), b));
    }
    BisectRun run = begin_bisect_run(f, "quay.io/x/os", history, 7, images);
    CHECK(run.labels.front() == std::string(12, '1'));
    Experiment e = bisect_experiment(f.experiment, run);
    CHECK(e.targets[2].selector.kind == SelectorKind::image);
    CHECK(e.targets[2].selector.value == "ostree-unverified-registry:quay.io/x/os@" + digest('3'));
    BisectRun back = bisect_run_from_json(to_json(run), "state.json bisect");
    CHECK(back.images == run.images);
    CHECK(back.history[3].subject == "stable-4");
    nlohmann::json bad = to_json(run);
    bad["images"].erase(0);
    CHECK(error_of([&] { bisect_run_from_json(bad, "state.json bisect"); }).find(
              "images must have one entry per commit") != std::string::npos);
    bad = to_json(run);
    bad["images"][1] = "Not An Image";
    CHECK(error_of([&] { bisect_run_from_json(bad, "state.json bisect"); }).find(
              "'Not An Image' in images is not an image reference") != std::string::npos);
    nlohmann::json ref_run = to_json(run);
    ref_run.erase("images");
    CHECK(bisect_run_from_json(ref_run, "state.json bisect").images.empty());
}
