#include "core/image/tools_image.hpp"

#include <algorithm>
#include <cctype>

namespace bootbench::core {

std::string describe(const ToolsImage& t) {
    return t.image + " (image " + t.id + (t.digest.empty() ? "" : ", " + t.digest) +
           (t.in_bench_cgroup ? "; in the bench's cgroup" : "") + ")";
}

std::string describe(const PodmanStore& s) {
    std::string where = s.graph_root.empty() ? "" : " (" + s.graph_root + ")";
    return s.root ? "root's store" + where : "the rootless store of user " + s.user + where;
}

std::string root_store_fix(const std::string& image) {
    return "'sudo podman build -t " + image + " containers/bench-tools' or 'podman save " + image +
           " | sudo podman load'";
}

std::string start_sees_found(const PodmanStore& s, const std::string& image) {
    return s.root ? "" : "sudo start looks in root's store, not in this one: put the image there with " +
                             root_store_fix(image);
}

std::string not_in_store(const PodmanStore& s, const std::string& image) {
    std::string fix = "'sudo podman pull " + image + "', or build it ('sudo podman build -t " + image +
                      " containers/bench-tools')";
    if (s.root)
        return "the tools image " + image + " is not in " + describe(s) + ", the store start uses: " + fix +
               "; start pulls it by itself";
    return "the tools image " + image + " is not in " + describe(s) +
           "; sudo start looks in root's store, which this check as " + s.user + " cannot see: " + fix +
           ", or run this with sudo to look there";
}

std::string container_name(const std::string& run_id, const std::string& bench) {
    std::string name = "bootbench-" + run_id + "-" + bench;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
            c = '_';
    return name;
}

std::vector<std::string> container_argv(const ToolsImage& t, const std::string& name,
                                        const std::vector<std::string>& argv, const std::string& shared_dir) {
    std::vector<std::string> out = {"podman", "run", "--rm", "--replace", "--name", name, "--network=none"};
    if (!shared_dir.empty())
        out.push_back("--volume=" + shared_dir + ":" + shared_dir);
    if (t.in_bench_cgroup)
        out.insert(out.end(), {"--cgroups=disabled", "--pid=private"});
    else
        out.push_back("--pid=host");
    out.insert(out.end(), {"--ipc=host", "--privileged", t.id});
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

namespace {

// `argv` without the `perf stat -x, -o FILE -e EVENTS --` that counts it
// (sys/run/perf_counters): its file is the run's, the bench is the same.
std::vector<std::string> uncounted(std::vector<std::string> argv) {
    static const std::vector<std::string> counted = {"perf", "stat", "-x,", "-o"};
    if (argv.size() < counted.size() || !std::equal(counted.begin(), counted.end(), argv.begin()))
        return argv;
    auto end = std::find(argv.begin(), argv.end(), "--");
    return end == argv.end() ? argv : std::vector<std::string>(end + 1, argv.end());
}

} // namespace

std::vector<std::string> command_inside(const std::vector<std::string>& argv) {
    if (argv.size() < 2 || argv[0] != "podman" || argv[1] != "run")
        return uncounted(argv);
    auto image = std::find(argv.begin(), argv.end(), "--privileged");
    if (image == argv.end() || image + 1 == argv.end())
        return {};
    return uncounted({image + 2, argv.end()});
}

} // namespace bootbench::core
