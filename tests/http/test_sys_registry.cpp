#include "error_of.hpp"
#include "catch.hpp"
#include "core/base/error.hpp"
#include "loopback_server.hpp"
#include "sys/net/registry.hpp"

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>

using namespace bootbench;
using namespace bootbench::sys;
using bootbench::core::ImageRef;
using bootbench::core::parse_image_ref;
using bootbench::core::Platform;
using bootbench::test::loopback;

namespace {

const Platform kAmd64{"linux", "amd64", ""};
const Platform kArm64 = core::platform_from_machine("aarch64");
const std::string kAdvice = "bootbench resolves digests anonymously only: for a private image set "
                            "pin_digest = false for this target, or select it by checksum";

// The digests as the server computed them (Python's hashlib, not our code).
const nlohmann::json& digests() {
    static const nlohmann::json d = [] {
        CurlHttpClient http;
        HttpRequest req;
        req.url = loopback().base() + "/digests";
        return nlohmann::json::parse(http.request(req).body);
    }();
    return d;
}
std::string digest_of(const char* name) {
    return digests()[name].get<std::string>();
}

RegistryOptions at(const std::string& base, double timeout_s, const std::string& ca_file = "") {
    RegistryOptions o;
    o.base_url = base;
    o.timeout_s = timeout_s;
    o.connect_timeout_s = timeout_s;
    o.ca_file = ca_file;
    return o;
}

RegistryOptions on_loopback(double timeout_s = 10) {
    return at(loopback().base(), timeout_s);
}

core::ResolvedImage resolve(const std::string& image, const Platform& p = kAmd64,
                            double timeout_s = 10) {
    CurlHttpClient http;
    return resolve_digest(parse_image_ref(image), http, p, on_loopback(timeout_s));
}

using bootbench::test::error_of;

std::string manifests_url(const std::string& repo, const std::string& sel) {
    return loopback().base() + "/v2/" + repo + "/manifests/" + sel;
}

} // namespace

TEST_CASE("a tag that names an image manifest resolves with one HEAD", "[registry]") {
    size_t before = loopback().requests("/v2/open/plain/").size();
    auto r = resolve("ostree-image-signed:docker://ghcr.io/open/plain:v1");
    CHECK(r.manifest_digest == digest_of("plain"));
    CHECK(r.index_digest.empty());
    CHECK(r.reference == "ostree-image-signed:docker://ghcr.io/open/plain:v1");
    CHECK(r.pinned_reference ==
          "ostree-image-signed:docker://ghcr.io/open/plain@" + digest_of("plain"));
    CHECK(r.platform == "linux/amd64");
    auto seen = loopback().requests("/v2/open/plain/");
    REQUIRE(seen.size() == before + 1);
    CHECK(seen.back()["method"] == "HEAD");
    std::string accept = seen.back()["headers"]["Accept"];
    for (const char* type :
         {core::kOciIndex, core::kDockerList, core::kOciManifest, core::kDockerManifest})
        CHECK(accept.find(type) != std::string::npos);
}

TEST_CASE("the anonymous token flow and an OCI index", "[registry]") {
    size_t before = loopback().requests("/v2/auth/index/").size();
    size_t tokens_before = loopback().requests("/token?").size();
    auto r = resolve("ostree-unverified-registry:ghcr.io/auth/index:stable");
    CHECK(r.index_digest == digest_of("index"));
    CHECK(r.manifest_digest == digest_of("amd64"));
    CHECK(r.pinned_reference ==
          "ostree-unverified-registry:ghcr.io/auth/index@" + digest_of("index"));

    auto seen = loopback().requests("/v2/auth/index/");
    REQUIRE(seen.size() == before + 3); // HEAD 401, HEAD with token, GET the index by digest
    CHECK(seen[before]["method"] == "HEAD");
    CHECK_FALSE(seen[before]["headers"].contains("Authorization"));
    CHECK(seen[before + 1]["headers"]["Authorization"] == "Bearer tok-auth/index");
    CHECK(seen[before + 2]["method"] == "GET");
    CHECK(seen[before + 2]["path"] == "/v2/auth/index/manifests/" + digest_of("index"));
    CHECK(seen[before + 2]["headers"]["Authorization"] == "Bearer tok-auth/index");
    auto tokens = loopback().requests("/token?");
    REQUIRE(tokens.size() == tokens_before + 1);
    CHECK(tokens.back()["path"] ==
          "/token?service=fake-registry&scope=repository%3Aauth%2Findex%3Apull");
}

