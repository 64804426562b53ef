#include "sys/probe/idle_suspend.hpp"

#include "core/base/error.hpp"
#include "sys/store/files.hpp"

#include <algorithm>
#include <map>

namespace bootbench::sys {

namespace {

namespace fs = std::filesystem;

// Where systemd reads logind.conf and its drop-ins, highest precedence first.
const char* const kLogindDirs[] = {"etc/systemd", "run/systemd", "usr/local/lib/systemd", "usr/lib/systemd"};

std::optional<core::ConfText> read_conf(const fs::path& file) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        return std::nullopt;
    try {
        return core::ConfText{file.string(), read_text_file(file)};
    } catch (const Error&) {
        return std::nullopt;
    }
}

// The regular files of `dir` ending in `suffix` ("" for any), in name order.
std::vector<fs::path> files_in(const fs::path& dir, const std::string& suffix) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::string name = e.path().filename().string();
        if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            out.push_back(e.path());
    }
    std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    return out;
}

// systemd's rule: drop-ins sorted by file name across the folders; a name
// in a folder of higher precedence hides the same name below it, and one
// linked to /dev/null (or empty) disables it.
std::vector<core::ConfText> logind_files(const fs::path& root) {
    std::vector<core::ConfText> out;
    for (const char* dir : kLogindDirs)
        if (auto main = read_conf(root / dir / "logind.conf")) {
            out.push_back(*main);
            break;
        }
    std::map<std::string, fs::path> dropins; // by name: the first (highest) folder's
    for (const char* dir : kLogindDirs)
        for (const auto& f : files_in(root / dir / "logind.conf.d", ".conf"))
            dropins.emplace(f.filename().string(), f);
    for (const auto& [name, file] : dropins)
        if (auto conf = read_conf(file)) // a link to /dev/null is no regular file
            out.push_back(*conf);
    return out;
}

void add_files(std::vector<core::ConfText>& out, const fs::path& dir, const std::string& suffix) {
    for (const auto& f : files_in(dir, suffix))
        if (auto conf = read_conf(f))
            out.push_back(*conf);
}

} // namespace

core::IdleSuspendFacts probe_idle_suspend(const fs::path& root) {
    core::IdleSuspendFacts f;
    f.logind = logind_files(root);
    std::error_code ec;
    f.gdm = fs::exists(root / "usr/lib/systemd/system/gdm.service", ec);
    fs::path schemas = root / "usr/share/glib-2.0/schemas";
    if (auto xml = read_conf(schemas / "org.gnome.settings-daemon.plugins.power.gschema.xml"))
        f.power_schema = *xml;
    add_files(f.schema_overrides, schemas, ".gschema.override");
    // GDM's profile: user-db:user, system-db:gdm, local, site, distro; the
    // first wins, so they are applied from the last.
    for (const char* db : {"distro", "site", "local", "gdm"})
        add_files(f.gdm_dconf, root / "etc/dconf/db" / (std::string(db) + ".d"), "");
    return f;
}

} // namespace bootbench::sys
