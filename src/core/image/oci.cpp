#include "core/image/oci.hpp"

#include "core/base/error.hpp"
#include "core/base/json_read.hpp"
#include "core/base/regex.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace bootbench::core {

namespace {

using json = nlohmann::json;

constexpr std::string_view kRegistryHint =
    "; image references look like 'ostree-image-signed:docker://ghcr.io/owner/name:tag' or "
    "'quay.io/owner/name@sha256:<hex>'";

[[noreturn]] void bad_ref(const std::string& text, const std::string& what) {
    throw input_error("image reference '" + text + "': " + what + std::string(kRegistryHint));
}

// Transports that name a registry, after an ostree-rs-ext prefix or alone.
constexpr std::array<std::string_view, 2> kRegistryTransports = {"docker://", "registry:"};
// containers-image transports that name no registry: nothing to resolve.
constexpr std::array<std::string_view, 6> kLocalTransports = {
    "oci:", "oci-archive:", "containers-storage:", "dir:", "docker-archive:", "docker-daemon:"};

// Splits "<ostree prefix><transport>" off the name; returns the prefix length.
size_t transport_length(const std::string& text) {
    size_t pos = 0;
    static const Regex remote(R"(^ostree-remote-(image|registry):[A-Za-z0-9._-]+:)");
    RegexMatch m = remote.search(text);
    if (m.outcome == RegexMatch::Outcome::match) {
        pos = m.groups[0].size();
        if (m.groups[1] == "registry")
            return pos;
    } else if (starts_with(text, "ostree-unverified-registry:")) {
        return std::string_view("ostree-unverified-registry:").size();
    } else if (starts_with(text, "ostree-unverified-image:") ||
               starts_with(text, "ostree-image-signed:")) {
        pos = text.find(':') + 1;
    } else if (starts_with(text, "ostree-")) {
        bad_ref(text,
                "unknown ostree transport '" + text.substr(0, text.find(':') + 1) +
                    "' (known: ostree-image-signed:, ostree-unverified-image:, "
                    "ostree-unverified-registry:, ostree-remote-image:, ostree-remote-registry:)");
    }
    std::string_view rest = std::string_view(text).substr(pos);
    for (auto t : kRegistryTransports)
        if (starts_with(rest, t) && (pos > 0 || t == "docker://"))
            return pos + t.size();
    for (auto t : kLocalTransports)
        if (starts_with(rest, t))
            bad_ref(text,
                    "transport '" + std::string(t) +
                        "' names a local image, not a registry: there is no digest to resolve "
                        "(select the target by checksum, or set pin_digest = false)");
    if (pos > 0)
        bad_ref(text, "unknown transport after '" + text.substr(0, pos) + "' (expected docker://)");
    return 0;
}

// distribution/reference's limit on registry + "/" + repository.
constexpr size_t kMaxNameLength = 255;

bool is_registry_component(const std::string& first) {
    return first.find_first_of(".:") != std::string::npos || first == "localhost";
}

void check_name(const std::string& text, const ImageRef& r) {
    static const Regex host(R"([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?)");
    static const Regex component(R"([a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)");
    if (!host.full_match(r.registry))
        bad_ref(text, "'" + r.registry + "' is not a registry host name");
    if (r.repository.empty())
        bad_ref(text, "the repository name is empty");
    if (r.registry.size() + 1 + r.repository.size() > kMaxNameLength)
        bad_ref(text, "the name is longer than " + std::to_string(kMaxNameLength) + " characters");
    size_t start = 0;
    while (start <= r.repository.size()) {
        size_t end = std::min(r.repository.find('/', start), r.repository.size());
        std::string part = r.repository.substr(start, end - start);
        if (!component.full_match(part))
            bad_ref(text, "repository '" + r.repository +
                              "' is not a valid name (lower-case letters, digits and . _ - "
                              "between them, parts separated by /)");
        start = end + 1;
    }
    if (!r.tag.empty() && !is_valid_tag(r.tag))
        bad_ref(text, "tag '" + r.tag + "' is not valid (" + kTagRule + ")");
    if (!r.digest.empty() && !is_valid_digest(r.digest))
        bad_ref(text, "digest '" + r.digest + "' is not valid (sha256:<64 lower-case hex digits>)");
}

} // namespace

