#include "catch.hpp"
#include "core/tools_image.hpp"

using namespace bootbench::core;

namespace {

ToolsImage image(bool in_bench_cgroup) {
    return {"localhost/bench-tools:44", "0123abcd", "sha256:feed", in_bench_cgroup};
}

} // namespace

TEST_CASE("tools container: in the bench's cgroup where podman can, with its own PID namespace",
          "[tools]") {
    CHECK(container_argv(image(true), "bootbench-a-1-pipe", {"perf", "bench"}) ==
          std::vector<std::string>{"podman", "run", "--rm", "--replace", "--name", "bootbench-a-1-pipe",
                                   "--network=none", "--cgroups=disabled", "--pid=private", "--ipc=host",
                                   "--privileged", "0123abcd", "perf", "bench"});
    CHECK(describe(image(true)) ==
          "localhost/bench-tools:44 (image 0123abcd, sha256:feed; in the bench's cgroup)");
}

TEST_CASE("tools container: in podman's cgroup with the host's PID namespace elsewhere", "[tools]") {
    CHECK(container_argv(image(false), "n", {"sysbench"}) ==
          std::vector<std::string>{"podman", "run", "--rm", "--replace", "--name", "n", "--network=none",
                                   "--pid=host", "--ipc=host", "--privileged", "0123abcd", "sysbench"});
    CHECK(describe(image(false)) == "localhost/bench-tools:44 (image 0123abcd, sha256:feed)");
    CHECK(container_name("a-1", "perf sched/pipe") == "bootbench-a-1-perf_sched_pipe");
}

TEST_CASE("tools container: the bench's own command is read back from the recorded argv", "[tools]") {
    std::vector<std::string> inner = {"perf", "bench", "sched", "pipe", "-l", "1000"};
    CHECK(command_inside(container_argv(image(true), "n", inner)) == inner);
    CHECK(command_inside(container_argv(image(false), "n", inner)) == inner);
    CHECK(command_inside(inner) == inner); // the host's tools: recorded as run
    CHECK(command_inside({"podman", "run", "--rm"}).empty()); // no image, no command
    CHECK(command_inside({"podman", "version"}) == std::vector<std::string>{"podman", "version"});
}