TEST_CASE("the index entry for the machine's architecture is chosen", "[registry]") {
    auto r = resolve("ghcr.io/auth/index:stable", kArm64);
    CHECK(r.manifest_digest == digest_of("arm64"));
    CHECK(r.index_digest == digest_of("index"));
    CHECK(r.platform == "linux/arm64/v8");
    CHECK(error_of([] {
              resolve("ghcr.io/auth/index:stable", Platform{"linux", "riscv64", ""});
          }) == "cannot resolve ghcr.io/auth/index:stable to a digest: the index has no image for "
                "linux/riscv64 "
                "(it has: linux/amd64, linux/arm64/v8, unknown/unknown); pick an image built for "
                "this machine");
}

TEST_CASE("a Docker manifest list behind an access_token (quay.io style)", "[registry]") {
    auto r = resolve("quay.io/quay/list:41");
    CHECK(r.index_digest == digest_of("list"));
    CHECK(r.manifest_digest == digest_of("list_amd64"));
    CHECK(resolve("quay.io/quay/list:41", kArm64).manifest_digest == digest_of("list_arm64"));
}

TEST_CASE("a reference by digest resolves to the same record", "[registry]") {
    auto r = resolve("ghcr.io/auth/index@" + digest_of("index"));
    CHECK(r.index_digest == digest_of("index"));
    CHECK(r.manifest_digest == digest_of("amd64"));
    CHECK(r.pinned_reference == "ghcr.io/auth/index@" + digest_of("index"));
}

TEST_CASE("without Docker-Content-Digest the digest is the body's sha256", "[registry]") {
    size_t before = loopback().requests("/v2/nodigest/x/").size();
    auto r = resolve("ghcr.io/nodigest/x:v1");
    CHECK(r.manifest_digest == digest_of("plain"));
    auto seen = loopback().requests("/v2/nodigest/x/");
    REQUIRE(seen.size() == before + 2);
    CHECK(seen.back()["method"] == "GET");
}

TEST_CASE("content that does not match its digest is refused", "[registry]") {
    std::string zero = "sha256:" + std::string(64, '0');
    CHECK(error_of([] { resolve("ghcr.io/baddigest/x:stable"); }) ==
          "cannot resolve ghcr.io/baddigest/x:stable to a digest: GET " +
              manifests_url("baddigest/x", zero) + " returned content whose digest is " +
              digest_of("index") + ", not " + zero +
              ": the registry or a proxy changed it; try again later");
}

TEST_CASE("a registry that names another digest than the one asked for is refused", "[registry]") {
    std::string zero = "sha256:" + std::string(64, '0');
    std::string image = "ghcr.io/baddigest/x@" + digest_of("index");
    CHECK(error_of([&] { resolve(image); }) == "cannot resolve " + image +
                                                   " to a digest: the registry sent "
                                                   "Docker-Content-Digest " +
                                                   zero + " for " + digest_of("index"));
}

TEST_CASE("a private image: 401 even with a token", "[registry]") {
    CHECK(error_of([] { resolve("ghcr.io/private/x:v1"); }) ==
          "cannot resolve ghcr.io/private/x:v1 to a digest: HEAD " +
              manifests_url("private/x", "v1") +
              " answered HTTP 401 even with an anonymous token: the image is private (some "
              "registries "
              "answer so for a misspelt name too); " +
              kAdvice);
}

TEST_CASE("a registry that wants a password", "[registry]") {
    CHECK(error_of([] { resolve("ghcr.io/basic/x:v1"); }) ==
          "cannot resolve ghcr.io/basic/x:v1 to a digest: HEAD " + manifests_url("basic/x", "v1") +
              " answered HTTP 401: the registry asks for a user name and password "
              "(WWW-Authenticate: Basic), "
              "not an anonymous token: the image is private; " +
              kAdvice);
}