bool is_valid_tag(const std::string& tag) {
    static const Regex re(R"([A-Za-z0-9_][A-Za-z0-9_.-]{0,127})");
    return re.full_match(tag);
}

ImageRef parse_image_ref(const std::string& text) {
    if (text.empty())
        bad_ref(text, "it is empty");
    ImageRef r;
    size_t tlen = transport_length(text);
    r.transport = text.substr(0, tlen);
    std::string name = text.substr(tlen);
    if (name.empty())
        bad_ref(text, "no image name after the transport '" + r.transport + "'");
    if (size_t at = name.find('@'); at != std::string::npos) {
        r.digest = name.substr(at + 1);
        name.resize(at);
        if (r.digest.empty())
            bad_ref(text, "the digest after '@' is empty");
    }
    size_t slash = name.find('/');
    if (slash != std::string::npos && is_registry_component(name.substr(0, slash))) {
        r.registry = name.substr(0, slash);
        name = name.substr(slash + 1);
    } else {
        r.registry = "docker.io";
    }
    size_t colon = name.rfind(':');
    if (colon != std::string::npos && name.find('/', colon) == std::string::npos) {
        r.tag = name.substr(colon + 1);
        if (r.tag.empty())
            bad_ref(text, "the tag after ':' is empty");
        name.resize(colon);
    }
    if (r.registry == "index.docker.io")
        r.registry = "docker.io";
    if (r.registry == "docker.io" && name.find('/') == std::string::npos && !name.empty())
        name = "library/" + name;
    r.repository = name;
    if (r.tag.empty() && r.digest.empty())
        r.tag = "latest";
    check_name(text, r);
    return r;
}

std::string to_string(const ImageRef& ref) {
    std::string s = ref.transport + repository_name(ref);
    if (!ref.tag.empty())
        s += ":" + ref.tag;
    if (!ref.digest.empty())
        s += "@" + ref.digest;
    return s;
}

std::string repository_name(const ImageRef& ref) {
    return ref.registry + "/" + ref.repository;
}

std::string pin_reference(const ImageRef& ref, const std::string& digest) {
    if (!is_valid_digest(digest))
        throw Error("cannot pin " + to_string(ref) + " to '" + digest +
                    "': not a digest (sha256:<64 lower-case hex digits>)");
    return ref.transport + repository_name(ref) + "@" + digest;
}

std::string registry_base_url(const ImageRef& ref) {
    return ref.registry == "docker.io" ? "https://registry-1.docker.io" : "https://" + ref.registry;
}

const std::string& manifest_selector(const ImageRef& ref) {
    return ref.digest.empty() ? ref.tag : ref.digest;
}

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

void skip_spaces(std::string_view s, size_t& i) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
}

// A quoted-string (with \-escapes) or a token, starting at s[i].
std::optional<std::string> read_param_value(std::string_view s, size_t& i) {
    std::string v;
    if (i < s.size() && s[i] == '"') {
        for (++i; i < s.size() && s[i] != '"'; ++i) {
            if (s[i] == '\\' && i + 1 < s.size())
                ++i;
            v += s[i];
        }
        if (i >= s.size())
            return std::nullopt; // unterminated quote
        ++i;
        return v;
    }
    while (i < s.size() && s[i] != ',' && s[i] != ' ' && s[i] != '\t')
        v += s[i++];
    return v;
}

} // namespace

