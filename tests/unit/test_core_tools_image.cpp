#include "catch.hpp"
#include "core/image/tools_image.hpp"

using namespace bootbench::core;

namespace {

ToolsImage image(bool in_bench_cgroup) {
    return {"localhost/bench-tools:44", "0123abcd", "sha256:feed", in_bench_cgroup, {}};
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

TEST_CASE("tools image: every lookup says which podman store and what start will see", "[tools]") {
    PodmanStore root{true, "", "/var/lib/containers/storage"};
    PodmanStore alice{false, "alice", "/home/alice/.local/share/containers/storage"};
    CHECK(describe(root) == "root's store (/var/lib/containers/storage)");
    CHECK(describe(PodmanStore{false, "bob", ""}) == "the rootless store of user bob");
    CHECK(start_sees_found(root, "localhost/t:1").empty());
    CHECK(start_sees_found(alice, "localhost/t:1") ==
          "sudo start looks in root's store, not in this one: put the image there with 'sudo podman build -t "
          "localhost/t:1 containers/bench-tools' or 'podman save localhost/t:1 | sudo podman load'");
    CHECK(not_in_store(root, "localhost/t:1") ==
          "the tools image localhost/t:1 is not in root's store (/var/lib/containers/storage), the store start "
          "uses: 'sudo podman pull localhost/t:1', or build it ('sudo podman build -t localhost/t:1 "
          "containers/bench-tools'); start pulls it by itself");
    CHECK(not_in_store(alice, "localhost/t:1") ==
          "the tools image localhost/t:1 is not in the rootless store of user alice "
          "(/home/alice/.local/share/containers/storage); sudo start looks in root's store, which this check as "
          "alice cannot see: 'sudo podman pull localhost/t:1', or build it ('sudo podman build -t localhost/t:1 "
          "containers/bench-tools'), or run this with sudo to look there");
}

TEST_CASE("tools container: perf stat's file shared at its path; the counted bench's command read back", "[tools][counters]") {
    std::vector<std::string> counted = {"perf", "stat", "-x,", "-o", "/r/a-1/pipe.perf-stat.csv", "-e", "cycles", "--",
                                        "perf", "bench", "sched", "pipe"};
    std::vector<std::string> argv = container_argv(image(false), "n", counted, "/r/a-1");
    CHECK(argv == std::vector<std::string>{"podman", "run", "--rm", "--replace", "--name", "n", "--network=none",
                                           "--volume=/r/a-1:/r/a-1", "--pid=host", "--ipc=host", "--privileged",
                                           "0123abcd", "perf", "stat", "-x,", "-o", "/r/a-1/pipe.perf-stat.csv", "-e",
                                           "cycles", "--", "perf", "bench", "sched", "pipe"});
    std::vector<std::string> inner = {"perf", "bench", "sched", "pipe"};
    CHECK(command_inside(argv) == inner);
    CHECK(command_inside(counted) == inner);
    CHECK(command_inside({"perf", "stat", "-x,", "-o", "f"}) ==
          std::vector<std::string>{"perf", "stat", "-x,", "-o", "f"}); // no "--": not a counted bench
}
