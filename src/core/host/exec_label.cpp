#include "core/host/exec_label.hpp"

namespace bootbench::core {

std::string selinux_type(const std::string& context) {
    auto role_end = context.find(':', context.find(':') + 1);
    if (context.find(':') == std::string::npos || role_end == std::string::npos)
        return "";
    auto type_end = context.find(':', role_end + 1);
    return context.substr(role_end + 1, type_end == std::string::npos ? type_end : type_end - role_end - 1);
}

std::string exec_label_problem(const std::string& path, const std::optional<std::string>& label) {
    if (label && selinux_type(*label) == kExecType)
        return "";
    std::string has = label ? "is labelled " + *label : "has no SELinux label";
    return path + " " + has + ": SELinux lets systemd (init_t) execute " + kExecType +
           " files only, so the unit fails with 203/EXEC";
}

} // namespace bootbench::core
