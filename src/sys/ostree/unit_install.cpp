#include "sys/ostree/unit_install.hpp"

#include "core/base/error.hpp"
#include "sys/store/files.hpp"
#include "unit_text.hpp"

#include <sstream>

namespace bootbench::sys {

namespace {

fs::path unit_path(const fs::path& etc) { return etc / "systemd/system" / kResumeUnitName; }
fs::path wants_link(const fs::path& etc) {
    return etc / "systemd/system/multi-user.target.wants" / kResumeUnitName;
}

// With [tools] image the unit runs podman: these two would stop its runtime.
constexpr const char* kNoNewPrivilegesOff =
    "# NoNewPrivileges is off: [tools] image runs the benches with podman, whose\n"
    "# SELinux label transition it would block.\n";
constexpr const char* kProtectHostnameOff =
    "# ProtectHostname is off: [tools] image runs the benches with podman, whose\n"
    "# runtime sets each container's hostname (seen: crun: sethostname: EPERM).\n";

void replace_once(std::string& text, const std::string& key, const std::string& with) {
    auto pos = text.find(key);
    if (pos != std::string::npos)
        text.replace(pos, key.size(), with);
}

} // namespace

std::string resume_unit_text(int timeout_s, bool container_tools) {
    std::string text = kResumeUnitText;
    replace_once(text, "@TIMEOUT@", std::to_string(timeout_s));
    if (container_tools) {
        replace_once(text, "NoNewPrivileges=yes\n", kNoNewPrivilegesOff);
        replace_once(text, "ProtectHostname=yes\n", kProtectHostnameOff);
    }
    return text;
}

std::vector<std::string> install_unit(const fs::path& etc_dir, int timeout_s, bool container_tools) {
    make_dirs(wants_link(etc_dir).parent_path());
    write_file_atomic(unit_path(etc_dir), resume_unit_text(timeout_s, container_tools));
    std::error_code ec;
    fs::remove(wants_link(etc_dir), ec);
    fs::create_symlink(std::string("../") + kResumeUnitName, wants_link(etc_dir), ec);
    if (ec)
        throw Error("cannot enable the unit in " + etc_dir.string() + ": " + ec.message());
    return {"/etc/systemd/system/multi-user.target.wants", std::string("/etc/systemd/system/") + kResumeUnitName,
            std::string("/etc/systemd/system/multi-user.target.wants/") + kResumeUnitName};
}

void remove_unit(const fs::path& etc_dir) {
    std::error_code ec;
    fs::remove(wants_link(etc_dir), ec);
    fs::remove(unit_path(etc_dir), ec);
    if (ec)
        throw Error("cannot remove the unit from " + etc_dir.string() + ": " + ec.message());
}

std::vector<std::string> exec_start_argv(const std::string& unit_text) {
    auto pos = unit_text.find("\nExecStart=");
    if (pos == std::string::npos)
        return {};
    auto eol = unit_text.find('\n', pos + 1);
    std::istringstream words(unit_text.substr(pos + 11, eol - pos - 11));
    std::vector<std::string> argv;
    for (std::string w; words >> w;)
        argv.push_back(w);
    return argv;
}

fs::path unit_file(const fs::path& etc_dir) { return unit_path(etc_dir); }

bool unit_installed(const fs::path& etc_dir) {
    std::error_code ec;
    return fs::exists(unit_path(etc_dir), ec) && fs::is_symlink(wants_link(etc_dir), ec);
}

void install_binary(const fs::path& dest, const fs::path& source) {
    make_dirs(dest.parent_path());
    std::error_code ec;
    fs::path self = source.empty() ? fs::read_symlink("/proc/self/exe", ec) : source;
    if (ec)
        throw Error("cannot find the running bootbench binary: " + ec.message());
    if (fs::exists(dest, ec) && fs::equivalent(self, dest, ec))
        return;
    write_file_atomic(dest, read_text_file(self), 0755);
}

} // namespace bootbench::sys
