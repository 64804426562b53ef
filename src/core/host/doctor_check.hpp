#pragma once
// One line of `bootbench doctor`: a check's name, ok / warn / fail, what
// it found and the fix. core/host/doctor makes most of them, core/host/idle_suspend one.
#include "core/base/string_table.hpp"

#include <string>

namespace bootbench::core {

enum class CheckStatus { ok, warn, fail };
inline constexpr Named<CheckStatus> kCheckStatusNames[] = {
    {"ok", CheckStatus::ok}, {"warn", CheckStatus::warn}, {"fail", CheckStatus::fail}};
const char* to_string(CheckStatus v);

struct DoctorCheck {
    std::string name; // stable key for --json: "ostree", "free-space-var", ...
    CheckStatus status = CheckStatus::ok;
    std::string message;
    std::string fix; // "" when there is nothing to do
};

} // namespace bootbench::core
