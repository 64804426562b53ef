#include "sys/ostree/prepare_root.hpp"

#include <glib.h>

namespace bootbench::sys {

namespace fs = std::filesystem;

namespace {

// The file's keys, or nullptr with `error` set when it cannot be parsed.
GKeyFile* load_key_file(const fs::path& file, std::string& error) {
    GKeyFile* keys = g_key_file_new();
    GError* e = nullptr;
    if (g_key_file_load_from_file(keys, file.c_str(), G_KEY_FILE_NONE, &e))
        return keys;
    error = e->message;
    g_error_free(e);
    g_key_file_free(keys);
    return nullptr;
}

// ot_keyfile_get_boolean_with_default: an absent key is false, a value GLib
// cannot read as a boolean ("True", "yes") is an error.
void read_transient(GKeyFile* keys, PrepareRootEtc& out) {
    GError* e = nullptr;
    out.transient = g_key_file_get_boolean(keys, "etc", "transient", &e);
    if (e && !g_error_matches(e, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_KEY_NOT_FOUND) &&
        !g_error_matches(e, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND))
        out.error = std::string("etc.transient: ") + e->message;
    if (e)
        g_error_free(e);
}

} // namespace

PrepareRootEtc prepare_root_etc(const fs::path& deployment_dir) {
    PrepareRootEtc out;
    std::error_code ec;
    for (const char* root : {"usr/lib", "etc"})
        if (fs::exists(deployment_dir / root / "ostree/prepare-root.conf", ec))
            out.file = std::string("/") + root + "/ostree/prepare-root.conf";
    if (out.file.empty())
        return out;
    GKeyFile* keys = load_key_file(deployment_dir / fs::path(out.file).relative_path(), out.error);
    if (keys) {
        read_transient(keys, out);
        g_key_file_free(keys);
    }
    return out;
}

std::vector<core::TransientEtcFact> transient_etc_targets(
    Sysroot& sysroot, const std::map<std::string, core::DeploymentRef>& targets) {
    std::vector<core::TransientEtcFact> out;
    for (const auto& [name, ref] : targets) {
        PrepareRootEtc p = prepare_root_etc(sysroot.deployment_dir(ref));
        if (p.transient || !p.error.empty())
            out.push_back({name, p.file, p.error});
    }
    return out;
}

} // namespace bootbench::sys
