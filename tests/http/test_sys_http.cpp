#include "error_of.hpp"
#include "catch.hpp"
#include "core/base/error.hpp"
#include "loopback_server.hpp"
#include "sys/net/http.hpp"

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>

using namespace bootbench;
using namespace bootbench::sys;
using bootbench::test::loopback;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

using bootbench::test::error_of;

HttpRequest get(const std::string& url, double timeout_s = 10) {
    HttpRequest r;
    r.url = url;
    r.timeout_s = timeout_s;
    r.connect_timeout_s = timeout_s;
    return r;
}

} // namespace

TEST_CASE("a GET sends its headers and returns status, headers and body", "[http]") {
    CurlHttpClient http;
    HttpRequest req = get(loopback().base() + "/echo");
    req.headers = {{"Accept", "application/x-test"}, {"X-Empty", ""}};
    HttpResponse res = http.request(req);
    CHECK(res.status == 200);
    CHECK(res.header("content-type") == "application/json");
    CHECK(res.header("CONTENT-TYPE") == "application/json");
    CHECK(res.header("X-Nothing").empty());
    CHECK(res.final_url == loopback().base() + "/echo");
    auto echo = nlohmann::json::parse(res.body);
    CHECK(echo["method"] == "GET");
    CHECK(echo["headers"]["Accept"] == "application/x-test");
    CHECK(echo["headers"]["X-Empty"] == "");
    CHECK(echo["headers"]["User-Agent"] == "bootbench");
}

TEST_CASE("a POST sends its body", "[http]") {
    CurlHttpClient http;
    HttpRequest req = get(loopback().base() + "/echo");
    req.method = HttpMethod::post;
    req.body = std::string(3000, 'b'); // over curl's 1 KiB Expect: 100-continue threshold
    auto echo = nlohmann::json::parse(http.request(req).body);
    CHECK(echo["method"] == "POST");
    CHECK(echo["body"] == req.body);
    CHECK_FALSE(echo["headers"].contains("Expect")); // no 1 s wait for a 100-continue
}

TEST_CASE("a HEAD returns headers without a body", "[http]") {
    CurlHttpClient http;
    HttpRequest req = get(loopback().base() + "/v2/open/plain/manifests/v1");
    req.method = HttpMethod::head;
    HttpResponse res = http.request(req);
    CHECK(res.status == 200);
    CHECK(res.header("Docker-Content-Digest").rfind("sha256:", 0) == 0);
    CHECK(res.body.empty());
}

TEST_CASE("HTTP error statuses are responses, not exceptions", "[http]") {
    CurlHttpClient http;
    CHECK(http.request(get(loopback().base() + "/v2/broken/x/manifests/v1")).status == 500);
    CHECK(http.request(get(loopback().base() + "/no/such/thing")).status == 404);
}

TEST_CASE("redirects are followed and the final URL is reported", "[http]") {
    CurlHttpClient http;
    HttpResponse res = http.request(get(loopback().base() + "/redirect?to=/echo"));
    CHECK(res.status == 200);
    CHECK(res.final_url == loopback().base() + "/echo");
    CHECK(res.header("Location").empty()); // headers are the final response's
}

TEST_CASE("a redirect loop ends with an error naming the URL", "[http]") {
    CurlHttpClient http;
    std::string url = loopback().base() + "/redirect-loop";
    CHECK(error_of([&] { http.request(get(url)); }) ==
          "HTTP GET " + url +
              ": Number of redirects hit maximum amount (Maximum (5) redirects followed); "
              "more than 5 redirects");
}

TEST_CASE("Authorization is not sent to another host after a redirect", "[http]") {
    CurlHttpClient http;
    HttpRequest req = get(loopback().base() + "/redirect?host=localhost&to=/echo");
    req.headers = {{"Authorization", "Bearer secret"}};
    HttpResponse res = http.request(req);
    REQUIRE(res.status == 200);
    CHECK(res.final_url.rfind("http://localhost:", 0) == 0);
    CHECK_FALSE(nlohmann::json::parse(res.body)["headers"].contains("Authorization"));

    req.url = loopback().base() + "/redirect?to=/echo"; // same host: kept
    CHECK(nlohmann::json::parse(http.request(req).body)["headers"]["Authorization"] ==
          "Bearer secret");
}

TEST_CASE("a slow server is cut off at the total timeout", "[http]") {
    CurlHttpClient http;
    std::string url = loopback().base() + "/slow?s=3";
    auto start = Clock::now();
    std::string err = error_of([&] { http.request(get(url, 0.5)); });
    CHECK(seconds_since(start) < 1.5);
    CHECK(err.rfind("HTTP GET " + url + ": Timeout was reached", 0) == 0);
    CHECK(err.find("; no complete answer within 500 ms") != std::string::npos);
}

