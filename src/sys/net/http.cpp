#include "sys/net/http.hpp"

#include "core/base/error.hpp"

#include <algorithm>
#include <cmath>
#include <curl/curl.h>
#include <memory>
#include <mutex>
#include <strings.h>

namespace bootbench::sys {

namespace {

using CurlPtr = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;
using SlistPtr = std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)>;

bool same_name(std::string_view a, std::string_view b) {
    return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

struct Exchange {
    HttpResponse response;
    bool body_too_large = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
    auto* ex = static_cast<Exchange*>(user);
    size_t n = size * count;
    if (ex->response.body.size() + n > kMaxBodyBytes) {
        ex->body_too_large = true;
        return 0; // makes curl fail with CURLE_WRITE_ERROR
    }
    ex->response.body.append(data, n);
    return n;
}

std::string trim(std::string_view s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

// Called once per header line of every response, redirects included: a
// status line starts the headers of the next response.
size_t on_header(char* data, size_t size, size_t count, void* user) {
    auto* ex = static_cast<Exchange*>(user);
    size_t n = size * count;
    std::string_view line(data, n);
    if (line.substr(0, 5) == "HTTP/") {
        ex->response.headers.clear();
    } else if (size_t colon = line.find(':'); colon != std::string_view::npos) {
        ex->response.headers.push_back({trim(line.substr(0, colon)), trim(line.substr(colon + 1))});
    }
    return n;
}

bool has_line_break(const std::string& s) {
    return s.find_first_of("\r\n", 0) != std::string::npos || s.find('\0') != std::string::npos;
}

SlistPtr header_list(const HttpRequest& req) {
    SlistPtr list(nullptr, &curl_slist_free_all);
    auto add = [&](const std::string& line) {
        curl_slist* next = curl_slist_append(list.get(), line.c_str());
        if (!next)
            throw Error("out of memory building HTTP headers");
        static_cast<void>(list.release());
        list.reset(next);
    };
    for (const auto& h : req.headers) {
        if (h.name.empty() || has_line_break(h.name) || has_line_break(h.value) ||
            h.name.find(':') != std::string::npos)
            throw Error("HTTP " + std::string(to_string(req.method)) + " " + display_url(req.url) +
                        ": header '" + h.name + "' has a line break or a bad name; not sent");
        // "Name;" is curl's way to send a header with an empty value.
        add(h.value.empty() ? h.name + ";" : h.name + ": " + h.value);
    }
    if (req.method == HttpMethod::post)
        add("Expect:"); // no 100-continue round trip for small bodies
    return list;
}

long to_ms(double seconds) {
    return std::max(1L, static_cast<long>(std::ceil(seconds * 1000.0)));
}

void set_common(CURL* c, const HttpRequest& req, Exchange& ex, char* errbuf) {
    bool https = req.url.rfind("https://", 0) == 0;
    curl_easy_setopt(c, CURLOPT_URL, req.url.c_str());
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, kMaxRedirects);
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, https ? "https" : "http,https");
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, to_ms(req.timeout_s));
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                     to_ms(std::min(req.connect_timeout_s, req.timeout_s)));
    curl_easy_setopt(c, CURLOPT_USERAGENT, "bootbench");
    if (!req.ca_file.empty())
        curl_easy_setopt(c, CURLOPT_CAINFO, req.ca_file.c_str());
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &ex);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, &on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &ex);
    if (req.method == HttpMethod::head) {
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    } else if (req.method == HttpMethod::post) {
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, req.body.c_str());
    }
}

// The failures a user acts on, in words that do not change with libcurl's
// version (8.x says "Could not connect to server" where 7.88 said
// "Couldn't connect to server"); the rest in libcurl's own.
std::string curl_words(CURLcode rc) {
    switch (rc) {
    case CURLE_COULDNT_CONNECT:
        return "Couldn't connect to server";
    case CURLE_COULDNT_RESOLVE_HOST:
        return "Couldn't resolve host name";
    default:
        return curl_easy_strerror(rc);
    }
}

std::string failure_text(CURLcode rc, const char* errbuf, const HttpRequest& req,
                         const Exchange& ex) {
    if (ex.body_too_large)
        return "the answer is larger than " + std::to_string(kMaxBodyBytes >> 20) + " MiB";
    std::string text = curl_words(rc);
    if (errbuf[0] != '\0')
        text += " (" + std::string(errbuf) + ")";
    if (rc == CURLE_OPERATION_TIMEDOUT)
        text += "; no complete answer within " + std::to_string(to_ms(req.timeout_s)) + " ms";
    else if (rc == CURLE_TOO_MANY_REDIRECTS)
        text += "; more than " + std::to_string(kMaxRedirects) + " redirects";
    else if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST)
        text += "; is the network up?";
    return text;
}

} // namespace

const char* to_string(HttpMethod method) { return core::name_of(kMethodNames, method); }

std::string HttpResponse::header(std::string_view name) const {
    for (const auto& h : headers)
        if (same_name(h.name, name))
            return h.value;
    return "";
}

std::vector<std::string> HttpResponse::headers_named(std::string_view name) const {
    std::vector<std::string> values;
    for (const auto& h : headers)
        if (same_name(h.name, name))
            values.push_back(h.value);
    return values;
}

std::string display_url(const std::string& url) {
    size_t scheme = url.find("://");
    if (scheme == std::string::npos)
        return url;
    size_t authority = scheme + 3;
    size_t end = std::min(url.find_first_of("/?#", authority), url.size());
    size_t at = url.rfind('@', end);
    if (at == std::string::npos || at < authority)
        return url;
    return url.substr(0, authority) + url.substr(at + 1);
}

CurlHttpClient::CurlHttpClient() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
            throw Error("libcurl could not be initialised (curl_global_init failed)");
    });
}

HttpResponse CurlHttpClient::request(const HttpRequest& req) {
    std::string what = "HTTP " + std::string(to_string(req.method)) + " " + display_url(req.url);
    CurlPtr curl(curl_easy_init(), &curl_easy_cleanup);
    if (!curl)
        throw Error(what + ": libcurl could not create a handle");
    SlistPtr headers = header_list(req);
    Exchange ex;
    char errbuf[CURL_ERROR_SIZE] = {};
    set_common(curl.get(), req, ex, errbuf);
    curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers.get());
    CURLcode rc = curl_easy_perform(curl.get());
    if (rc != CURLE_OK)
        throw Error(what + ": " + failure_text(rc, errbuf, req, ex));
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &ex.response.status);
    char* final_url = nullptr;
    curl_easy_getinfo(curl.get(), CURLINFO_EFFECTIVE_URL, &final_url);
    ex.response.final_url = final_url ? final_url : req.url;
    return std::move(ex.response);
}

} // namespace bootbench::sys
