#include "sys/probe/booted_deployment.hpp"

#include "core/base/error.hpp"

#include <ostree.h>

namespace bootbench::sys {

namespace {

std::string key_or_empty(GKeyFile* kf, const char* group, const char* key) {
    g_autofree char* v = kf ? g_key_file_get_string(kf, group, key, nullptr) : nullptr;
    return v ? v : "";
}

std::string origin_of(OstreeDeployment* d) {
    GKeyFile* origin = ostree_deployment_get_origin(d); // transfer none
    std::string image = key_or_empty(origin, "origin", "container-image-reference");
    return image.empty() ? key_or_empty(origin, "origin", "refspec") : image;
}

// The commit's "version" metadata; empty when the commit or the key is absent.
std::string version_of(OstreeSysroot* sysroot, const char* csum) {
    g_autoptr(OstreeRepo) repo = nullptr; // transfer full
    if (!ostree_sysroot_get_repo(sysroot, &repo, nullptr, nullptr))
        return "";
    g_autoptr(GVariant) commit = nullptr;
    if (!ostree_repo_load_commit(repo, csum, &commit, nullptr, nullptr))
        return "";
    g_autoptr(GVariant) meta = g_variant_get_child_value(commit, 0);
    const char* version = nullptr;
    return g_variant_lookup(meta, "version", "&s", &version) && version ? version : "";
}

} // namespace

core::DeploymentRecord booted_deployment(const std::filesystem::path& root) {
    core::DeploymentRecord rec;
    std::error_code ec;
    if (!std::filesystem::exists(root / "run/ostree-booted", ec))
        return rec;
    g_autoptr(GFile) path = g_file_new_for_path(root.c_str());
    g_autoptr(OstreeSysroot) sysroot = ostree_sysroot_new(path);
    g_autoptr(GError) error = nullptr;
    if (!ostree_sysroot_load(sysroot, nullptr, &error))
        throw Error("Reading the booted deployment from " + root.string() + ": " + error->message +
                    " (run/ostree-booted exists there, so an ostree sysroot is expected)");
    OstreeDeployment* booted = ostree_sysroot_get_booted_deployment(sysroot); // transfer none
    if (!booted)
        return rec;
    rec.stateroot = ostree_deployment_get_osname(booted);
    rec.checksum = ostree_deployment_get_csum(booted);
    rec.serial = ostree_deployment_get_deployserial(booted);
    rec.origin = origin_of(booted);
    rec.version = version_of(sysroot, ostree_deployment_get_csum(booted));
    return rec;
}

} // namespace bootbench::sys
