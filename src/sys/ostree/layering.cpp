#include "sys/ostree/layering.hpp"

#include <glib.h>

namespace bootbench::sys {

namespace {

bool layered(GVariant* metadata) {
    gboolean clientlayer = FALSE;
    if (g_variant_lookup(metadata, "rpmostree.clientlayer", "b", &clientlayer))
        return clientlayer;
    g_autoptr(GVariant) spec = g_variant_lookup_value(metadata, "rpmostree.spec", nullptr); // before v1
    return spec != nullptr;
}

std::vector<std::string> strings(GVariant* metadata, const char* key) {
    std::vector<std::string> out;
    g_autoptr(GVariant) v = g_variant_lookup_value(metadata, key, G_VARIANT_TYPE_STRING_ARRAY);
    for (gsize i = 0; v && i < g_variant_n_children(v); ++i) {
        g_autoptr(GVariant) s = g_variant_get_child_value(v, i);
        out.emplace_back(g_variant_get_string(s, nullptr));
    }
    return out;
}

// A package as rpm-ostree records it: a variant of (sstsss), its NEVRA first.
void add_nevra(GVariant* boxed, std::vector<std::string>& out) {
    g_autoptr(GVariant) pkg = g_variant_get_variant(boxed);
    if (g_variant_is_of_type(pkg, G_VARIANT_TYPE("(sstsss)"))) {
        const char* nevra = nullptr;
        g_variant_get_child(pkg, 0, "&s", &nevra);
        out.emplace_back(nevra);
    }
}

// a(vv): (new, old) pairs; the new package is what runs.
void add_replacements(GVariant* pairs, std::vector<std::string>& out) {
    for (gsize i = 0; pairs && i < g_variant_n_children(pairs); ++i) {
        g_autoptr(GVariant) pair = g_variant_get_child_value(pairs, i);
        g_autoptr(GVariant) fresh = g_variant_get_child_value(pair, 0);
        add_nevra(fresh, out);
    }
}

std::vector<std::string> removed(GVariant* metadata) {
    std::vector<std::string> out;
    g_autoptr(GVariant) v = g_variant_lookup_value(metadata, "rpmostree.removed-base-packages", G_VARIANT_TYPE("av"));
    for (gsize i = 0; v && i < g_variant_n_children(v); ++i) {
        g_autoptr(GVariant) boxed = g_variant_get_child_value(v, i);
        add_nevra(boxed, out);
    }
    return out;
}

std::vector<std::string> replaced(GVariant* metadata) {
    std::vector<std::string> out;
    g_autoptr(GVariant) local =
        g_variant_lookup_value(metadata, "rpmostree.replaced-base-packages", G_VARIANT_TYPE("a(vv)"));
    add_replacements(local, out);
    g_autoptr(GVariant) remote =
        g_variant_lookup_value(metadata, "rpmostree.replaced-base-remote-packages", G_VARIANT_TYPE("a{sv}"));
    for (gsize i = 0; remote && i < g_variant_n_children(remote); ++i) { // source -> a(vv)
        g_autoptr(GVariant) entry = g_variant_get_child_value(remote, i);
        g_autoptr(GVariant) boxed = g_variant_get_child_value(entry, 1);
        g_autoptr(GVariant) pairs = g_variant_get_variant(boxed);
        if (g_variant_is_of_type(pairs, G_VARIANT_TYPE("a(vv)")))
            add_replacements(pairs, out);
    }
    return out;
}

} // namespace

core::Layering layering_of(GVariant* metadata) {
    if (!metadata || !layered(metadata))
        return {};
    return {true, strings(metadata, "rpmostree.packages"), removed(metadata), replaced(metadata)};
}

} // namespace bootbench::sys
