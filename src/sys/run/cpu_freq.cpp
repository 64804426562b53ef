#include "sys/run/cpu_freq.hpp"

#include "core/bench/cpu_freq.hpp"
#include "core/bench/parsers.hpp"
#include "sys/probe/probes.hpp"

#include <cctype>
#include <chrono>

namespace bootbench::sys {

namespace {

std::vector<std::filesystem::path> cur_freq_files(const std::filesystem::path& root) {
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    std::filesystem::directory_iterator it(root / "sys/devices/system/cpu", ec);
    for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        std::string name = it->path().filename().string();
        std::filesystem::path file = it->path() / "cpufreq/scaling_cur_freq";
        if (name.rfind("cpu", 0) == 0 && name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[3])) &&
            std::filesystem::exists(file, ec))
            out.push_back(file);
    }
    return out;
}

} // namespace

FreqSampler::FreqSampler(const std::filesystem::path& root, double period_s) : files_(cur_freq_files(root)) {
    if (files_.empty())
        return;
    sample();
    thread_ = std::thread([this, period_s] { loop(period_s); });
}

FreqSampler::~FreqSampler() { stop(); }

void FreqSampler::sample() {
    double sum = 0;
    int n = 0;
    for (const auto& f : files_)
        if (auto text = read_probe(f))
            if (auto khz = core::parse_number(*text); khz && *khz > 0) {
                sum += *khz;
                ++n;
            }
    std::lock_guard<std::mutex> lock(mutex_);
    if (n > 0)
        samples_khz_.push_back(sum / n);
}

// Sleeps between samples (no polling: the benches share the CPUs).
void FreqSampler::loop(double period_s) {
    auto step = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(period_s));
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, step, [this] { return stopping_; })) {
        lock.unlock();
        sample();
        lock.lock();
    }
}

std::optional<double> FreqSampler::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_ || files_.empty())
            return std::nullopt;
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable())
        thread_.join();
    sample();
    std::lock_guard<std::mutex> lock(mutex_);
    return core::average_mhz(samples_khz_);
}

} // namespace bootbench::sys