TEST_CASE("a token endpoint that refuses or answers nonsense", "[registry]") {
    std::string token_url = loopback().base() + "/token?service=fake-registry&scope=repository%3A";
    CHECK(error_of([] { resolve("ghcr.io/denied/x:v1"); }) ==
          "cannot resolve ghcr.io/denied/x:v1 to a digest: token request GET " + token_url +
              "denied%2Fx%3Apull answered HTTP 403: anonymous access is denied; " + kAdvice);
    CHECK(error_of([] { resolve("ghcr.io/badtoken/x:v1"); }) ==
          "cannot resolve ghcr.io/badtoken/x:v1 to a digest: token endpoint " + token_url +
              "badtoken%2Fx%3Apull did not answer with a JSON object");
}

TEST_CASE("an unknown tag: 404", "[registry]") {
    CHECK(
        error_of([] { resolve("ostree-image-signed:docker://ghcr.io/open/plain:nope"); }) ==
        "cannot resolve ghcr.io/open/plain:nope to a digest: HEAD " +
            manifests_url("open/plain", "nope") +
            " answered HTTP 404: registry ghcr.io has no manifest 'nope' in repository open/plain; "
            "check the image name and tag");
}

TEST_CASE("a registry error: 500, and rate limiting: 429", "[registry]") {
    CHECK(error_of([] { resolve("ghcr.io/broken/x:v1"); }) ==
          "cannot resolve ghcr.io/broken/x:v1 to a digest: HEAD " +
              manifests_url("broken/x", "v1") +
              " answered HTTP 500: the registry has a problem; try again later");
    CHECK(error_of([] { resolve("ghcr.io/ratelimited/x:v1"); }) ==
          "cannot resolve ghcr.io/ratelimited/x:v1 to a digest: HEAD " +
              manifests_url("ratelimited/x", "v1") +
              " answered HTTP 429 (too many requests): the registry limits anonymous requests; try "
              "again later");
}

TEST_CASE("a schema 1 manifest is refused", "[registry]") {
    CHECK(error_of([] { resolve("ghcr.io/schema1/x:v1"); }) ==
          "cannot resolve ghcr.io/schema1/x:v1 to a digest: the manifest is a Docker schema 1 "
          "manifest "
          "(application/vnd.docker.distribution.manifest.v1+prettyjws), which bootbench does not "
          "resolve: push "
          "the image again with a current tool");
}

TEST_CASE("a redirect to the manifest is followed", "[registry]") {
    CHECK(resolve("ghcr.io/redirect/x:v1").manifest_digest == digest_of("plain"));
}

TEST_CASE("a slow registry is cut off at the timeout", "[registry]") {
    auto start = std::chrono::steady_clock::now();
    std::string err = error_of([] { resolve("ghcr.io/slow/x:v1", kAmd64, 0.5); });
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 1.5);
    CHECK(err.rfind("cannot resolve ghcr.io/slow/x:v1 to a digest: HTTP HEAD " +
                        manifests_url("slow/x", "v1") + ": Timeout was reached",
                    0) == 0);
}

TEST_CASE("a dead or absent registry is an error naming it", "[registry]") {
    CurlHttpClient http;
    ImageRef ref = parse_image_ref("ghcr.io/open/plain:v1");
    std::string err =
        error_of([&] { resolve_digest(ref, http, kAmd64, at(loopback().dead_base(), 0.4)); });
    CHECK(err.rfind("cannot resolve ghcr.io/open/plain:v1 to a digest: HTTP HEAD " +
                        loopback().dead_base() + "/v2/open/plain/manifests/v1: Timeout was reached",
                    0) == 0);
    err = error_of([&] { resolve_digest(ref, http, kAmd64, at(loopback().closed_base(), 5)); });
    CHECK(err.rfind("cannot resolve ghcr.io/open/plain:v1 to a digest: HTTP HEAD " +
                        loopback().closed_base() +
                        "/v2/open/plain/manifests/v1: Couldn't connect to server",
                    0) == 0);
}

