#pragma once
// rpm-ostree's client-layer metadata on a commit, read with GLib (the keys
// and types of coreos/rpm-ostree src/libpriv/rpmostree-core.cxx, read as
// rpmostree_deployment_get_layered_info reads them).
#include "core/host/layering.hpp"

typedef struct _GVariant GVariant;

namespace bootbench::sys {

// `metadata`: the commit's a{sv}; nullptr reads as not layered.
core::Layering layering_of(GVariant* metadata);

} // namespace bootbench::sys
