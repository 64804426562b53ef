#pragma once
// Image targets' tags resolved to digests at plan, start and simulate, so
// that every result names the exact image it measured.
#include "core/experiment/experiment.hpp"
#include "sys/net/registry.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace bootbench::sys {

enum class DigestPolicy {
    best_effort, // a lookup that fails is reported, and the tag is recorded alone
    required,    // pin_digest targets: a lookup that fails is an error
};

// The registry's options for bootbench's lookups: https://<registry>, or
// $BOOTBENCH_REGISTRY_URL (a mirror, or a test's loopback registry), and
// short timeouts (a lookup must not hold a start for minutes).
RegistryOptions lookup_options();

// target -> core::ResolvedImage JSON, for every image target whose lookup
// worked; one line per image target on `out`. The registry is asked at
// https://<registry>, or at $BOOTBENCH_REGISTRY_URL (a mirror, or a test's
// loopback registry). Throws for a pin_digest target under `required`.
nlohmann::json resolve_images(const core::Experiment& e, std::ostream& out, DigestPolicy policy);

} // namespace bootbench::sys