TEST_CASE("the registry base URL must be http(s)", "[registry]") {
    CurlHttpClient http;
    CHECK(error_of([&] {
              resolve_digest(parse_image_ref("ghcr.io/x/y:1"), http, kAmd64, at("ftp://h", 1));
          }) == "cannot resolve ghcr.io/x/y:1 to a digest: registry base URL 'ftp://h' must start "
                "with https:// "
                "or http://");
}

TEST_CASE("this machine's platform", "[registry]") {
    Platform p = host_platform();
    CHECK(p.os == "linux");
    CHECK_FALSE(p.architecture.empty());
    CHECK(p.architecture != "x86_64");
    CHECK(p.architecture != "aarch64");
}

TEST_CASE("resolving over https verifies the registry's certificate", "[registry][tls]") {
    CurlHttpClient http;
    ImageRef ref = parse_image_ref("ghcr.io/auth/index:stable");
    RegistryOptions tls = at(loopback().tls_base(), 5, loopback().ca_file());
    auto r = resolve_digest(ref, http, kAmd64, tls);
    CHECK(r.manifest_digest == digest_of("amd64"));
    tls.ca_file.clear();
    CHECK(error_of([&] { resolve_digest(ref, http, kAmd64, tls); })
              .rfind("cannot resolve ghcr.io/auth/index:stable to a digest: HTTP HEAD " +
                         loopback().tls_base() +
                         "/v2/auth/index/manifests/stable: SSL peer certificate or SSH remote key "
                         "was not OK",
                     0) == 0);
}

TEST_CASE("an image target resolves for this machine; other targets are an error", "[registry]") {
    CurlHttpClient http;
    core::Target t;
    t.name = "bluefin";
    t.selector = {core::SelectorKind::image,
                  "ostree-image-signed:docker://ghcr.io/auth/index:stable", -1};
    auto r = resolve_target_image(t, http, on_loopback());
    CHECK(r.index_digest == digest_of("index"));
    CHECK(r.platform == core::to_string(host_platform()));

    t.selector.value = "ghcr.io/Bad/Name";
    try {
        resolve_target_image(t, http, on_loopback());
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).rfind("target 'bluefin': image reference 'ghcr.io/Bad/Name': "
                                          "repository 'Bad/Name' is not a valid name",
                                          0) == 0);
        CHECK(e.code() == ExitCode::bad_input);
    }
    t.selector.value = "ghcr.io/open/plain:nope";
    CHECK(error_of([&] { resolve_target_image(t, http, on_loopback()); })
              .rfind("target 'bluefin': cannot resolve ghcr.io/open/plain:nope to a digest: HEAD ",
                     0) == 0);

    t.selector = {core::SelectorKind::checksum, "abc", -1};
    CHECK(error_of([&] { resolve_target_image(t, http, on_loopback()); }) ==
          "target 'bluefin': selected by checksum, not by image: there is no tag to resolve");
}

TEST_CASE("a Docker-Content-Digest with terminal escapes is quoted escaped, never raw",
          "[registry]") {
    CHECK(error_of([] { resolve("ghcr.io/escdigest/x:v1"); }) ==
          "cannot resolve ghcr.io/escdigest/x:v1 to a digest: the registry sent "
          "Docker-Content-Digest 'sha256:\\x1b]0;pwned\\x07\\x1b[2J', which is not a digest");
}

namespace bootbench::core {

// Catch shows a failed comparison's values with it.
static std::ostream& operator<<(std::ostream& out, const ImageBuild& b) {
    return out << "{" << b.tag << ", " << b.digest << ", '" << b.created << "', '" << b.version
               << "'}";
}

} // namespace bootbench::core

