#include "error_of.hpp"
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/image/oci.hpp"

#include <nlohmann/json.hpp>
#include <string>

using namespace bootbench;
using namespace bootbench::core;

namespace {

const std::string kD1 = "sha256:" + std::string(64, 'a');
const std::string kD2 = "sha256:" + std::string(64, 'b');
const std::string kD3 = "sha256:" + std::string(64, 'c');

using bootbench::test::error_of;

std::string index_json() {
    return R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[
      {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":")" +
           kD1 + R"(","size":1,
       "platform":{"architecture":"amd64","os":"linux"}},
      {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":")" +
           kD2 + R"(","size":1,
       "platform":{"architecture":"arm64","os":"linux","variant":"v8"}},
      {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":")" +
           kD3 + R"(","size":1,
       "platform":{"architecture":"unknown","os":"unknown"}}]})";
}

} // namespace

TEST_CASE("image references as targets write them", "[oci]") {
    ImageRef r = parse_image_ref("ostree-image-signed:docker://ghcr.io/ublue-os/bluefin-dx:stable");
    CHECK(r == ImageRef{"ostree-image-signed:docker://", "ghcr.io", "ublue-os/bluefin-dx", "stable",
                        ""});

    r = parse_image_ref("ostree-unverified-registry:quay.io/fedora/fedora-bootc:41");
    CHECK(r == ImageRef{"ostree-unverified-registry:", "quay.io", "fedora/fedora-bootc", "41", ""});

    r = parse_image_ref("ostree-unverified-image:registry:quay.io/x/y:tag");
    CHECK(r == ImageRef{"ostree-unverified-image:registry:", "quay.io", "x/y", "tag", ""});

    r = parse_image_ref("ostree-remote-image:fedora:docker://quay.io/x/y");
    CHECK(r == ImageRef{"ostree-remote-image:fedora:docker://", "quay.io", "x/y", "latest", ""});

    r = parse_image_ref("ostree-remote-registry:fedora:quay.io/x/y:1");
    CHECK(r == ImageRef{"ostree-remote-registry:fedora:", "quay.io", "x/y", "1", ""});

    r = parse_image_ref("docker://ghcr.io/x/y:tag");
    CHECK(r == ImageRef{"docker://", "ghcr.io", "x/y", "tag", ""});

    r = parse_image_ref("ghcr.io/x/y:tag");
    CHECK(r == ImageRef{"", "ghcr.io", "x/y", "tag", ""});
}

TEST_CASE("docker.io is the default registry and one-word names get library/", "[oci]") {
    CHECK(parse_image_ref("fedora") == ImageRef{"", "docker.io", "library/fedora", "latest", ""});
    CHECK(parse_image_ref("docker://fedora:40") ==
          ImageRef{"docker://", "docker.io", "library/fedora", "40", ""});
    CHECK(parse_image_ref("someone/tool:1") == ImageRef{"", "docker.io", "someone/tool", "1", ""});
    CHECK(parse_image_ref("index.docker.io/someone/tool").registry == "docker.io");
    CHECK(registry_base_url(parse_image_ref("fedora")) == "https://registry-1.docker.io");
    CHECK(registry_base_url(parse_image_ref("ghcr.io/x/y")) == "https://ghcr.io");
}

TEST_CASE("registry ports, localhost and digests", "[oci]") {
    CHECK(parse_image_ref("localhost:5000/x/y") ==
          ImageRef{"", "localhost:5000", "x/y", "latest", ""});
    CHECK(parse_image_ref("localhost/x:1") == ImageRef{"", "localhost", "x", "1", ""});
    ImageRef r = parse_image_ref("quay.io/x/y@" + kD1);
    CHECK(r == ImageRef{"", "quay.io", "x/y", "", kD1});
    CHECK(manifest_selector(r) == kD1);
    r = parse_image_ref("quay.io/x/y:t@" + kD1);
    CHECK(r.tag == "t");
    CHECK(r.digest == kD1);
    CHECK(manifest_selector(parse_image_ref("quay.io/x/y:t")) == "t");
}

