#pragma once
// [tools] image: every bench and the background load run inside one pinned
// container image, the same bytes in every arm; only the booted OS differs.
// The podman command line is built here; running it is sys/run/tools_image.
#include <string>
#include <vector>

namespace bootbench::core {

// The podman store a lookup used. `sudo start`, the unit and `sudo podman`
// use root's (/var/lib/containers/storage, shared by every deployment of the
// stateroot); podman run by a user without sudo has a rootless store of its
// own (~/.local/share/containers/storage), which start never sees.
struct PodmanStore {
    bool root = true;
    std::string user;       // whose rootless store, when !root
    std::string graph_root; // podman info's Store.GraphRoot, "" when podman did not say
};

// "root's store (/var/lib/containers/storage)", "the rootless store of user
// alice (/home/alice/.local/share/containers/storage)".
std::string describe(const PodmanStore& s);

// The ways to put `image` into root's store, quoted for a message.
std::string root_store_fix(const std::string& image);

// What start will see of `image` found in `s`: "" in root's store (start
// looks there), else that sudo start will not find it and how to put it in
// root's store.
std::string start_sees_found(const PodmanStore& s, const std::string& image);

// The refusal for `image` missing from `s`: where it looked, what start sees
// and what to do.
std::string not_in_store(const PodmanStore& s, const std::string& image);

// An image as resolved in podman's local store.
struct ToolsImage {
    std::string image;  // as the experiment file names it
    std::string id;     // sha256 hex of the image config: what runs
    std::string digest; // the manifest digest, "" for an image never pushed
    // Whether the container runs in the caller's cgroup (podman
    // --cgroups=disabled): the bench's own leaf, where a bench with the
    // host's tools runs, so the scheduler sees the same hierarchy in both.
    // Needs crun on cgroup v2 (as Fedora ships); runc and cgroup v1 cannot.
    bool in_bench_cgroup = false;
    PodmanStore store; // where it was found
};

// What the result's environment records (EnvironmentRecord::tools_image): the reference and
// the image ID, so that two runs with different bytes are told apart.
std::string describe(const ToolsImage& t);

// A container name for one bench of one run: "bootbench-RUN-BENCH", with
// every character podman refuses made '_'.
std::string container_name(const std::string& run_id, const std::string& bench);

// podman run for `argv` in the image, by ID: no network (a bench needs none),
// the host's IPC namespace and privileges (perf and the scheduler benches
// measure the host kernel, not a sandbox of it), removed on exit. In the
// bench's cgroup where it can (in_bench_cgroup: then in a PID namespace of
// its own, which podman requires without a cgroup), else in podman's cgroup
// with the host's PID namespace.
// --replace: a container of the same name left by a crash or a power cut
// (podman's records outlive the boot) never stops the run's next attempt.
// `shared_dir`: a host folder the command writes to at the same path (perf
// stat's file; --privileged already turns SELinux separation off).
std::vector<std::string> container_argv(const ToolsImage& t, const std::string& name,
                                        const std::vector<std::string>& argv, const std::string& shared_dir = "");

// The bench's own command in a recorded argv: what follows the image in a
// container_argv, or `argv` itself when it is not a podman run (the host's
// tools), without a `perf stat ... --` that counted it (`counters`). For
// reproduce, which compares bench parameters, not how they ran.
std::vector<std::string> command_inside(const std::vector<std::string>& argv);

} // namespace bootbench::core
