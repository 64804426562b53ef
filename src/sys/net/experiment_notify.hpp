#pragma once
// The experiment's notifications ([notify]): start, each run, failures and
// the end. Best effort and bounded: a network that is down (often right
// after boot) delays a boot by at most the bound and never breaks a run.
#include "core/experiment/experiment.hpp"
#include "core/result/run_result.hpp"
#include "core/state/state.hpp"
#include "sys/net/notify.hpp"

#include <filesystem>
#include <memory>

namespace bootbench::sys {

class Clock;
class HttpClient;

class ExperimentNotifier {
public:
    // Sends nothing when the experiment has no [notify].
    ExperimentNotifier(const core::Experiment& e, Clock& clock, NotifyBounds bounds = {});
    ~ExperimentNotifier();
    ExperimentNotifier(ExperimentNotifier&&) noexcept;

    void started(const core::State& s);
    void run_measured(const core::State& s, size_t index, const core::RunResult& r,
                      const std::filesystem::path& logs);
    void run_failed(const core::State& s, size_t index, const std::string& why,
                    const std::filesystem::path& logs);
    void finished(const core::State& s, const std::filesystem::path& report);

private:
    void send(const core::NotifyFacts& facts);

    std::string experiment_;
    std::unique_ptr<HttpClient> http_;
    std::unique_ptr<Notifier> notifier_;
};

} // namespace bootbench::sys
