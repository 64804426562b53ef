#pragma once
// Stopping the host's own update, trim and indexing timers for one boot
// (core/host/quiet says which and why). A seam: systemctl on a real host; on the
// sandbox, a list of "installed" units and a log of what was stopped, so a
// simulation never touches this machine's units.
#include <filesystem>
#include <string>
#include <vector>

namespace bootbench::sys {

class UnitControl {
public:
    virtual ~UnitControl() = default;
    // The unit files this host has, among `units`. Throws bootbench::Error.
    virtual std::vector<std::string> listed(const std::vector<std::string>& units) = 0;
    // What `timers` start (systemd's Triggers=): a Persistent timer whose
    // time passed while the machine was off fires in the boot's first minutes,
    // so its service may be running before bootbench stops the timer.
    virtual std::vector<std::string> triggered(const std::vector<std::string>& timers) = 0;
    // Those of `units` that are running now.
    virtual std::vector<std::string> running(const std::vector<std::string>& units) = 0;
    // Stops them now and masks them until the next boot (systemctl mask
    // --runtime --now): nothing persists, nothing to undo on abort.
    virtual void stop_until_reboot(const std::vector<std::string>& units) = 0;
};

class SystemctlUnits final : public UnitControl {
public:
    std::vector<std::string> listed(const std::vector<std::string>& units) override;
    std::vector<std::string> triggered(const std::vector<std::string>& timers) override;
    std::vector<std::string> running(const std::vector<std::string>& units) override;
    void stop_until_reboot(const std::vector<std::string>& units) override;
};

// The sandbox's units: installed = `<sysroot>/run/units-installed` (one name
// a line, none when absent); what a timer triggers, `<sysroot>/run/units-triggers`
// ("TIMER UNIT" lines); running, `<sysroot>/run/units-running`; each stop
// appends its units to `<sysroot>/run/units-stopped`.
class SandboxUnits final : public UnitControl {
public:
    explicit SandboxUnits(std::filesystem::path sysroot) : sysroot_(std::move(sysroot)) {}
    std::vector<std::string> listed(const std::vector<std::string>& units) override;
    std::vector<std::string> triggered(const std::vector<std::string>& timers) override;
    std::vector<std::string> running(const std::vector<std::string>& units) override;
    void stop_until_reboot(const std::vector<std::string>& units) override;
    static std::filesystem::path installed_file(const std::filesystem::path& sysroot);
    static std::filesystem::path stopped_file(const std::filesystem::path& sysroot);

private:
    std::filesystem::path sysroot_;
};

} // namespace bootbench::sys
