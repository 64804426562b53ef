#include "error_of.hpp"
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/image/image_builds.hpp"

#include <ostream>
#include <string>

using namespace bootbench;
using namespace bootbench::core;
using bootbench::test::error_of;

namespace bootbench::core {

// Catch shows a failed comparison's values with it.
static std::ostream& operator<<(std::ostream& out, const ImageConfigInfo& info) {
    return out << "{'" << info.created << "', '" << info.version << "'}";
}

} // namespace bootbench::core

namespace {

const std::string kDigest = "sha256:" + std::string(64, 'a');
const std::string kWhere = "GET http://r/v2/x/tags/list?n=1000";

std::vector<std::string> tags(const std::string& body) {
    return parse_tag_list(body, kWhere);
}

std::optional<std::string> next_page(const std::string& header,
                                     const std::string& base = "https://r.io") {
    return next_page_url(header, base);
}

std::string manifest_with(const std::string& config) {
    return R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",)"
           R"("config":)" +
           config + R"(,"layers":[]})";
}

std::string config_of(const std::string& media_type, const std::string& digest) {
    return R"({"mediaType":")" + media_type + R"(","digest":")" + digest + R"(","size":2})";
}

ImageConfigInfo image_config(const std::string& body) {
    return parse_image_config(body, "the image config");
}

} // namespace

TEST_CASE("a tag list, and a repository without tags", "[image_builds]") {
    CHECK(tags(R"({"name":"x","tags":["stable-20261101","latest","v1.2_rc-3"]})") ==
          std::vector<std::string>{"stable-20261101", "latest", "v1.2_rc-3"});
    CHECK(tags(R"({"name":"x","tags":null})").empty());
    CHECK(tags(R"({"name":"x","tags":[]})").empty());
}