TEST_CASE("a server that never answers is cut off at the total timeout", "[http]") {
    CurlHttpClient http;
    auto start = Clock::now();
    std::string err = error_of([&] { http.request(get(loopback().dead_base() + "/x", 0.4)); });
    CHECK(seconds_since(start) < 1.4);
    CHECK(err.find("HTTP GET " + loopback().dead_base() + "/x: Timeout was reached") == 0);
}

TEST_CASE("a refused connection says so and hides credentials in the URL", "[http]") {
    CurlHttpClient http;
    std::string url = loopback().closed_base();
    url.insert(7, "user:hunter2@");
    std::string err = error_of([&] { http.request(get(url + "/x")); });
    CHECK(err.rfind("HTTP GET " + loopback().closed_base() + "/x: Couldn't connect to server", 0) ==
          0);
    CHECK(err.find("is the network up?") != std::string::npos);
    CHECK(err.find("hunter2") == std::string::npos);
}

TEST_CASE("an oversized answer is an error, not a memory hazard", "[http]") {
    CurlHttpClient http;
    CHECK(error_of([&] { http.request(get(loopback().base() + "/big")); }) ==
          "HTTP GET " + loopback().base() + "/big: the answer is larger than 8 MiB");
}

TEST_CASE("header values with line breaks are refused before anything is sent", "[http]") {
    CurlHttpClient http;
    size_t before = loopback().requests("/echo?injected").size();
    HttpRequest req = get(loopback().base() + "/echo?injected");
    req.headers = {{"Title", "a\r\nX-Evil: 1"}};
    CHECK(error_of([&] { http.request(req); }) ==
          "HTTP GET " + loopback().base() +
              "/echo?injected: header 'Title' has a line break or a bad name; not sent");
    CHECK(loopback().requests("/echo?injected").size() == before);
}

TEST_CASE("https to a plain-http port fails TLS; it never falls back", "[http]") {
    CurlHttpClient http;
    std::string url =
        "https://127.0.0.1:" + loopback().base().substr(loopback().base().rfind(':') + 1) + "/echo";
    std::string err = error_of([&] { http.request(get(url, 3)); });
    INFO(err);
    CHECK(err.rfind("HTTP GET " + url + ": SSL connect error", 0) == 0);
}

TEST_CASE("display_url drops user and password", "[http]") {
    CHECK(display_url("https://u:p@host/x?y=z@w") == "https://host/x?y=z@w");
    CHECK(display_url("https://host/a@b") == "https://host/a@b");
    CHECK(display_url("not a url") == "not a url");
}

TEST_CASE("TLS peers are verified: a self-signed server is refused", "[http][tls]") {
    CurlHttpClient http;
    std::string url = loopback().tls_base() + "/echo";
    std::string err = error_of([&] { http.request(get(url, 5)); });
    INFO(err);
    CHECK(err.rfind("HTTP GET " + url + ": SSL peer certificate or SSH remote key was not OK", 0) ==
          0);
    CHECK(err.find("self-signed certificate") != std::string::npos);
}

TEST_CASE("a trusted CA file makes the same server good; host names are still checked",
          "[http][tls]") {
    CurlHttpClient http;
    HttpRequest req = get(loopback().tls_base() + "/echo", 5);
    req.ca_file = loopback().ca_file();
    HttpResponse res = http.request(req);
    CHECK(res.status == 200);
    CHECK(nlohmann::json::parse(res.body)["method"] == "GET");

    // The certificate names IP 127.0.0.1 only.
    req.url =
        "https://localhost:" + loopback().tls_base().substr(loopback().tls_base().rfind(':') + 1) +
        "/echo";
    std::string err = error_of([&] { http.request(req); });
    CHECK(err.rfind("HTTP GET " + req.url + ": SSL peer certificate or SSH remote key was not OK",
                    0) == 0);
    CHECK(err.find("localhost") != std::string::npos);
}

TEST_CASE("a redirect from https to plain http is refused", "[http][tls]") {
    CurlHttpClient http;
    std::string plain_port = loopback().base().substr(loopback().base().rfind(':') + 1);
    HttpRequest req = get(loopback().tls_base() + "/redirect?port=" + plain_port + "&to=/echo", 5);
    req.ca_file = loopback().ca_file();
    size_t before = loopback().requests("/echo").size();
    std::string err = error_of([&] { http.request(req); });
    CHECK(err.rfind("HTTP GET " + req.url + ": Unsupported protocol", 0) == 0);
    CHECK(loopback().requests("/echo").size() == before);
}
