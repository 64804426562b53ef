#pragma once
// The background load ([load] cpu_workers): stress-ng --cpu N for the length
// of the suite, in its own process group, never left running.
#include "core/experiment/experiment.hpp"
#include "core/image/tools_image.hpp"
#include "sys/process/subprocess.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace bootbench::sys {

class BackgroundLoad {
  public:
    // Starts the load (nothing for cpu_workers = 0) with its output in
    // run_dir/load.stdout and load.stderr. `limit_s` bounds its life even if
    // bootbench itself is killed. Throws bootbench::Error when stress-ng is
    // missing or cannot start: a run without its load is not comparable.
    // With `tools`, stress-ng runs in that image as container `name`.
    BackgroundLoad(const core::Load& load, int nproc, double limit_s,
                   const std::filesystem::path& run_dir, const core::ToolsImage* tools = nullptr,
                   const std::string& name = "");
    // Stops the whole group on every exit path: SIGTERM first, so that
    // stress-ng reaps its own workers (orphans killed outright would be left
    // to init to reap), then SIGKILL after a grace time.
    ~BackgroundLoad();
    BackgroundLoad(const BackgroundLoad&) = delete;
    BackgroundLoad& operator=(const BackgroundLoad&) = delete;

    bool active() const { return group_.has_value(); }
    const std::string& command() const { return command_; }
    pid_t pgid() const { return group_ ? group_->pgid() : -1; }
    // Stops the load; returns why the load did not last the whole suite ("" if it did).
    std::string stop();

  private:
    std::optional<ProcessGroup> group_;
    std::string command_;
    std::filesystem::path stderr_path_;
    std::string container_; // "" when the load runs on the host
};

} // namespace bootbench::sys
