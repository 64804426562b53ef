#include "sys/run/background_load.hpp"

#include "core/base/error.hpp"
#include "sys/run/bench_command.hpp"
#include "sys/run/tools_image.hpp"

#include <cstring>

namespace bootbench::sys {

namespace {

// How long stress-ng gets to stop its workers after SIGTERM.
constexpr double kGraceSeconds = 5;

} // namespace

BackgroundLoad::BackgroundLoad(const core::Load& load, int nproc, double limit_s,
                               const std::filesystem::path& run_dir, const core::ToolsImage* tools,
                               const std::string& name) {
    auto argv = load_argv(load, nproc, limit_s);
    if (argv.empty())
        return;
    if (tools) {
        argv = core::container_argv(*tools, name, argv);
        container_ = name;
    }
    for (const auto& a : argv)
        command_ += (command_.empty() ? "" : " ") + a;
    if (!find_program(argv[0]))
        throw Error("the background load cannot start: " +
                    not_installed_message({"stress-ng", "stress-ng", "stress-ng", false}) +
                    ", or set [load] cpu_workers = 0");
    stderr_path_ = run_dir / "load.stderr";
    group_.emplace(
        ProcessGroup::spawn({argv, run_dir / "load.stdout", stderr_path_, 0, kGraceSeconds}));
}

BackgroundLoad::~BackgroundLoad() {
    try {
        if (group_)
            group_->stop(kGraceSeconds);
        if (!container_.empty())
            remove_container(container_);
    } catch (const std::exception&) {
        // ~ProcessGroup still kills the group
    }
}

std::string BackgroundLoad::stop() {
    if (!group_)
        return "";
    // Still running when the suite ends is the normal case; exited before is not.
    bool ended_early = group_->wait_exit(0);
    group_->stop(kGraceSeconds);
    if (!container_.empty())
        remove_container(container_); // its podman client is gone; the container may not be
    container_.clear();
    std::string why;
    if (ended_early) {
        Ending st = decode_wait_status(group_->wait_status());
        why = "the background load (" + command_ + ") ended before the suite did, " +
              (st.end == ProcessEnd::exited ? "with status " + std::to_string(st.exit_status)
                                            : std::string("killed by SIG") + sigabbrev_np(st.signal)) +
              " (see " + stderr_path_.string() + ")";
    }
    group_.reset();
    return why;
}

} // namespace bootbench::sys
