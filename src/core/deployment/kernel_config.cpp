#include "core/deployment/kernel_config.hpp"

#include "core/base/error.hpp"
#include "core/base/text.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace bootbench::core {

namespace {

constexpr const char* kPrefixes[] = {"CONFIG_HZ",
                                     "CONFIG_NO_HZ",
                                     "CONFIG_PREEMPT",
                                     "CONFIG_SCHED_",
                                     "CONFIG_CACHY",
                                     "CONFIG_MITIGATION_",
                                     "CONFIG_SPECULATION_MITIGATIONS"};

bool is_option_name(const std::string& name) {
    if (name.rfind("CONFIG_", 0) != 0 || name.size() == 7)
        return false;
    for (char c : name)
        if (!(std::isupper(static_cast<unsigned char>(c)) ||
              std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

[[noreturn]] void bad_config(const std::string& file, int line, const std::string& what) {
    throw Error(file + ":" + std::to_string(line) + ": " + what +
                "; the kernel config is damaged: reinstall the kernel package of that tree");
}

// "# CONFIG_X is not set" -> "CONFIG_X"; "" for any other comment.
std::string unset_option(const std::string& line) {
    const std::string head = "# ", tail = " is not set";
    if (line.size() <= head.size() + tail.size() || line.rfind(head, 0) != 0 ||
        line.compare(line.size() - tail.size(), tail.size(), tail) != 0)
        return "";
    std::string name = line.substr(head.size(), line.size() - head.size() - tail.size());
    return is_option_name(name) ? name : "";
}

void take_line(const std::string& line, int number, const std::string& file, FactMap& out) {
    if (line.empty())
        return;
    if (line[0] == '#') {
        std::string name = unset_option(line);
        if (!name.empty() && kernel_option_matters(name))
            out[name] = "n";
        return;
    }
    size_t eq = line.find('=');
    std::string name = line.substr(0, eq);
    if (eq == std::string::npos || eq + 1 == line.size() || !is_option_name(name))
        bad_config(file, number, "expected CONFIG_NAME=value, got '" + printable(line) + "'");
    if (kernel_option_matters(name))
        out[name] = line.substr(eq + 1);
}

} // namespace

bool kernel_option_matters(const std::string& name) {
    for (const char* prefix : kPrefixes)
        if (name.rfind(prefix, 0) == 0)
            return true;
    return false;
}

FactMap parse_kernel_config(const std::string& text, const std::string& file) {
    if (text.empty())
        bad_config(file, 1, "empty");
    if (text.back() != '\n')
        bad_config(file, static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1,
                   "truncated: the last line has no end");
    FactMap out;
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number)
        take_line(line, number, file, out);
    return out;
}

} // namespace bootbench::core