TEST_CASE("a reference pinned to a digest keeps its transport", "[oci]") {
    ImageRef r = parse_image_ref("ostree-image-signed:docker://ghcr.io/ublue-os/bluefin-dx:stable");
    CHECK(pin_reference(r, kD1) ==
          "ostree-image-signed:docker://ghcr.io/ublue-os/bluefin-dx@" + kD1);
    CHECK(to_string(r) == "ostree-image-signed:docker://ghcr.io/ublue-os/bluefin-dx:stable");
    CHECK(to_string(parse_image_ref("fedora")) == "docker.io/library/fedora:latest");
    CHECK(error_of([&] { pin_reference(r, "sha256:xyz"); }) ==
          "cannot pin ostree-image-signed:docker://ghcr.io/ublue-os/bluefin-dx:stable to "
          "'sha256:xyz': "
          "not a digest (sha256:<64 lower-case hex digits>)");
}

TEST_CASE("bad image references say what is wrong", "[oci]") {
    const std::string hint =
        "; image references look like 'ostree-image-signed:docker://ghcr.io/owner/name:tag' "
        "or 'quay.io/owner/name@sha256:<hex>'";
    CHECK(error_of([] { parse_image_ref(""); }) == "image reference '': it is empty" + hint);
    CHECK(error_of([] { parse_image_ref("ghcr.io/Owner/Name:1"); }) ==
          "image reference 'ghcr.io/Owner/Name:1': repository 'Owner/Name' is not a valid name "
          "(lower-case letters, digits and . _ - between them, parts separated by /)" +
              hint);
    CHECK(error_of([] { parse_image_ref("ghcr.io/x/y:"); }) ==
          "image reference 'ghcr.io/x/y:': the tag after ':' is empty" + hint);
    CHECK(error_of([] { parse_image_ref("ghcr.io/x/y:-bad"); }) ==
          "image reference 'ghcr.io/x/y:-bad': tag '-bad' is not valid (letters, digits, _ . -; at "
          "most 128)" +
              hint);
    CHECK(error_of([] { parse_image_ref("ghcr.io/x/y@sha256:abc"); }) ==
          "image reference 'ghcr.io/x/y@sha256:abc': digest 'sha256:abc' is not valid "
          "(sha256:<64 lower-case hex digits>)" +
              hint);
    CHECK(error_of([] { parse_image_ref("ostree-unverified-registry:"); }) ==
          "image reference 'ostree-unverified-registry:': no image name after the transport "
          "'ostree-unverified-registry:'" +
              hint);
    CHECK(error_of([] { parse_image_ref("ghcr.io/x/y@"); }) ==
          "image reference 'ghcr.io/x/y@': the digest after '@' is empty" + hint);
    std::string long_name = "ghcr.io/" + std::string(250, 'a');
    CHECK(error_of([&] { parse_image_ref(long_name); }) ==
          "image reference '" + long_name + "': the name is longer than 255 characters" + hint);
    // the host pattern runs before the length check: 100,000 characters must not crash it
    std::string long_host = std::string(100000, 'a') + ".io/x/y";
    CHECK(error_of([&] { parse_image_ref(long_host); }) ==
          "image reference '" + long_host + "': the name is longer than 255 characters" + hint);
    std::string long_remote =
        "ostree-remote-image:" + std::string(100000, 'r') + ":docker://q.io/x";
    CHECK(parse_image_ref(long_remote).registry == "q.io");
    CHECK(error_of([] {
              parse_image_ref("ghcr.io//y");
          }).find("repository '/y' is not a valid name") != std::string::npos);
    CHECK(error_of([] { parse_image_ref("ghcr.io/x/y:a:b"); }).find("is not a valid name") !=
          std::string::npos);
}

