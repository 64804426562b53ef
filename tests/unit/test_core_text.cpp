#include "catch.hpp"
#include "core/result/run_result.hpp"
#include "core/base/text.hpp"

#include <nlohmann/json.hpp>
#include <string>

using namespace bootbench::core;

namespace {
const std::string kFffd = "\xEF\xBF\xBD";
}

TEST_CASE("valid_utf8 keeps valid text and replaces each bad sequence by U+FFFD", "[text]") {
    CHECK(valid_utf8("plain ascii") == "plain ascii");
    CHECK(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
    CHECK(valid_utf8("bad \xff\n") == "bad " + kFffd + "\n");
    CHECK(valid_utf8("\xC3") == kFffd);                          // truncated at the end
    CHECK(valid_utf8("\xE2\x82x") == kFffd + "x");               // truncated inside: one U+FFFD
    CHECK(valid_utf8("\xC0\xAF") == kFffd + kFffd);              // overlong '/'
    CHECK(valid_utf8("\xED\xA0\x80") == kFffd + kFffd + kFffd);  // a surrogate
    CHECK(valid_utf8("\xF4\x90\x80\x80") == kFffd + kFffd + kFffd + kFffd); // beyond U+10FFFF
    CHECK(valid_utf8(std::string("a\0b", 3)) == std::string("a\0b", 3));
}

TEST_CASE("valid_utf8_strings of a JSON value fixes keys and strings at any depth", "[text]") {
    nlohmann::json j = {{"k\xff", {{"list", {"ok", "x\xfe", 3}}}}};
    nlohmann::json fixed = valid_utf8_strings(j);
    CHECK(fixed.dump() == "{\"k" + kFffd + "\":{\"list\":[\"ok\",\"x" + kFffd + "\",3]}}");
}

TEST_CASE("json_text writes invalid UTF-8 as U+FFFD instead of throwing", "[text]") {
    nlohmann::json j = {{"failure", "bad \xff"}};
    CHECK_THROWS(j.dump(2));
    CHECK(json_text(j, 2) == "{\n  \"failure\": \"bad " + kFffd + "\"\n}");
    CHECK(json_text(nlohmann::json{{"a", 1}}) == "{\"a\":1}");
}

TEST_CASE("printable escapes what would drive a terminal", "[text]") {
    CHECK(printable("sha256:\x1b]8;;http://x\x1b\\evil\x1b[2J") ==
          "sha256:\\x1b]8;;http://x\\x1b\\evil\\x1b[2J");
    CHECK(printable("a\tb\nc\rd\x7f") == "a\\tb\\nc\\rd\\x7f");
    CHECK(printable("csi \xC2\x9B" "31m") == "csi \\u009b31m");     // C1 control
    CHECK(printable("rtl \xE2\x80\xAE" "gnp.exe") == "rtl \\u202egnp.exe"); // bidi override
    CHECK(printable("caf\xC3\xA9 \xff") == "caf\xC3\xA9 " + kFffd);
    CHECK(printable("two\nlines\tok\x1b", LineBreaks::keep) == "two\nlines\tok\\x1b");
}

TEST_CASE("cap_text cuts at a character boundary and says how much it cut", "[text]") {
    CHECK(cap_text("short", 5, "stderr") == "short");
    CHECK(cap_text("0123456789", 4, "stderr") == "0123 [... 6 more bytes of stderr cut]");
    // "é" is two bytes: the cut never splits it.
    CHECK(cap_text("ab\xC3\xA9z", 3, "the line") == "ab [... 3 more bytes of the line cut]");
}

TEST_CASE("redact finds the secret in every encoding a server could echo", "[text]") {
    const std::string token = "tk/S3cr3t+9f\t8e";
    CHECK(redact("Bearer " + token + " end", token) == "Bearer [redacted] end");
    CHECK(redact("a=tk%2FS3cr3t%2B9f%098e&b", token) == "a=[redacted]&b");       // percent, upper
    CHECK(redact("tk%2fS3cr3t%2b9f%098e", token) == "[redacted]");               // percent, lower
    CHECK(redact("%74%6B/S3cr3t+9f%098e", token) == "[redacted]");               // every byte
    CHECK(redact("{\"auth\":\"tk\\/S3cr3t+9f\\t8e\"}", token) == "{\"auth\":\"[redacted]\"}");
    CHECK(redact("tk/S3cr3t+9f\\u00098e", token) == "[redacted]");
    CHECK(redact("a b", "a b") == "[redacted]");
    CHECK(redact("a+b", "a b") == "[redacted]"); // form encoding of a space
    CHECK(redact("tk tk", "tk") == "[redacted] [redacted]");
    // '%' and '\\' in the secret itself, escaped in the echo.
    CHECK(redact("p%25q", "p%q") == "[redacted]");
    CHECK(redact("{\"t\":\"p\\\\q\"}", "p\\q") == "{\"t\":\"[redacted]\"}");
    CHECK(redact("almost tk/S3cr3t", token) == "almost tk/S3cr3t");
    CHECK(redact("nothing", "") == "nothing");
}

TEST_CASE("with_valid_text makes every string of a run valid UTF-8", "[text]") {
    RunResult r;
    r.failure = "bad \xff";
    r.deployment.origin = "/path/\xfe";
    BenchRecord b;
    b.argv = {"sh", "-c", "printf '\xff'"};
    b.reason = "exited with status 3: \xc3";
    r.benches = {b};
    r.missing = {{"k", "could not run: \xff"}};
    r.environment.hostname = "h\xff";
    r.environment.mitigations = std::map<std::string, std::string>{{"x\xff", "y\xfe"}};
    RunResult v = with_valid_text(r);
    CHECK(v.failure == "bad " + kFffd);
    CHECK(v.deployment.origin == "/path/" + kFffd);
    CHECK(v.benches[0].argv[2] == "printf '" + kFffd + "'");
    CHECK(v.benches[0].reason == "exited with status 3: " + kFffd);
    CHECK(v.missing[0].reason == "could not run: " + kFffd);
    CHECK(to_json(v.environment)["hostname"] == "h" + kFffd);
    CHECK(to_json(v.environment)["mitigations"]["x" + kFffd] == "y" + kFffd);
    CHECK_NOTHROW(to_json(v).dump());
}