namespace {

std::vector<std::string> tags_of(const std::string& image) {
    CurlHttpClient http;
    return list_tags(parse_image_ref(image), http, on_loopback());
}

core::ImageBuild build(const std::string& tag, const Platform& p = kAmd64) {
    CurlHttpClient http;
    return describe_image(parse_image_ref("ghcr.io/hist/os:" + tag), http, p, on_loopback());
}

std::string tags_url(const std::string& repo) {
    return loopback().base() + "/v2/" + repo + "/tags/list?n=1000";
}

const std::string kBuildsAdvice =
    "bootbench reads registries anonymously only: a private image's builds cannot be listed; "
    "bisect its ostree ref instead (good and bad as { refspec, commit })";

} // namespace

TEST_CASE("a repository's tags, page by page, on one anonymous token", "[registry][tags]") {
    size_t before = loopback().requests("/v2/hist/os/tags/").size();
    size_t tokens_before = loopback().requests("/token?").size();
    std::string signature = digests()["signature_tag"];
    CHECK(tags_of("ostree-image-signed:docker://ghcr.io/hist/os:stable-20261101") ==
          std::vector<std::string>{"latest", signature, "stable-20261101", "stable-20261108",
                                   "stable-20261115", "stable-20261122", "stable-20261129"});
    auto seen = loopback().requests("/v2/hist/os/tags/");
    REQUIRE(seen.size() == before + 4); // 401, then three pages of at most 3 tags
    CHECK_FALSE(seen[before]["headers"].contains("Authorization"));
    std::vector<std::string> paths = {"/v2/hist/os/tags/list?n=1000",
                                      "/v2/hist/os/tags/list?n=1000",
                                      "/v2/hist/os/tags/list?n=3&last=stable-20261101",
                                      "/v2/hist/os/tags/list?n=3&last=stable-20261122"};
    for (size_t i = 0; i < paths.size(); ++i)
        CHECK(seen[before + i]["path"] == paths[i]);
    for (size_t i = 1; i < paths.size(); ++i)
        CHECK(seen[before + i]["headers"]["Authorization"] == "Bearer tok-hist/os");
    CHECK(loopback().requests("/token?").size() == tokens_before + 1);
}

TEST_CASE("a next page on another host is asked for without the token", "[registry][tags]") {
    size_t before = loopback().requests("/v2/elsewhere/x/tags/").size();
    CHECK(tags_of("ghcr.io/elsewhere/x") == std::vector<std::string>{"a", "b"});
    auto seen = loopback().requests("/v2/elsewhere/x/tags/");
    REQUIRE(seen.size() == before + 3);
    CHECK(seen[before + 1]["headers"]["Authorization"] == "Bearer tok-elsewhere/x");
    CHECK(seen[before + 2]["path"] == "/v2/elsewhere/x/tags/list?last=a");
    CHECK_FALSE(seen[before + 2]["headers"].contains("Authorization"));
}

TEST_CASE("a repository without tags has none; one the registry does not know is an error",
          "[registry][tags]") {
    CHECK(tags_of("ghcr.io/notags/x").empty());
    CHECK(error_of([] { tags_of("ghcr.io/gone/x:v1"); }) ==
          "cannot list the tags of ghcr.io/gone/x: GET " + tags_url("gone/x") +
              " answered HTTP 404: registry ghcr.io has no repository gone/x; check the image "
              "name");
    CHECK(error_of([] { tags_of("ghcr.io/private/x"); }) ==
          "cannot list the tags of ghcr.io/private/x: GET " + tags_url("private/x") +
              " answered HTTP 401 even with an anonymous token: the image is private (some "
              "registries answer so for a misspelt name too); " +
              kBuildsAdvice);
}

TEST_CASE("a tag list that is not one is refused", "[registry][tags]") {
    CHECK(error_of([] { tags_of("ghcr.io/badtags/x"); }) ==
          "cannot list the tags of ghcr.io/badtags/x: GET " + tags_url("badtags/x") +
              ": tags[1] is '7', not a string");
}

TEST_CASE("a tag list that never ends stops after 100 pages", "[registry][tags]") {
    size_t before = loopback().requests("/v2/endless/x/tags/").size();
    CHECK(error_of([] { tags_of("ghcr.io/endless/x"); }) ==
          "cannot list the tags of ghcr.io/endless/x: the tag list goes on after 100 pages (100 "
          "tags), the most bootbench reads");
    CHECK(loopback().requests("/v2/endless/x/tags/").size() == before + 100);
}

