#pragma once
// Samples the CPUs' current frequency (cpufreq scaling_cur_freq of every
// CPU, under a probe root) while a bench runs, on a thread of its own, so
// that the bench's average frequency can be recorded (core/bench/cpu_freq).
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace bootbench::sys {

class FreqSampler {
public:
    // Starts sampling at once, then every `period_s`; nothing when the
    // root has no cpufreq.
    explicit FreqSampler(const std::filesystem::path& root, double period_s = 0.25);
    ~FreqSampler();
    FreqSampler(const FreqSampler&) = delete;
    FreqSampler& operator=(const FreqSampler&) = delete;

    // Takes a last sample, stops, and returns the bench's average in MHz;
    // nullopt without cpufreq.
    std::optional<double> stop();

private:
    void sample();
    void loop(double period_s);

    std::vector<std::filesystem::path> files_;
    std::vector<double> samples_khz_; // the mean over the CPUs, per sample
    std::mutex mutex_;
    std::condition_variable wake_; // stop() ends the wait at once
    bool stopping_ = false;        // under mutex_
    std::thread thread_;
};

} // namespace bootbench::sys
