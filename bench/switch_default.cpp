// The time to make another deployment the default, three ways, on a sandbox
// sysroot whose repository holds FILES extra objects (a real Fedora
// repository holds hundreds of thousands):
//   bootbench   Sysroot::set_default, what every run does
//   floor       the bare libostree reorder: write_deployments, no cleanup
//   postclean   the same with do_postclean = TRUE (bootbench before, which
//               pruned the whole repository at every run)
// Usage: switch-default DIR [FILES [ROUNDS]]   (DIR must not exist)
//        switch-default --live [ROUNDS]
// --live times bootbench and the floor on this machine's own sysroot (/):
// the default and the next deployment swap places, bootbench's way then the
// bare way, ROUNDS times; the order ends as it began. The VM test runs it in
// its first boot, beside the runs it times.
#include "core/experiment/experiment.hpp"
#include "sys/ostree/sandbox.hpp"
#include "sys/ostree/sysroot.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <ostree.h>
#include <string>
#include <vector>

namespace {

using namespace bootbench;
namespace fs = std::filesystem;

const char* kExperiment = R"([experiment]
name = "switch"
runs = 1
baseline = "a"
[[target]]
name = "a"
deployment = 0
[[target]]
name = "b"
deployment = 1
[[bench]]
kind = "perf-sched-pipe"
)";

// FILES distinct small files committed under a ref of their own, so the
// prune has that many reachable objects to walk.
void inflate_repo(const fs::path& sysroot, int files) {
    fs::path tree = sysroot.parent_path() / "bulk-tree";
    fs::create_directories(tree);
    for (int i = 0; i < files; ++i)
        std::ofstream(tree / std::to_string(i)) << "object " << i << "\n";
    std::string cmd = "ostree commit --repo=" + (sysroot / "ostree/repo").string() +
                      " --branch=bulk --tree=dir=" + tree.string() + " >/dev/null";
    if (std::system(cmd.c_str()) != 0)
        std::exit(1);
    fs::remove_all(tree);
}

double seconds(const std::function<void()>& f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The bare reorder: `target` first, the rest in their order.
void raw_reorder(const fs::path& path, const core::DeploymentRef& ref, bool postclean) {
    g_autoptr(GFile) file = g_file_new_for_path(path.c_str());
    g_autoptr(OstreeSysroot) s = ostree_sysroot_new(file);
    if (path == "/" && !ostree_sysroot_initialize_with_mount_namespace(s, nullptr, nullptr))
        std::exit(1);
    if (!ostree_sysroot_load(s, nullptr, nullptr))
        std::exit(1);
    g_autoptr(GPtrArray) list = ostree_sysroot_get_deployments(s);
    g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func(g_object_unref);
    for (int pass = 0; pass < 2; ++pass)
        for (guint i = 0; i < list->len; ++i) {
            auto* d = static_cast<OstreeDeployment*>(list->pdata[i]);
            bool is_target = ostree_deployment_get_csum(d) == ref.checksum &&
                             ostree_deployment_get_deployserial(d) == ref.serial;
            if (is_target == (pass == 0))
                g_ptr_array_add(order, g_object_ref(d));
        }
    OstreeSysrootWriteDeploymentsOpts opts{};
    opts.do_postclean = postclean;
    if (!ostree_sysroot_write_deployments_with_options(s, order, &opts, nullptr, nullptr))
        std::exit(1);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void print_pair(const std::vector<double>& ours, const std::vector<double>& floor) {
    std::printf("bootbench set_default  %.4f\nbare reorder (floor)   %.4f\n", median(ours), median(floor));
    std::printf("bootbench / floor      %.2fx\n", median(ours) / median(floor));
}

int live(int rounds) {
    std::vector<core::DeploymentInfo> deps = sys::Sysroot("/").deployments();
    if (deps.size() < 2)
        return 1;
    const core::DeploymentRef first = deps[0].ref, second = deps[1].ref;
    std::vector<double> ours, floor;
    for (int i = 0; i < rounds; ++i) {
        ours.push_back(seconds([&] { sys::Sysroot("/").set_default(second); }));
        floor.push_back(seconds([&] { raw_reorder("/", first, false); }));
    }
    std::printf("this machine's sysroot; %d rounds; median seconds per switch\n", rounds);
    print_pair(ours, floor);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2)
        return 2;
    if (std::string(argv[1]) == "--live")
        return live(argc > 2 ? std::atoi(argv[2]) : 5);
    int files = argc > 2 ? std::atoi(argv[2]) : 20000;
    int rounds = argc > 3 ? std::atoi(argv[3]) : 11;
    auto layout = sys::build_sandbox(argv[1], core::parse_experiment(kExperiment, "switch.toml"));
    inflate_repo(layout.sysroot, files);
    const core::DeploymentRef refs[] = {layout.targets.at("a"), layout.targets.at("b")};
    std::vector<double> ours, floor, postclean;
    for (int i = 0; i < rounds; ++i) {
        const auto& ref = refs[i % 2];
        ours.push_back(seconds([&] { sys::Sysroot(layout.sysroot).set_default(ref); }));
        floor.push_back(seconds([&] { raw_reorder(layout.sysroot, refs[(i + 1) % 2], false); }));
        postclean.push_back(seconds([&] { raw_reorder(layout.sysroot, ref, true); }));
    }
    std::printf("repository: %d extra objects; %d rounds; median seconds per switch\n", files, rounds);
    print_pair(ours, floor);
    std::printf("with postclean (old)   %.4f\n", median(postclean));
    sys::remove_sandbox(argv[1]);
    return 0;
}
