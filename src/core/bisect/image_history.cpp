#include "core/bisect/image_history.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"
#include "core/base/time.hpp"
#include "core/deployment/resolve.hpp"

#include <algorithm>
#include <set>

namespace bootbench::core {

namespace {

bool same_repository(const ImageRef& a, const ImageRef& b) {
    return a.registry == b.registry && a.repository == b.repository;
}

void check_same(const ImageRef& repo, const std::string& reference, const std::string& what) {
    if (!same_repository(repo, parse_image_ref(reference)))
        throw input_error(what + " '" + reference + "' is not an image of " + repository_name(repo) +
                          " (bisect.good's): a bisect follows one image's builds");
}

// Where `tag` is among the builds, or an error saying it was not listed.
size_t index_of(const std::vector<ImageBuild>& builds, const std::string& tag, const char* which,
                const std::string& image) {
    for (size_t i = 0; i < builds.size(); ++i)
        if (builds[i].tag == tag)
            return i;
    throw input_error("bisect." + std::string(which) + "'s tag '" + tag + "' is not a tag of " + image);
}

void require_created(const std::vector<ImageBuild>& builds, const std::string& image) {
    for (const auto& b : builds)
        if (!parse_instant(b.created))
            throw input_error("the build " + image + ":" + b.tag + " has no creation time in its image config" +
                              (b.created.empty() ? "" : " ('" + printable(b.created) + "')") +
                              ": its place in the history is unknown; list the builds between good and bad "
                              "in bisect.candidates, oldest first");
}

bool older(const ImageBuild& a, const ImageBuild& b) {
    int c = compare_instants(a.created, b.created);
    return c != 0 ? c < 0 : a.tag < b.tag;
}

// Tags that name an image an earlier tag named are one build: the first stays.
std::vector<ImageBuild> one_per_image(std::vector<ImageBuild> builds, const std::string& keep_a,
                                      const std::string& keep_b) {
    std::stable_partition(builds.begin(), builds.end(),
                          [&](const ImageBuild& b) { return b.tag == keep_a || b.tag == keep_b; });
    std::set<std::string> seen;
    std::vector<ImageBuild> out;
    for (auto& b : builds)
        if (seen.insert(b.digest).second)
            out.push_back(std::move(b));
    return out;
}

void check_two_images(const ImageBuild& good, const ImageBuild& bad, const std::string& image) {
    if (good.digest == bad.digest)
        throw input_error("bisect.good (" + good.tag + ") and bisect.bad (" + bad.tag + ") are one image of " +
                          image + " (" + good.digest + "): nothing to bisect");
}

void check_span(const ImageBuild& good, const ImageBuild& bad, long between, const std::string& image) {
    if (between < 0)
        throw input_error("bisect.good (" + image + ":" + good.tag + ", created " + good.created +
                          ") is not older than bisect.bad (" + bad.tag + ", created " + bad.created +
                          "): good must be the earlier build");
    if (between < 2)
        throw input_error("nothing to bisect: " + image + " has " + count_of(between, "build") +
                          " between good '" + good.tag + "' and bad '" + bad.tag +
                          "'; bisect needs at least 2 (with fewer, compare good and bad with 'bootbench start')");
}

// Two builds created at one instant have no order (reproducible builds
// often write 1970-01-01 or their source's date): never guessed by tag.
void check_no_ties(const std::vector<ImageBuild>& span, const std::string& image) {
    for (size_t i = 1; i < span.size(); ++i)
        if (compare_instants(span[i - 1].created, span[i].created) == 0)
            throw input_error("the builds " + image + ":" + span[i - 1].tag + " and " + span[i].tag +
                              " were both created at " + printable(span[i].created) +
                              ": their order in the history is unknown; list the builds between good and bad "
                              "in bisect.candidates, oldest first");
}

} // namespace

ImageRef bisect_image_repository(const BisectConfig& c) {
    ImageRef repo = parse_image_ref(c.good.image);
    check_same(repo, c.bad.image, "bisect.bad");
    for (const auto& x : c.candidates)
        check_same(repo, x, "bisect.candidates:");
    return repo;
}

std::string endpoint_tag(const BisectBuild& b, const char* which) {
    ImageRef r = parse_image_ref(b.image);
    if (!r.digest.empty())
        throw input_error("bisect." + std::string(which) + " '" + b.image +
                          "' names a digest: give the tag it was built as (e.g. :stable-20261101), so "
                          "that it can be placed among the registry's tags");
    return r.tag;
}

std::vector<std::string> tags_to_describe(const BisectConfig& c, const std::vector<std::string>& listed) {
    std::string good = endpoint_tag(c.good, "good"), bad = endpoint_tag(c.bad, "bad");
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& t : listed)
        if ((t == good || t == bad || glob_match(c.tags, t)) && seen.insert(t).second)
            out.push_back(t);
    return out;
}

std::vector<ImageBuild> order_image_builds(std::vector<ImageBuild> builds, const std::string& good_tag,
                                           const std::string& bad_tag, const std::string& image) {
    check_two_images(builds[index_of(builds, good_tag, "good", image)],
                     builds[index_of(builds, bad_tag, "bad", image)], image);
    require_created(builds, image);
    builds = one_per_image(std::move(builds), good_tag, bad_tag);
    std::stable_sort(builds.begin(), builds.end(), older);
    size_t g = index_of(builds, good_tag, "good", image), b = index_of(builds, bad_tag, "bad", image);
    check_span(builds[g], builds[b], static_cast<long>(b) - static_cast<long>(g) - 1, image);
    std::vector<ImageBuild> span(builds.begin() + static_cast<long>(g), builds.begin() + static_cast<long>(b) + 1);
    check_no_ties(span, image);
    return span;
}

CommitInfo image_build_info(const ImageBuild& b) {
    std::string hex = b.digest.substr(b.digest.find(':') + 1);
    auto t = parse_instant(b.created);
    return {hex, b.tag, printable(b.version), t ? format_instant(*t) : printable(b.created)};
}

std::string pinned_image(const ImageRef& repository, const ImageBuild& b) {
    if (repository.transport.rfind("ostree-", 0) == 0)
        return pin_reference(repository, b.digest);
    ImageRef bare = repository; // docker:// or none: what ostree-container calls unverified
    bare.transport.clear();
    return "ostree-unverified-registry:" + pin_reference(bare, b.digest);
}

void check_listed_builds(const std::vector<ImageBuild>& builds, const std::string& image) {
    for (size_t i = 0; i < builds.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (builds[i].digest == builds[j].digest)
                throw input_error(image + ":" + builds[j].tag + " and " + builds[i].tag + " are one image (" +
                                  builds[i].digest + "): list each build once");
}

} // namespace bootbench::core
