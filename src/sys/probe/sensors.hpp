#pragma once
// The Sensors seam: CPU temperature and cpufreq governors. The real one reads
// /sys under a root folder; the gate's tests use a fake one driven by a fake clock.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace bootbench::sys {

struct TempReading {
    double celsius = 0;
    std::string sensor; // e.g. "hwmon k10temp Tctl", "thermal_zone0 x86_pkg_temp"
};

class Sensors {
  public:
    virtual ~Sensors() = default;
    // nullopt when the machine has no CPU temperature sensor bootbench knows.
    virtual std::optional<TempReading> cpu_temperature() = 0;
    // cpufreq policy name -> scaling_governor; empty when there is no cpufreq.
    virtual std::map<std::string, std::string> governors() = 0;
    // Throws bootbench::Error naming the file when it cannot be written.
    virtual void set_governor(const std::string& policy, const std::string& governor) = 0;
};

// Sensors read from `root`/sys: hwmon k10temp, zenpower, coretemp first, then
// the thermal zones x86_pkg_temp and acpitz.
class SysfsSensors final : public Sensors {
  public:
    explicit SysfsSensors(std::filesystem::path root) : root_(std::move(root)) {}
    std::optional<TempReading> cpu_temperature() override;
    std::map<std::string, std::string> governors() override;
    void set_governor(const std::string& policy, const std::string& governor) override;

  private:
    std::filesystem::path root_;
};

// Sets the governor where it differs and puts every changed policy back when
// destroyed, on every exit path. Failures to restore are logged, not thrown.
class GovernorOverride {
  public:
    GovernorOverride(Sensors& sensors, const std::string& governor);
    ~GovernorOverride();
    GovernorOverride(const GovernorOverride&) = delete;
    GovernorOverride& operator=(const GovernorOverride&) = delete;

  private:
    void restore() noexcept;

    Sensors& sensors_;
    std::map<std::string, std::string> changed_; // policy -> its governor before
};

} // namespace bootbench::sys
