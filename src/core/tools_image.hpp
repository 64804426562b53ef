#pragma once
// [tools] image: every bench and the background load run inside one pinned
// container image, the same bytes in every arm; only the booted OS differs.
// The podman command line is built here; running it is sys/tools_image.
#include <string>
#include <vector>

namespace bootbench::core {

// An image as resolved in podman's local store.
struct ToolsImage {
    std::string image;  // as the experiment file names it
    std::string id;     // sha256 hex of the image config: what runs
    std::string digest; // the manifest digest, "" for an image never pushed
};

// What the result's environment records ("tools_image"): the reference and
// the image ID, so that two runs with different bytes are told apart.
std::string describe(const ToolsImage& t);

// A container name for one bench of one run: "bootbench-RUN-BENCH", with
// every character podman refuses made '_'.
std::string container_name(const std::string& run_id, const std::string& bench);

// podman run for `argv` in the image, by ID: no network (a bench needs none),
// the host's PID and IPC namespaces and privileges (perf and the scheduler
// benches measure the host kernel, not a sandbox of it), removed on exit.
// --replace: a container of the same name left by a crash or a power cut
// (podman's records outlive the boot) never stops the run's next attempt.
std::vector<std::string> container_argv(const ToolsImage& t, const std::string& name,
                                        const std::vector<std::string>& argv);

} // namespace bootbench::core
