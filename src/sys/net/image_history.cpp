#include "sys/net/image_history.hpp"

#include "core/bisect/image_history.hpp"
#include "sys/net/images.hpp"
#include "sys/net/registry.hpp"

namespace bootbench::sys {

namespace {

struct Lookup {
    CurlHttpClient http;
    RegistryOptions options = lookup_options();
    core::Platform platform = host_platform();
};

// A build listed by digest alone goes by its digest where a tag would show.
core::ImageBuild describe(Lookup& l, const core::ImageRef& ref) {
    core::ImageBuild b = describe_image(ref, l.http, l.platform, l.options);
    if (b.tag.empty())
        b.tag = ref.digest;
    return b;
}

core::ImageRef with_tag(core::ImageRef repo, const std::string& tag) {
    repo.tag = tag;
    repo.digest.clear();
    return repo;
}

// bisect.tags: the repository's tags that match, and good's and bad's.
std::vector<core::ImageBuild> tagged_builds(const core::BisectConfig& c, const core::ImageRef& repo, Lookup& l,
                                            std::ostream& out) {
    std::vector<std::string> tags = core::tags_to_describe(c, list_tags(repo, l.http, l.options));
    out << "reading the images of " << tags.size() << " tags of " << core::repository_name(repo) << " (good's, bad's and "
        << c.tags << ")\n";
    std::vector<core::ImageBuild> builds;
    for (const auto& t : tags)
        builds.push_back(describe(l, with_tag(repo, t)));
    return core::order_image_builds(std::move(builds), core::endpoint_tag(c.good, "good"),
                                    core::endpoint_tag(c.bad, "bad"), core::repository_name(repo));
}

// bisect.candidates: good, the listed builds and bad, as written.
std::vector<core::ImageBuild> listed_builds(const core::BisectConfig& c, const core::ImageRef& repo, Lookup& l) {
    std::vector<std::string> refs = {c.good.image};
    refs.insert(refs.end(), c.candidates.begin(), c.candidates.end());
    refs.push_back(c.bad.image);
    std::vector<core::ImageBuild> builds;
    for (const auto& r : refs)
        builds.push_back(describe(l, core::parse_image_ref(r)));
    core::check_listed_builds(builds, core::repository_name(repo));
    return builds;
}

} // namespace

ImageHistory image_history(const core::BisectConfig& c, std::ostream& out) {
    core::ImageRef repo = core::bisect_image_repository(c);
    Lookup l;
    auto builds = c.candidates.empty() ? tagged_builds(c, repo, l, out) : listed_builds(c, repo, l);
    ImageHistory h{core::repository_name(repo), {}, {}};
    for (const auto& b : builds) {
        h.builds.push_back(core::image_build_info(b));
        h.images.push_back(core::pinned_image(repo, b));
    }
    return h;
}

} // namespace bootbench::sys
