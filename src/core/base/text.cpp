#include "core/base/text.hpp"

#include <array>
#include <cstdio>
#include <sstream>

namespace bootbench::core {

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
    std::string s;
    for (const auto& p : parts)
        s += (s.empty() ? "" : std::string(sep)) + p;
    return s;
}

std::vector<std::string> split_words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

std::string last_line(const std::string& text) {
    size_t end = text.find_last_not_of(" \t\r\n");
    if (end == std::string::npos)
        return "";
    size_t newline = text.find_last_of('\n', end);
    size_t start = newline == std::string::npos ? 0 : newline + 1;
    return text.substr(start, end - start + 1);
}

std::string count_of(long long n, const std::string& word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD

struct Utf8Step {
    size_t length; // of the valid sequence, or of the maximal ill-formed part (>= 1)
    bool valid;
};

unsigned byte_at(std::string_view t, size_t i) {
    return i < t.size() ? static_cast<unsigned char>(t[i]) : 0x100;
}

// The UTF-8 sequence that starts at t[i] (Unicode table 3-7: no overlong
// forms, no surrogates, nothing beyond U+10FFFF).
Utf8Step utf8_step(std::string_view t, size_t i) {
    unsigned c = byte_at(t, i);
    if (c < 0x80)
        return {1, true};
    size_t need = 0;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        lo = c == 0xE0 ? 0xA0 : lo;
        hi = c == 0xED ? 0x9F : hi;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        lo = c == 0xF0 ? 0x90 : lo;
        hi = c == 0xF4 ? 0x8F : hi;
    } else {
        return {1, false};
    }
    for (size_t k = 1; k <= need; ++k) {
        unsigned x = byte_at(t, i + k);
        if (x < (k == 1 ? lo : 0x80u) || x > (k == 1 ? hi : 0xBFu))
            return {k, false};
    }
    return {need + 1, true};
}

std::string hex_escape(const char* format, unsigned value) {
    char buf[16];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

// The escape for a one-byte control character, or "" when `c` is none.
std::string control_escape(unsigned c, LineBreaks breaks) {
    if (c >= 0x20 && c != 0x7f)
        return "";
    if (breaks == LineBreaks::keep && (c == '\n' || c == '\t'))
        return "";
    if (c == '\n')
        return "\\n";
    if (c == '\t')
        return "\\t";
    if (c == '\r')
        return "\\r";
    return hex_escape("\\x%02x", c);
}

// The code point of a valid 2- or 3-byte sequence worth escaping (C1
// controls, bidi embeddings, overrides and isolates), or 0.
unsigned invisible_code_point(std::string_view seq) {
    auto b = [&](size_t k) { return static_cast<unsigned char>(seq[k]); };
    if (seq.size() == 2 && b(0) == 0xC2 && b(1) < 0xA0)
        return b(1);
    if (seq.size() != 3 || b(0) != 0xE2)
        return 0;
    unsigned cp = 0x2000u | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ? cp : 0;
}

int hex_digit(unsigned c) {
    if (c >= '0' && c <= '9')
        return static_cast<int>(c - '0');
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
        return static_cast<int>((c | 0x20) - 'a' + 10);
    return -1;
}

// The byte spelled by two hex digits at t[i], or -1.
int hex_byte(std::string_view t, size_t i) {
    int hi = hex_digit(byte_at(t, i)), lo = hex_digit(byte_at(t, i + 1));
    return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

// The byte a JSON escape letter stands for, or -1.
int json_escaped(unsigned letter) {
    switch (letter) {
    case 't': return '\t';
    case 'n': return '\n';
    case 'r': return '\r';
    case 'b': return '\b';
    case 'f': return '\f';
    case '/': return '/';
    case '\\': return '\\';
    case '"': return '"';
    }
    return -1;
}

// The lengths (0 for none) of the ways the bytes of `t` from `i` spell the
// byte `c`: as is ('+' for a space), percent-encoded, or JSON-escaped. A
// '%' or '\\' can be itself or start an escape: both are tried.
std::array<size_t, 2> spellings_at(std::string_view t, size_t i, unsigned char c) {
    unsigned first = byte_at(t, i);
    size_t plain = first == c || (first == '+' && c == ' ') ? 1 : 0;
    size_t escaped = 0;
    if (first == '%' && hex_byte(t, i + 1) == c)
        escaped = 3;
    else if (first == '\\' && json_escaped(byte_at(t, i + 1)) == c)
        escaped = 2;
    else if (first == '\\' && byte_at(t, i + 1) == 'u' && hex_byte(t, i + 2) == 0 &&
             hex_byte(t, i + 4) == c)
        escaped = 6;
    return {plain, escaped};
}

// The length of a spelling of `secret` that starts at t[i], or 0.
size_t secret_at(std::string_view t, size_t i, std::string_view secret) {
    if (secret.empty())
        return 0;
    for (size_t n : spellings_at(t, i, static_cast<unsigned char>(secret[0]))) {
        if (n == 0)
            continue;
        if (secret.size() == 1)
            return n;
        if (size_t rest = secret_at(t, i + n, secret.substr(1)))
            return n + rest;
    }
    return 0;
}

} // namespace

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        Utf8Step s = utf8_step(text, i);
        if (s.valid)
            out.append(text.substr(i, s.length));
        else
            out.append(kReplacement);
        i += s.length;
    }
    return out;
}

nlohmann::json valid_utf8_strings(nlohmann::json j) {
    if (j.is_string())
        return valid_utf8(j.get_ref<const std::string&>());
    if (j.is_array()) {
        for (auto& item : j)
            item = valid_utf8_strings(std::move(item));
    } else if (j.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [key, value] : j.items())
            out[valid_utf8(key)] = valid_utf8_strings(value);
        return out;
    }
    return j;
}

std::string printable(std::string_view text, LineBreaks breaks) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        Utf8Step s = utf8_step(text, i);
        std::string_view seq = text.substr(i, s.length);
        i += s.length;
        if (!s.valid) {
            out.append(kReplacement);
        } else if (std::string e = control_escape(byte_at(seq, 0), breaks); !e.empty()) {
            out += e;
        } else if (unsigned cp = invisible_code_point(seq)) {
            out += hex_escape("\\u%04x", cp);
        } else {
            out.append(seq);
        }
    }
    return out;
}

std::string cap_text(std::string_view text, size_t max, std::string_view what) {
    if (text.size() <= max)
        return std::string(text);
    size_t cut = max;
    while (cut > 0 && (byte_at(text, cut) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut)) + " [... " + std::to_string(text.size() - cut) +
           " more bytes of " + std::string(what) + " cut]";
}

std::string json_text(const nlohmann::json& j, int indent) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string redact(std::string_view text, std::string_view secret) {
    if (secret.empty())
        return std::string(text);
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        if (size_t n = secret_at(text, i, secret)) {
            out += "[redacted]";
            i += n;
        } else {
            out += text[i++];
        }
    }
    return out;
}

std::string ascii_safe(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            // one '?' per UTF-8 sequence, not per byte
            while (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80)
                ++i;
            out += '?';
        } else if (c < 0x20 || c == 0x7f) {
            out += ' ';
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

} // namespace bootbench::core
