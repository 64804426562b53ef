#include "sys/bisect_builds.hpp"

#include "sys/ostree/sysroot.hpp"
#include "sys/ostree/unit_install.hpp"

#include <optional>

namespace bootbench::sys {

namespace {

// A deployment made for this build before a crash: its marker, and its
// commit (an image's is known only once pulled: the marker alone).
std::optional<core::DeploymentRef> left_by_crash(Sysroot& sr, const core::BisectRun& run, size_t b) {
    for (const auto& d : sr.deployments())
        if (d.kargs_for == run.labels[b] && (!run.images.empty() || d.ref.checksum == run.commits[b]) && !d.staged)
            return d.ref;
    return std::nullopt;
}

core::DeploymentRef deploy_build(Host& host, const core::State& s, const core::BisectRun& run, size_t b) {
    Sysroot& sr = host.sysroot();
    if (auto ref = left_by_crash(sr, run, b))
        return *ref;
    if (!run.images.empty())
        return sr.deploy_image(s.original_default, sr.pull_image(run.images[b]), run.images[b], run.labels[b]);
    sr.pull_commit(run.refspec, run.commits[b]);
    return sr.deploy_commit(s.original_default, run.commits[b], run.refspec, run.labels[b]);
}

// Deployed, with the unit (labelled) and pinned: made by bootbench, so
// removed at the end like a deployment made for kernel arguments.
core::State add_build(Host& host, core::State s, const core::BisectRun& run, size_t b, const UnitSpec& unit) {
    core::DeploymentRef ref = deploy_build(host, s, run, b);
    host.label(ref, install_unit(host.etc_dir(ref), unit.timeout_s, unit.container_tools));
    host.sysroot().set_pinned(ref, true);
    s.targets.push_back({run.labels[b], ref, false, true});
    return s;
}

} // namespace

core::State queue_bisect_builds(Host& host, core::State s, const core::BisectRun& run, const UnitSpec& unit) {
    std::vector<int> builds = core::builds_to_queue(s, run);
    for (int b : builds)
        if (!s.find_target(run.labels[static_cast<size_t>(b)]))
            s = add_build(host, std::move(s), run, static_cast<size_t>(b), unit);
    auto runs = core::runs_for_builds(s, run, builds); // before s is moved from
    return core::add_runs(std::move(s), runs);
}

} // namespace bootbench::sys