BearerChallenge parse_bearer_challenge(const std::string& header) {
    std::string_view s(header);
    size_t i = 0;
    skip_spaces(s, i);
    size_t scheme_end = std::min(s.find_first_of(" \t", i), s.size());
    std::string scheme = lower(std::string(s.substr(i, scheme_end - i)));
    if (scheme == "basic")
        throw Error("the registry asks for a user name and password (WWW-Authenticate: Basic), "
                    "not an anonymous token: the image is private");
    if (scheme != "bearer")
        throw Error("unsupported WWW-Authenticate challenge '" + header +
                    "' (expected Bearer realm=\"...\")");
    BearerChallenge c;
    for (i = scheme_end; i < s.size();) {
        skip_spaces(s, i);
        size_t eq = s.find('=', i);
        if (eq == std::string_view::npos)
            break;
        std::string key = lower(std::string(s.substr(i, eq - i)));
        key.erase(key.find_last_not_of(" \t") + 1);
        i = eq + 1;
        skip_spaces(s, i);
        std::optional<std::string> value = read_param_value(s, i);
        if (!value)
            throw Error("malformed WWW-Authenticate header '" + header + "': unterminated quote");
        if (key == "realm")
            c.realm = *value;
        else if (key == "service")
            c.service = *value;
        else if (key == "scope")
            c.scope = *value;
        skip_spaces(s, i);
        if (i < s.size() && s[i] == ',')
            ++i;
    }
    if (!starts_with(c.realm, "https://") && !starts_with(c.realm, "http://"))
        throw Error("WWW-Authenticate header '" + header +
                    "' has no http(s) realm to ask for a token");
    return c;
}

