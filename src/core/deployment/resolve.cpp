#include "core/deployment/resolve.hpp"

#include "core/base/error.hpp"

#include <functional>

namespace bootbench::core {

namespace {

std::string strip_remote(const std::string& refspec) {
    auto colon = refspec.find(':');
    return colon == std::string::npos ? refspec : refspec.substr(colon + 1);
}

bool candidate(const DeploymentInfo& d) { return !d.staged && d.kargs_for.empty(); }

// The one candidate for which `match` holds, or an error naming all of them.
Resolution unique_match(const Target& t, const std::vector<DeploymentInfo>& ds,
                        const std::function<bool(const DeploymentInfo&)>& match,
                        const std::string& what) {
    Resolution r{t.name, std::nullopt, "", "", false};
    std::vector<const DeploymentInfo*> hits;
    for (const auto& d : ds)
        if (candidate(d) && match(d))
            hits.push_back(&d);
    if (hits.size() == 1) {
        r.deployment = *hits[0];
        r.how = what;
    } else if (hits.empty()) {
        r.error = "no deployment has " + what;
        r.not_deployed = true;
    } else {
        r.error = std::to_string(hits.size()) + " deployments have " + what + " (";
        for (size_t i = 0; i < hits.size(); ++i)
            r.error += (i ? ", " : "") + std::to_string(hits[i]->index);
        r.error += "): select one with checksum = \"...\" or deployment = N";
    }
    return r;
}

// "registry/repository" of an image reference; "" when it does not parse.
std::string repository_of(const std::string& reference) {
    try {
        return repository_name(parse_image_ref(reference));
    } catch (const Error&) {
        return "";
    }
}

std::string digest_named_in(const std::string& reference) {
    try {
        return parse_image_ref(reference).digest;
    } catch (const Error&) {
        return "";
    }
}

Resolution resolve_image(const Target& t, const std::vector<DeploymentInfo>& ds, const ResolvedImage* recorded) {
    std::string want = normalize_image(t.selector.value);
    if (!t.pin_digest || !recorded)
        return unique_match(t, ds, [&](const DeploymentInfo& d) {
            return !d.image.empty() && normalize_image(d.image) == want;
        }, "image " + want);
    std::string repository = repository_of(t.selector.value);
    return unique_match(t, ds, [&](const DeploymentInfo& d) {
        return !d.image.empty() && repository_of(d.image) == repository &&
               (digest_matches(*recorded, d.image_digest) || digest_matches(*recorded, digest_named_in(d.image)));
    }, "image " + want + " at " + staging_digest(*recorded));
}

// One character of `name` against the bracket expression at `p` (just past
// '['); the position after its ']', or npos when `p` has no closing ']'
// (then '[' is an ordinary character, as fnmatch has it).
size_t bracket(const std::string& pat, size_t p, char c, bool& matched) {
    bool negate = p < pat.size() && (pat[p] == '!' || pat[p] == '^');
    size_t i = p + negate;
    matched = false;
    for (bool first = true; i < pat.size() && (first || pat[i] != ']'); first = false, ++i) {
        if (i + 2 < pat.size() && pat[i + 1] == '-' && pat[i + 2] != ']') {
            matched |= pat[i] <= c && c <= pat[i + 2];
            i += 2;
        } else
            matched |= pat[i] == c;
    }
    if (i >= pat.size())
        return std::string::npos;
    matched ^= negate;
    return i + 1;
}

// Whether pattern element at `p` matches `c`; `next` is set past the element.
bool one_char(const std::string& pat, size_t p, char c, size_t& next) {
    if (pat[p] == '[') {
        bool matched = false;
        size_t after = bracket(pat, p + 1, c, matched);
        if (after != std::string::npos) {
            next = after;
            return matched;
        }
    }
    next = p + 1;
    return pat[p] == '?' || pat[p] == c;
}

} // namespace

std::string normalize_image(const std::string& reference) {
    std::string s = reference;
    for (const char* prefix : {"ostree-image-signed:", "ostree-unverified-registry:",
                               "ostree-unverified-image:"})
        if (s.rfind(prefix, 0) == 0)
            s = s.substr(std::string(prefix).size());
    if (s.rfind("ostree-remote-image:", 0) == 0) {
        s = s.substr(20);
        s = s.substr(s.find(':') == std::string::npos ? 0 : s.find(':') + 1);
    }
    if (s.rfind("docker://", 0) == 0)
        s = s.substr(9);
    return s;
}

Resolution resolve_target(const Target& t, const std::vector<DeploymentInfo>& ds, const ResolvedImage* recorded) {
    const Selector& sel = t.selector;
    switch (sel.kind) {
    case SelectorKind::image:
        return resolve_image(t, ds, recorded);
    case SelectorKind::refspec:
        return unique_match(t, ds, [&](const DeploymentInfo& d) {
            return d.refspec == sel.value ||
                   (!d.refspec.empty() && strip_remote(d.refspec) == strip_remote(sel.value));
        }, "refspec " + sel.value);
    case SelectorKind::checksum: {
        Resolution r = unique_match(t, ds, [&](const DeploymentInfo& d) {
            return d.ref.checksum.rfind(sel.value, 0) == 0;
        }, "checksum " + sel.value);
        r.not_deployed = false; // a checksum cannot be staged by name
        return r;
    }
    case SelectorKind::deployment:
        for (const auto& d : ds)
            if (d.index == sel.index && candidate(d))
                return {t.name, d, "deployment index " + std::to_string(sel.index), "", false};
        return {t.name, std::nullopt, "",
                "no deployment at index " + std::to_string(sel.index) +
                    (sel.index < static_cast<int>(ds.size()) ? " that can be used (it is staged)" : ""),
                false};
    }
    return {};
}

std::string stateroot_problem(const std::vector<Resolution>& rs, const DeploymentInfo& current) {
    std::string list;
    bool mixed = false;
    for (const auto& r : rs) {
        if (!r.deployment)
            continue;
        list += (list.empty() ? "" : ", ") + r.target + " in " + r.deployment->ref.stateroot;
        mixed = mixed || r.deployment->ref.stateroot != current.ref.stateroot;
    }
    if (!mixed)
        return "";
    return "the targets are not all in the stateroot that runs now (" + current.ref.stateroot + "): " +
           list + ". Each stateroot has its own /var, so the state and results in /var/lib/bootbench "
           "would not reach every boot; deploy all targets into one stateroot (bootc switch and "
           "rpm-ostree rebase keep the current one) and start from it";
}

std::string layered_problem(const Target& t, const DeploymentInfo& d) {
    if (t.selector.kind != SelectorKind::image || !d.layering.layered || t.allow_layered)
        return "";
    return "target '" + t.name + "' is the image " + normalize_image(t.selector.value) + ", but its deployment " +
           describe(d.ref) + " has packages layered on the image by rpm-ostree (" + describe(d.layering) +
           "): its runs would measure them as the image. Remove them from that deployment ('rpm-ostree "
           "uninstall' or 'rpm-ostree reset' when it is booted), or set allow_layered = true in target '" +
           t.name + "' to measure the deployment as it is (the report names the packages)";
}

bool glob_match(const std::string& pattern, const std::string& name) {
    size_t p = 0, n = 0, star = std::string::npos, resume = 0;
    while (n < name.size()) {
        size_t next = 0;
        if (p < pattern.size() && pattern[p] == '*') {
            star = ++p;
            resume = n;
        } else if (p < pattern.size() && one_char(pattern, p, name[n], next)) {
            p = next;
            ++n;
        } else if (star != std::string::npos) {
            p = star;
            n = ++resume;
        } else
            return false;
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

std::string describe(const DeploymentInfo& d) {
    std::string s = std::to_string(d.index) + ": " + d.ref.stateroot + "/" +
                    d.ref.checksum.substr(0, 12) + "." + std::to_string(d.ref.serial);
    if (!d.image.empty())
        s += " image " + d.image;
    else if (!d.refspec.empty())
        s += " refspec " + d.refspec;
    if (!d.version.empty())
        s += " version " + d.version;
    std::string flags;
    for (auto [on, name] : {std::pair{d.booted, "booted"}, {d.staged, "staged"}, {d.pinned, "pinned"},
                            {!d.kargs_for.empty(), "bootbench kargs"}})
        if (on)
            flags += (flags.empty() ? "" : ", ") + std::string(name);
    return flags.empty() ? s : s + " (" + flags + ")";
}

std::string describe_all(const std::vector<DeploymentInfo>& ds) {
    std::string s;
    for (const auto& d : ds)
        s += "  " + describe(d) + "\n";
    return s;
}

} // namespace bootbench::core
