#include "sys/net/images.hpp"

#include "core/base/error.hpp"
#include "core/image/oci.hpp"
#include "core/base/text.hpp"
#include "sys/net/registry.hpp"

#include <cstdlib>

namespace bootbench::sys {

RegistryOptions lookup_options() {
    RegistryOptions options;
    if (const char* base = std::getenv("BOOTBENCH_REGISTRY_URL"))
        options.base_url = base;
    options.timeout_s = 15;
    options.connect_timeout_s = 5;
    return options;
}

nlohmann::json resolve_images(const core::Experiment& e, std::ostream& out, DigestPolicy policy) {
    nlohmann::json images = nlohmann::json::object();
    RegistryOptions options = lookup_options();
    CurlHttpClient http;
    for (const auto& t : e.targets) {
        if (t.selector.kind != core::SelectorKind::image)
            continue;
        try {
            core::ResolvedImage image = resolve_target_image(t, http, options);
            images[t.name] = core::to_json(image);
            out << "  " << t.name << ": " << image.reference << " is "
                << core::staging_digest(image) << " (" << image.platform << ")\n";
        } catch (const Error& err) {
            if (policy == DigestPolicy::required && t.pin_digest)
                throw Error(std::string(err.what()) + " (pin_digest = true needs the digest)");
            out << "  " << t.name << ": digest not resolved, results name the tag only: " << core::printable(err.what()) << "\n";
        }
    }
    return images;
}

} // namespace bootbench::sys