TEST_CASE("a build's creation time and version, and the digest bootbench pins to",
          "[registry][builds]") {
    size_t before = loopback().requests("/v2/hist/os/").size();
    size_t tokens_before = loopback().requests("/token?").size();
    std::string d1101 = digest_of("hist/os:stable-20261101");
    CHECK(build("stable-20261101") ==
          core::ImageBuild{"stable-20261101", d1101, "2026-11-01T04:10:00Z", "43.20261101.0"});
    auto seen = loopback().requests("/v2/hist/os/");
    REQUIRE(seen.size() == before + 4); // HEAD 401, HEAD, the manifest by digest, its config
    CHECK(seen[before + 2]["path"] == "/v2/hist/os/manifests/" + d1101);
    CHECK(seen[before + 3]["path"].get<std::string>().rfind("/v2/hist/os/blobs/sha256:", 0) == 0);
    CHECK(seen[before + 3]["headers"]["Authorization"] == "Bearer tok-hist/os");
    CHECK(loopback().requests("/token?").size() == tokens_before + 1);
    // A Docker image with the plain "version" label; one without a time or labels.
    CHECK(build("stable-20261108") ==
          core::ImageBuild{"stable-20261108", digest_of("hist/os:stable-20261108"),
                         "2026-11-08T04:10:00.123456789Z", "43.20261108.0"});
    CHECK(build("stable-20261129") ==
          core::ImageBuild{"stable-20261129", digest_of("hist/os:stable-20261129"), "", ""});
}

TEST_CASE("a multi-architecture build is pinned by its index, described by this machine's image",
          "[registry][builds]") {
    std::string index = digest_of("hist/os:stable-20261122");
    CHECK(build("stable-20261122") ==
          core::ImageBuild{"stable-20261122", index, "2026-11-22T04:10:00Z", "43.20261122.0"});
    CHECK(build("stable-20261122", kArm64).created == "2026-11-22T04:30:00Z");
    auto seen = loopback().requests("/v2/hist/os/manifests/");
    CHECK(seen.back()["path"] == "/v2/hist/os/manifests/" + digest_of("hist_1122_arm64"));
}

TEST_CASE("a config blob sent from a CDN: the redirect is followed", "[registry][builds]") {
    size_t before = loopback().requests("/cdn/").size();
    CHECK(build("stable-20261115") == core::ImageBuild{"stable-20261115",
                                                     digest_of("hist/os:stable-20261115"),
                                                     "2026-11-15T04:10:00+00:00", "43.20261115.0"});
    CHECK(loopback().requests("/cdn/").size() == before + 1);
}

TEST_CASE("a config blob that does not match its digest is refused", "[registry][builds]") {
    CurlHttpClient http;
    std::string config = digest_of("badblob_config");
    CHECK(error_of([&] {
              describe_image(parse_image_ref("ghcr.io/badblob/os:v1"), http, kAmd64, on_loopback());
          }) == "cannot read the image config of ghcr.io/badblob/os:v1: GET " + loopback().base() +
                    "/v2/badblob/os/blobs/" + config + " returned content whose digest is " +
                    digest_of("badblob_served") + ", not " + config +
                    ": the registry or a proxy changed it; try again later");
}

TEST_CASE("a tag that is not a build, or no tag at all, is an error", "[registry][builds]") {
    std::string signature = digests()["signature_tag"];
    CHECK(error_of([&] { build(signature); }) ==
          "cannot read the image config of ghcr.io/hist/os:" + signature + ": the manifest " +
              digest_of(("hist/os:" + signature).c_str()) +
              ": config: the media type is 'application/vnd.oci.empty.v1+json', not an image "
              "config's: the tag names a signature or another artifact, not an image");
    CHECK(error_of([] { build("nope"); }) ==
          "cannot read the image config of ghcr.io/hist/os:nope: HEAD " +
              manifests_url("hist/os", "nope") +
              " answered HTTP 404: registry ghcr.io has no manifest 'nope' in repository hist/os; "
              "check the image name and tag");
}
