#pragma once
// Keeping the machine awake for a run: a logind "block" inhibitor for
// "sleep:idle" (org.freedesktop.login1.Manager.Inhibit), so that an idle
// policy (GNOME's login screen suspends after 15 min on AC since Fedora 38,
// logind's IdleAction=) cannot suspend it mid-run. logind keeps the
// inhibitor while the file descriptor it returned is open anywhere.
// The source is a seam, like BootTimesSource: the real one asks the system
// bus (GDBus honours DBUS_SYSTEM_BUS_ADDRESS, so tests point it at a private
// bus with a stand-in logind).
#include <string>

namespace bootbench::sys {

// The inhibitor's file descriptor; closing it (here, when this is
// destroyed, on every way out) releases the inhibitor. Move-only.
class Inhibition {
public:
    Inhibition() = default;
    explicit Inhibition(int fd) : fd_(fd) {}
    ~Inhibition();
    Inhibition(Inhibition&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    Inhibition& operator=(Inhibition&& other) noexcept;
    Inhibition(const Inhibition&) = delete;
    Inhibition& operator=(const Inhibition&) = delete;
    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

class SleepInhibitor {
public:
    virtual ~SleepInhibitor() = default;
    // Takes the inhibitor with `why` as its reason; when it cannot, an
    // Inhibition that holds nothing and `problem` saying why. Never throws.
    virtual Inhibition take(const std::string& why, std::string& problem) = 0;
};

// logind on the system bus.
class LogindInhibitor final : public SleepInhibitor {
public:
    Inhibition take(const std::string& why, std::string& problem) override;
};

// What the run's environment and the log say: "held (logind block
// sleep:idle)" or "not held: <problem>".
std::string describe_inhibition(const Inhibition& held, const std::string& problem);

} // namespace bootbench::sys