TEST_CASE("transports without a registry cannot be resolved", "[oci]") {
    CHECK(error_of([] { parse_image_ref("ostree-unverified-image:oci:/var/tmp/img"); })
              .starts_with(
                  "image reference 'ostree-unverified-image:oci:/var/tmp/img': transport 'oci:' "
                  "names a local image, not a registry: there is no digest to resolve (select the "
                  "target by checksum, or set pin_digest = false)"));
    CHECK(error_of([] {
              parse_image_ref("containers-storage:localhost/x");
          }).find("transport 'containers-storage:' names a local image") != std::string::npos);
    CHECK(error_of([] {
              parse_image_ref("ostree-foo:docker://x/y");
          }).find("unknown ostree transport 'ostree-foo:'") != std::string::npos);
    CHECK(error_of([] {
              parse_image_ref("ostree-image-signed:ftp://x/y");
          }).find("unknown transport after 'ostree-image-signed:' (expected docker://)") !=
          std::string::npos);
    CHECK_THROWS_AS(parse_image_ref("ostree-image-signed:oci:/x"), Error);
    try {
        parse_image_ref("oci:/x");
    } catch (const Error& e) {
        CHECK(e.code() == ExitCode::bad_input);
    }
}

TEST_CASE("WWW-Authenticate Bearer challenges", "[oci]") {
    BearerChallenge c = parse_bearer_challenge(
        R"(Bearer realm="https://ghcr.io/token",service="ghcr.io",scope="repository:ublue-os/bluefin-dx:pull")");
    CHECK(c.realm == "https://ghcr.io/token");
    CHECK(c.service == "ghcr.io");
    CHECK(c.scope == "repository:ublue-os/bluefin-dx:pull");
    CHECK(token_url(c, "ignored") ==
          "https://ghcr.io/token?service=ghcr.io&scope=repository%3Aublue-os%2Fbluefin-dx%3Apull");

    c = parse_bearer_challenge(R"(bearer  Realm = "https://a/t?x=1" , service=quay.io)");
    CHECK(c.realm == "https://a/t?x=1");
    CHECK(c.service == "quay.io");
    CHECK(token_url(c, "x/y") == "https://a/t?x=1&service=quay.io&scope=repository%3Ax%2Fy%3Apull");

    c = parse_bearer_challenge(R"(Bearer realm="https://a/\"q\"")");
    CHECK(c.realm == "https://a/\"q\"");
}

TEST_CASE("challenges that are not anonymous Bearer ones are errors", "[oci]") {
    CHECK(error_of([] { parse_bearer_challenge(R"(Basic realm="Registry")"); }) ==
          "the registry asks for a user name and password (WWW-Authenticate: Basic), not an "
          "anonymous "
          "token: the image is private");
    CHECK(error_of([] { parse_bearer_challenge("Negotiate"); }) ==
          "unsupported WWW-Authenticate challenge 'Negotiate' (expected Bearer realm=\"...\")");
    CHECK(error_of([] { parse_bearer_challenge(R"(Bearer realm="https://a)"); }) ==
          "malformed WWW-Authenticate header 'Bearer realm=\"https://a': unterminated quote");
    CHECK(error_of([] { parse_bearer_challenge(R"(Bearer service="x")"); }) ==
          "WWW-Authenticate header 'Bearer service=\"x\"' has no http(s) realm to ask for a token");
}

TEST_CASE("token responses", "[oci]") {
    CHECK(parse_token_response(R"({"token":"t1"})", "u") == "t1");
    CHECK(parse_token_response(R"({"access_token":"t2","expires_in":300})", "u") == "t2");
    CHECK(error_of([] { parse_token_response("<html>", "https://a/token"); }) ==
          "token endpoint https://a/token did not answer with a JSON object");
    CHECK(error_of([] { parse_token_response(R"({"token":""})", "https://a/token"); }) ==
          "token endpoint https://a/token answered without a \"token\" or \"access_token\" field");
}

TEST_CASE("percent encoding keeps unreserved characters only", "[oci]") {
    CHECK(percent_encode("a-Z_0.~") == "a-Z_0.~");
    CHECK(percent_encode("a b/c:d&e") == "a%20b%2Fc%3Ad%26e");
}

TEST_CASE("machine names map to OCI platforms", "[oci]") {
    CHECK(platform_from_machine("x86_64") == Platform{"linux", "amd64", ""});
    CHECK(platform_from_machine("aarch64") == Platform{"linux", "arm64", "v8"});
    CHECK(platform_from_machine("armv7l") == Platform{"linux", "arm", "v7"});
    CHECK(platform_from_machine("ppc64le") == Platform{"linux", "ppc64le", ""});
    CHECK(to_string(Platform{"linux", "arm", "v7"}) == "linux/arm/v7");
}

TEST_CASE("manifest kinds from the media type or the body", "[oci]") {
    CHECK(manifest_kind(kOciIndex, "", "m") == ManifestKind::index);
    CHECK(manifest_kind(std::string(kDockerList) + "; charset=utf-8", "", "m") ==
          ManifestKind::index);
    CHECK(manifest_kind(kDockerManifest, "", "m") == ManifestKind::image);
    CHECK(manifest_kind("application/json", index_json(), "m") == ManifestKind::index);
    CHECK(manifest_kind("", R"({"schemaVersion":2,"layers":[]})", "m") == ManifestKind::image);
    CHECK(error_of([] {
              manifest_kind("application/vnd.docker.distribution.manifest.v1+prettyjws", "", "M");
          }) == "M is a Docker schema 1 manifest "
                "(application/vnd.docker.distribution.manifest.v1+prettyjws), which "
                "bootbench does not resolve: push the image again with a current tool");
    CHECK(error_of([] { manifest_kind("text/html", "<html>", "M"); }) ==
          "M is not a JSON manifest (Content-Type 'text/html')");
    CHECK(error_of([] { manifest_kind("application/json", "{}", "M"); }) ==
          "M is neither an image manifest nor an index (Content-Type 'application/json')");
    CHECK(manifest_accept_header().starts_with(std::string(kOciIndex) + ", " + kDockerList));
}

TEST_CASE("the manifest for this machine's platform is picked from an index", "[oci]") {
    auto entries = parse_index(index_json(), "idx");
    REQUIRE(entries.size() == 3);
    CHECK(pick_platform(entries, platform_from_machine("x86_64"), "idx").digest == kD1);
    CHECK(pick_platform(entries, platform_from_machine("aarch64"), "idx").digest == kD2);
    CHECK(pick_platform(entries, Platform{"linux", "arm64", ""}, "idx").digest == kD2);
    CHECK(pick_platform(entries, Platform{"linux", "x86_64", ""}, "idx").digest == kD1);
    CHECK(error_of([&] {
              pick_platform(entries, Platform{"linux", "riscv64", ""}, "ghcr.io/x/y:1");
          }) ==
          "ghcr.io/x/y:1 has no image for linux/riscv64 (it has: linux/amd64, linux/arm64/v8, "
          "unknown/unknown); pick an image built for this machine");
}

TEST_CASE("arm variants must match when the machine names one", "[oci]") {
    std::string body = R"({"manifests":[
      {"digest":")" + kD1 +
                       R"(","platform":{"architecture":"arm","os":"linux","variant":"v6"}},
      {"digest":")" + kD2 +
                       R"(","platform":{"architecture":"arm","os":"linux","variant":"v7"}},
      {"digest":")" + kD3 +
                       R"(","platform":{"architecture":"amd64","os":"linux","variant":"v3"}}]})";
    auto entries = parse_index(body, "idx");
    CHECK(pick_platform(entries, platform_from_machine("armv7l"), "idx").digest == kD2);
    CHECK(pick_platform(entries, platform_from_machine("armv6l"), "idx").digest == kD1);
    CHECK(pick_platform(entries, Platform{"linux", "amd64", ""}, "idx").digest == kD3);
    CHECK_THROWS_AS(pick_platform(entries, Platform{"linux", "arm", "v5"}, "idx"), Error);
}

TEST_CASE("malformed indexes name the spot", "[oci]") {
    CHECK(error_of([] { parse_index("nope", "I"); }) == "I: the index is not valid JSON");
    CHECK(error_of([] { parse_index("{}", "I"); }) == "I: missing field 'manifests'");
    CHECK(error_of([] { parse_index(R"({"manifests":[{"digest":"x"}]})", "I"); }) ==
          "I: manifests[0]: 'x' is not a digest");
    CHECK(error_of([] { parse_index(R"({"manifests":[{}]})", "I"); }) ==
          "I: manifests[0]: missing field 'digest'");
}

TEST_CASE("a resolved image pins by the index digest and accepts either digest after boot",
          "[oci]") {
    ImageRef ref = parse_image_ref("ostree-image-signed:docker://ghcr.io/x/y:stable");
    ResolvedImage r = make_resolved(ref, kD1, kD2, Platform{"linux", "amd64", ""});
    CHECK(r.reference == "ostree-image-signed:docker://ghcr.io/x/y:stable");
    CHECK(staging_digest(r) == kD1);
    CHECK(r.pinned_reference == "ostree-image-signed:docker://ghcr.io/x/y@" + kD1);
    CHECK(r.platform == "linux/amd64");
    CHECK(digest_matches(r, kD1));
    CHECK(digest_matches(r, kD2));
    CHECK_FALSE(digest_matches(r, kD3));
    CHECK_FALSE(digest_matches(r, ""));

    ResolvedImage plain = make_resolved(ref, "", kD2, Platform{"linux", "amd64", ""});
    CHECK(staging_digest(plain) == kD2);
    CHECK_FALSE(digest_matches(plain, ""));
}

TEST_CASE("a booted image other than the recorded one is a problem that says what to do", "[oci]") {
    ImageRef ref = parse_image_ref("ghcr.io/x/y:stable");
    ResolvedImage r = make_resolved(ref, kD1, kD2, Platform{"linux", "amd64", ""});
    CHECK_FALSE(booted_digest_problem(r, kD2).has_value());
    CHECK_FALSE(booted_digest_problem(r, "").has_value());
    CHECK(booted_digest_problem(r, kD3) ==
          "the booted deployment runs image " + kD3 + ", but ghcr.io/x/y:stable was recorded as " +
              kD2 + " (index " + kD1 +
              ") when the experiment started: the tag moved before this target was staged; "
              "set pin_digest = true for this target to stage the recorded image");
    ResolvedImage plain = make_resolved(ref, "", kD2, Platform{"linux", "amd64", ""});
    CHECK(booted_digest_problem(plain, kD3)->find("was recorded as " + kD2 + " when") !=
          std::string::npos);
}

TEST_CASE("a resolved image round-trips through JSON", "[oci]") {
    ImageRef ref = parse_image_ref("quay.io/x/y:1");
    ResolvedImage r = make_resolved(ref, "", kD2, Platform{"linux", "arm64", "v8"});
    nlohmann::json j = to_json(r);
    CHECK(j["index_digest"].is_null());
    CHECK(resolved_image_from_json(j, "state.json: image") == r);
    ResolvedImage with_index = make_resolved(ref, kD1, kD2, Platform{"linux", "amd64", ""});
    CHECK(resolved_image_from_json(to_json(with_index), "s") == with_index);
    j["manifest_digest"] = "nope";
    CHECK(error_of([&] { resolved_image_from_json(j, "state.json: image"); }) ==
          "state.json: image: field 'manifest_digest' is not a digest");
}
