#pragma once
// Whether systemd may execute the file a unit's ExecStart names, judged by
// its SELinux label. Fedora's policy (fedora-selinux/selinux-policy) lets
// init_t execute bin_t files and move into unconfined_service_t
// (corecmd_exec_bin and unconfined_server_domtrans in init.te); a file
// created under /var/lib is var_lib_t (files.fc), which it may not execute:
// the unit fails with 203/EXEC. /var/usrlocal/(.*/)?bin is bin_t
// (corecommands.fc, and /var/usrlocal is /usr/local in file_contexts.subs_dist).
#include <optional>
#include <string>

namespace bootbench::core {

inline constexpr const char* kExecType = "bin_t";

// "system_u:object_r:bin_t:s0" -> "bin_t"; "" when it has no type field.
std::string selinux_type(const std::string& context);

// "" when a file labelled `label` (nullopt: it has none) may be run by
// systemd under SELinux enforcing; else what is wrong, naming `path`.
std::string exec_label_problem(const std::string& path, const std::optional<std::string>& label);

} // namespace bootbench::core