TEST_CASE("a tag list that is not one is refused, naming where it came from", "[image_builds]") {
    CHECK(error_of([] { tags("<html>"); }) == kWhere + ": the tag list is not a JSON object");
    CHECK(error_of([] { tags(R"(["a"])"); }) == kWhere + ": the tag list is not a JSON object");
    CHECK(error_of([] { tags(R"({"name":"x"})"); }) == kWhere + ": missing field 'tags'");
    CHECK(error_of([] { tags(R"({"tags":"a"})"); }) == kWhere + ": field 'tags' must be an array");
    CHECK(error_of([] { tags(R"({"tags":["a",5]})"); }) ==
          kWhere + ": tags[1] is '5', not a string");
    CHECK(error_of([] { tags(R"({"tags":["a","b c\u001b[2J"]})"); }) ==
          kWhere + ": tags[1] 'b c\\x1b[2J' is not a valid tag (letters, digits, _ . -; at most "
                   "128)");
    CHECK(error_of([] {
              tags(R"({"tags":[")" + std::string(129, 'a') + R"("]})");
          }).rfind(kWhere + ": tags[0] '" + std::string(129, 'a') + "' is not a valid tag", 0) ==
          0);
}

TEST_CASE("the next page of tags from a Link header", "[image_builds]") {
    CHECK(next_page(R"(</v2/x/tags/list?n=100&last=foo>; rel="next")") ==
          "https://r.io/v2/x/tags/list?n=100&last=foo");
    CHECK(next_page("</v2/x/tags/list?last=foo>; rel=next", "http://127.0.0.1:5000/") ==
          "http://127.0.0.1:5000/v2/x/tags/list?last=foo");
    CHECK(next_page(R"(<https://cdn.r.io/v2/x/tags/list?last=a>;rel="next")") ==
          "https://cdn.r.io/v2/x/tags/list?last=a");
    // Several links, relation types in a list, any case, parameters with ';' and ','.
    CHECK(next_page(R"(</p>; rel="prev", </n?a=1,2>; title="a; b, c"; REL="last Next")") ==
          "https://r.io/n?a=1,2");
    CHECK(next_page("</first>; rel=prev, </second>; rel=next") == "https://r.io/second");
}

TEST_CASE("no Link, or none that is rel=\"next\", is the last page", "[image_builds]") {
    CHECK(next_page("") == std::nullopt);
    CHECK(next_page(" ") == std::nullopt);
    CHECK(next_page(R"(</v2/x/tags/list?last=a>; rel="prev")") == std::nullopt);
    CHECK(next_page(R"(</v2/x/tags/list?last=a>; title="rel=next")") == std::nullopt);
    CHECK(next_page("</v2/x/tags/list?last=a>") == std::nullopt);
}

TEST_CASE("a malformed Link header, or a next page off the registry, is refused",
          "[image_builds]") {
    CHECK(error_of([] { next_page(R"(/v2/x/tags/list; rel="next")"); }) ==
          R"(the registry's Link header '/v2/x/tags/list; rel="next"' is malformed at byte 0 )"
          R"((expected <URL>; rel="next"))");
    CHECK(error_of([] { next_page(R"(</a>; rel="next" </b>)"); }) ==
          R"(the registry's Link header '</a>; rel="next" </b>' is malformed at byte 16 )"
          R"((expected <URL>; rel="next"))");
    CHECK(error_of([] {
              next_page(R"(</a; rel="next")");
          }).rfind("the registry's Link header '</a; rel=\"next\"' is malformed at byte 0", 0) ==
          0);
    CHECK(error_of([] {
              next_page(R"(</a>; rel="next)");
          }).rfind("the registry's Link header '</a>; rel=\"next' is malformed at byte 10", 0) ==
          0);
    CHECK(error_of([] { next_page(R"(<http://r.io/v2/x/tags/list?last=a>; rel="next")"); }) ==
          "the registry's next page of tags 'http://r.io/v2/x/tags/list?last=a' is on plain "
          "http, and the registry on https: not followed");
    CHECK(error_of([] { next_page(R"(<tags/list?last=a>; rel="next")"); }) ==
          "the registry's next page of tags 'tags/list?last=a' is neither an http(s) URL nor a "
          "path from the registry's root");
    CHECK(error_of([] { next_page(R"(<//evil.example/x>; rel="next")"); }) ==
          "the registry's next page of tags '//evil.example/x' is neither an http(s) URL nor a "
          "path from the registry's root");
    CHECK(error_of([] { next_page("<\x1b]0;pwned\x07>; rel=next"); }) ==
          "the registry's next page of tags '\\x1b]0;pwned\\x07' is neither an http(s) URL nor a "
          "path from the registry's root");
}

TEST_CASE("an image manifest's config digest", "[image_builds]") {
    const char* where = "the manifest";
    CHECK(config_digest_of(manifest_with(config_of(kOciConfig, kDigest)), where) == kDigest);
    CHECK(config_digest_of(manifest_with(config_of(kDockerConfig, kDigest)), where) == kDigest);
    CHECK(config_digest_of(manifest_with(R"({"digest":")" + kDigest + R"("})"), where) == kDigest);
}

TEST_CASE("a manifest without an image config's digest is refused", "[image_builds]") {
    auto error = [](const std::string& body) {
        return error_of([&] { config_digest_of(body, "the manifest"); });
    };
    CHECK(error("nope") == "the manifest: the manifest is not a JSON object");
    CHECK(error(R"({"manifests":[]})") == "the manifest: missing field 'config'");
    CHECK(error(manifest_with(R"({"mediaType":"x"})")) ==
          "the manifest: config: the media type is 'x', not an image config's: the tag names a "
          "signature or another artifact, not an image");
    CHECK(error(manifest_with(config_of("application/vnd.oci.empty.v1+json", kDigest))) ==
          "the manifest: config: the media type is 'application/vnd.oci.empty.v1+json', not an "
          "image config's: the tag names a signature or another artifact, not an image");
    CHECK(error(manifest_with(config_of(kOciConfig, "sha256:\\u001b[2J"))) ==
          "the manifest: config: 'sha256:\\x1b[2J' is not a digest");
    CHECK(error(manifest_with(R"({"mediaType":")" + std::string(kOciConfig) + R"("})")) ==
          "the manifest: config: missing field 'digest'");
}

TEST_CASE("an image config's creation time and version", "[image_builds]") {
    CHECK(image_config(R"({"created":"2026-11-01T03:04:05.123456789Z","architecture":"amd64",)"
                       R"("config":{"Labels":{"org.opencontainers.image.version":"43.20261101.0",)"
                       R"("version":"other"}}})") ==
          ImageConfigInfo{"2026-11-01T03:04:05.123456789Z", "43.20261101.0"});
    CHECK(image_config(R"({"created":"2026-11-01T03:04:05+01:00",)"
                       R"("config":{"Labels":{"version":"43"}}})") ==
          ImageConfigInfo{"2026-11-01T03:04:05+01:00", "43"});
    CHECK(image_config(R"({"config":{"Labels":{"org.opencontainers.image.version":"",)"
                       R"("version":"43"}}})") == ImageConfigInfo{"", "43"});
    CHECK(image_config(R"({"config":{"Labels":null}})") == ImageConfigInfo{});
    CHECK(image_config(R"({"config":null,"created":null})") == ImageConfigInfo{});
    CHECK(image_config("{}") == ImageConfigInfo{});
}

TEST_CASE("an image config that is malformed is refused", "[image_builds]") {
    auto error = [](const std::string& body) { return error_of([&] { image_config(body); }); };
    CHECK(error("[]") == "the image config: the image config is not a JSON object");
    CHECK(error(R"({"created":"yesterday\u001b[2J"})") ==
          "the image config: field 'created' is 'yesterday\\x1b[2J', not an RFC 3339 time");
    CHECK(error(R"({"created":1700000000})") ==
          "the image config: field 'created' must be a string");
    CHECK(error(R"({"config":{"Labels":{"version":43}}})") ==
          "the image config: config: Labels: field 'version' must be a string");
    CHECK(error(R"({"config":{"Labels":["version"]}})") ==
          "the image config: config: field 'Labels' must be an object");
}