std::string percent_encode(const std::string& text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

std::string token_url(const BearerChallenge& challenge, const std::string& repository) {
    std::string url =
        challenge.realm + (challenge.realm.find('?') == std::string::npos ? "?" : "&");
    if (!challenge.service.empty())
        url += "service=" + percent_encode(challenge.service) + "&";
    std::string scope =
        challenge.scope.empty() ? "repository:" + repository + ":pull" : challenge.scope;
    return url + "scope=" + percent_encode(scope);
}

std::string parse_token_response(const std::string& body, const std::string& where) {
    json j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw Error("token endpoint " + where + " did not answer with a JSON object");
    for (const char* key : {"token", "access_token"})
        if (j.contains(key) && j[key].is_string() && !j[key].get<std::string>().empty())
            return j[key].get<std::string>();
    throw Error("token endpoint " + where +
                " answered without a \"token\" or \"access_token\" field");
}

std::string to_string(const Platform& p) {
    return p.os + "/" + p.architecture + (p.variant.empty() ? "" : "/" + p.variant);
}

Platform platform_from_machine(const std::string& machine) {
    static const std::array<std::array<const char*, 3>, 8> kMap = {{{"x86_64", "amd64", ""},
                                                                    {"amd64", "amd64", ""},
                                                                    {"aarch64", "arm64", "v8"},
                                                                    {"arm64", "arm64", "v8"},
                                                                    {"armv7l", "arm", "v7"},
                                                                    {"armv6l", "arm", "v6"},
                                                                    {"i686", "386", ""},
                                                                    {"i386", "386", ""}}};
    for (const auto& m : kMap)
        if (machine == m[0])
            return Platform{"linux", m[1], m[2]};
    return Platform{"linux", machine, ""};
}

std::string manifest_accept_header() {
    return std::string(kOciIndex) + ", " + kDockerList + ", " + kOciManifest + ", " +
           kDockerManifest;
}

std::optional<ManifestKind> manifest_kind_of(const std::string& content_type,
                                             const std::string& where) {
    std::string mt = lower(content_type.substr(0, content_type.find(';')));
    mt.erase(std::remove(mt.begin(), mt.end(), ' '), mt.end());
    if (mt == kOciIndex || mt == kDockerList)
        return ManifestKind::index;
    if (mt == kOciManifest || mt == kDockerManifest)
        return ManifestKind::image;
    if (mt.find("distribution.manifest.v1") != std::string::npos)
        throw Error(
            where + " is a Docker schema 1 manifest (" + mt +
            "), which bootbench does not resolve: push the image again with a current tool");
    return std::nullopt;
}

ManifestKind manifest_kind(const std::string& content_type, const std::string& body,
                           const std::string& where) {
    if (auto k = manifest_kind_of(content_type, where))
        return *k;
    json j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw Error(where + " is not a JSON manifest (Content-Type '" + content_type + "')");
    if (j.contains("mediaType") && j["mediaType"].is_string())
        if (auto k = manifest_kind_of(j["mediaType"].get<std::string>(), where))
            return *k;
    if (j.contains("manifests") && j["manifests"].is_array())
        return ManifestKind::index;
    if (j.contains("layers") && j["layers"].is_array())
        return ManifestKind::image;
    throw Error(where + " is neither an image manifest nor an index (Content-Type '" +
                content_type + "')");
}

std::vector<IndexEntry> parse_index(const std::string& body, const std::string& where) {
    json j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw Error(where + ": the index is not valid JSON");
    JsonReader r(j, where);
    std::vector<IndexEntry> entries;
    for (const json& m : r.array("manifests")) {
        JsonReader e = r.child(m, "manifests[" + std::to_string(entries.size()) + "]");
        IndexEntry entry{e.str("digest"), e.str_or("mediaType", ""), Platform{"", "", ""}};
        if (!is_valid_digest(entry.digest))
            e.fail("'" + entry.digest + "' is not a digest");
        if (e.has("platform")) {
            JsonReader p = e.child(e.object("platform"), "platform");
            entry.platform =
                Platform{p.str_or("os", ""), p.str_or("architecture", ""), p.str_or("variant", "")};
        }
        entries.push_back(std::move(entry));
    }
    return entries;
}

namespace {

Platform normalized(const Platform& p) {
    Platform n = p;
    Platform m = platform_from_machine(p.architecture);
    n.architecture = m.architecture;
    if (n.variant.empty() && n.architecture == "arm64")
        n.variant = "v8";
    return n;
}

} // namespace

const IndexEntry& pick_platform(const std::vector<IndexEntry>& entries, const Platform& want,
                                const std::string& where) {
    Platform w = normalized(want);
    const IndexEntry* found = nullptr;
    for (const auto& e : entries) {
        Platform p = normalized(e.platform);
        if (p.os != w.os || p.architecture != w.architecture)
            continue;
        if (!want.variant.empty() && p.variant != w.variant)
            continue;
        if (!found || (!found->platform.variant.empty() && e.platform.variant.empty()))
            found = &e;
    }
    if (found)
        return *found;
    std::string have;
    for (const auto& e : entries)
        have += (have.empty() ? "" : ", ") + to_string(e.platform);
    throw Error(where + " has no image for " + to_string(want) + " (it has: " +
                (have.empty() ? "nothing" : have) + "); pick an image built for this machine");
}

const std::string& staging_digest(const ResolvedImage& image) {
    return image.index_digest.empty() ? image.manifest_digest : image.index_digest;
}

ResolvedImage make_resolved(const ImageRef& ref, const std::string& index_digest,
                            const std::string& manifest_digest, const Platform& platform) {
    ResolvedImage r{to_string(ref), index_digest, manifest_digest, to_string(platform), ""};
    r.pinned_reference = pin_reference(ref, staging_digest(r));
    return r;
}

bool digest_matches(const ResolvedImage& image, const std::string& booted_digest) {
    return !booted_digest.empty() &&
           (booted_digest == image.manifest_digest || booted_digest == image.index_digest);
}

std::optional<std::string> booted_digest_problem(const ResolvedImage& image,
                                                 const std::string& booted_digest) {
    if (booted_digest.empty() || digest_matches(image, booted_digest))
        return std::nullopt;
    std::string recorded = image.manifest_digest;
    if (!image.index_digest.empty())
        recorded += " (index " + image.index_digest + ")";
    return "the booted deployment runs image " + booted_digest + ", but " + image.reference +
           " was recorded as " + recorded +
           " when the experiment started: the tag moved before this target was staged; set "
           "pin_digest = true for this target to stage the recorded image";
}

} // namespace bootbench::core
