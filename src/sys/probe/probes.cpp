#include "sys/probe/probes.hpp"

#include "core/bench/parsers.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/utsname.h>
#include <sys/xattr.h>

namespace bootbench::sys {

namespace {

using nlohmann::json;

// Splits "policy10" into ("policy", 10) so that names sort numerically.
std::pair<std::string, long> split_number(const std::string& name) {
    size_t i = name.find_last_not_of("0123456789");
    std::string digits = name.substr(i == std::string::npos ? 0 : i + 1);
    if (digits.empty() || digits.size() > 9)
        return {name, -1};
    return {name.substr(0, name.size() - digits.size()), std::stol(digits)};
}

std::optional<std::string> cpuinfo_field(const fs::path& root, const std::string& field) {
    std::ifstream in(root / "proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        size_t colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
        if (key == field)
            return line.substr(std::min(line.size(), colon + 2));
    }
    return std::nullopt;
}

std::optional<long long> nproc_of(const fs::path& root) {
    if (auto online = read_probe(root / "sys/devices/system/cpu/online"))
        if (auto n = count_cpu_list(*online))
            return *n;
    return std::nullopt;
}

// A string when every cpufreq policy agrees, else an object policy -> value.
std::optional<json> per_policy(const fs::path& root, const std::string& file) {
    json values = json::object();
    for (const auto& dir : probe_dirs(root / "sys/devices/system/cpu/cpufreq", "policy"))
        if (auto v = read_probe(dir / file))
            values[dir.filename().string()] = *v;
    if (values.empty())
        return std::nullopt;
    bool same = std::all_of(values.begin(), values.end(),
                            [&](const json& v) { return v == values.begin().value(); });
    return same ? values.begin().value() : values;
}

std::optional<std::map<std::string, std::string>> mitigations_of(const fs::path& root) {
    std::map<std::string, std::string> out;
    std::error_code ec;
    fs::path dir = root / "sys/devices/system/cpu/vulnerabilities";
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (auto v = read_probe(e.path()))
            out[e.path().filename().string()] = *v;
    if (out.empty())
        return std::nullopt;
    return out;
}

std::optional<json> number_or_text(const std::optional<std::string>& v) {
    if (!v)
        return std::nullopt;
    if (auto n = core::parse_number(*v))
        return *n;
    return *v;
}

} // namespace

std::optional<bool> mains_online(const fs::path& root) {
    std::optional<bool> result;
    for (const auto& dir : probe_dirs(root / "sys/class/power_supply", "")) {
        if (read_probe(dir / "type") != std::optional<std::string>("Mains"))
            continue;
        if (auto online = read_probe(dir / "online"))
            result = result.value_or(false) || *online == "1";
    }
    return result;
}

std::string kernel_release() {
    utsname u{};
    return ::uname(&u) == 0 ? u.release : "";
}

std::optional<std::string> read_probe(const fs::path& path) {
    std::ifstream in(path);
    if (!in)
        return std::nullopt;
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        return std::nullopt;
    std::string s = ss.str();
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return std::string();
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::optional<std::string> selinux_label(const fs::path& file) {
    char buf[4096];
    ssize_t n = ::getxattr(file.c_str(), "security.selinux", buf, sizeof buf);
    if (n <= 0)
        return std::nullopt;
    std::string label(buf, static_cast<size_t>(n));
    while (!label.empty() && label.back() == '\0')
        label.pop_back();
    return label;
}

std::vector<fs::path> probe_dirs(const fs::path& dir, const std::string& prefix) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) == 0 && e.is_directory(ec))
            out.push_back(e.path());
    }
    std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
        return split_number(a.filename().string()) < split_number(b.filename().string());
    });
    return out;
}

std::optional<int> count_cpu_list(const std::string& list) {
    int count = 0;
    std::istringstream in(list);
    std::string part;
    while (std::getline(in, part, ',')) {
        size_t dash = part.find('-');
        auto lo = core::parse_number(part.substr(0, dash));
        auto hi = dash == std::string::npos ? lo : core::parse_number(part.substr(dash + 1));
        if (!lo || !hi || *hi < *lo)
            return std::nullopt;
        count += static_cast<int>(*hi - *lo) + 1;
    }
    return count > 0 ? std::optional<int>(count) : std::nullopt;
}

core::EnvironmentRecord probe_environment(const fs::path& root) {
    core::EnvironmentRecord env;
    env.kernel_release = read_probe(root / "proc/sys/kernel/osrelease");
    env.kernel_version = read_probe(root / "proc/sys/kernel/version");
    env.cmdline = read_probe(root / "proc/cmdline");
    env.cpu_model = cpuinfo_field(root, "model name");
    env.nproc = nproc_of(root);
    env.smt = read_probe(root / "sys/devices/system/cpu/smt/control");
    env.governor = per_policy(root, "scaling_governor");
    env.epp = per_policy(root, "energy_performance_preference");
    env.mitigations = mitigations_of(root);
    env.sched_ext_state = read_probe(root / "sys/kernel/sched_ext/state");
    env.sched_ext_ops = read_probe(root / "sys/kernel/sched_ext/root/ops");
    env.sched_bore = number_or_text(read_probe(root / "proc/sys/kernel/sched_bore"));
    env.ac_power = mains_online(root);
    env.dmi_product = read_probe(root / "sys/class/dmi/id/product_name");
    env.hostname = read_probe(root / "proc/sys/kernel/hostname");
    env.boot_id = read_probe(root / "proc/sys/kernel/random/boot_id");
    env.temp_start_c = std::nullopt; // the suite's Sensors fill these
    env.temp_end_c = std::nullopt;
    env.temp_sensor = std::nullopt;
    return env;
}

} // namespace bootbench::sys
