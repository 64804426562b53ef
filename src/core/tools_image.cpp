#include "core/tools_image.hpp"

#include <cctype>

namespace bootbench::core {

std::string describe(const ToolsImage& t) {
    return t.image + " (image " + t.id + (t.digest.empty() ? "" : ", " + t.digest) +
           (t.in_bench_cgroup ? "; in the bench's cgroup" : "") + ")";
}

std::string container_name(const std::string& run_id, const std::string& bench) {
    std::string name = "bootbench-" + run_id + "-" + bench;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
            c = '_';
    return name;
}

std::vector<std::string> container_argv(const ToolsImage& t, const std::string& name,
                                        const std::vector<std::string>& argv) {
    std::vector<std::string> out = {"podman", "run", "--rm", "--replace", "--name", name, "--network=none"};
    if (t.in_bench_cgroup)
        out.insert(out.end(), {"--cgroups=disabled", "--pid=private"});
    else
        out.push_back("--pid=host");
    out.insert(out.end(), {"--ipc=host", "--privileged", t.id});
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

} // namespace bootbench::core
