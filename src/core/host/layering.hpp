#pragma once
// What rpm-ostree layered on a deployment's image: the metadata it writes on a
// client-layer commit (coreos/rpm-ostree src/libpriv/rpmostree-core.cxx,
// rpmostree_context_commit). Such a commit has the image's commit as parent and
// no ostree.manifest-digest of its own. Pure.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bootbench::core {

struct Layering {
    bool layered = false;              // rpmostree.clientlayer (rpmostree.spec before clientlayer v1)
    std::vector<std::string> packages; // rpmostree.packages: the packages requested
    std::vector<std::string> removed;  // rpmostree.removed-base-packages: the image's packages removed (NEVRA)
    std::vector<std::string> replaced; // rpmostree.replaced-base-{,remote-}packages: replacements (NEVRA)

    bool operator==(const Layering&) const = default;
};

// "packages htop, vim; removed firefox-120.0-1.fc39.x86_64" ("layered" when
// the commit lists nothing).
std::string describe(const Layering& l);

// {"packages": [...], "removed": [...], "replaced": [...]}.
nlohmann::json to_json(const Layering& l);
// Throws bootbench::Error naming `where` and the field when malformed.
Layering layering_from_json(const nlohmann::json& j, const std::string& where);

} // namespace bootbench::core
