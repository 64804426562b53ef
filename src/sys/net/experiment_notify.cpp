#include "sys/net/experiment_notify.hpp"

#include "sys/net/http.hpp"

namespace bootbench::sys {

namespace {

core::NotifyFacts run_facts(core::NotifyEvent event, const std::string& experiment, const core::State& s,
                            size_t index, const std::filesystem::path& logs) {
    core::NotifyFacts f;
    f.event = event;
    f.experiment = experiment;
    f.run_k = static_cast<int>(index + 1);
    f.run_n = static_cast<int>(s.runs.size());
    f.run_id = s.runs[index].run_id;
    f.target = s.runs[index].target;
    f.logs = logs.string();
    return f;
}

} // namespace

ExperimentNotifier::ExperimentNotifier(const core::Experiment& e, Clock& clock, NotifyBounds bounds)
    : experiment_(e.name) {
    if (!e.notify)
        return;
    http_ = std::make_unique<CurlHttpClient>();
    notifier_ = std::make_unique<Notifier>(*e.notify, e.name, *http_, clock, warn_to_stderr, bounds);
}

ExperimentNotifier::~ExperimentNotifier() = default;
// The Notifier refers to *http_, which a move does not relocate.
ExperimentNotifier::ExperimentNotifier(ExperimentNotifier&&) noexcept = default;

void ExperimentNotifier::send(const core::NotifyFacts& facts) {
    if (notifier_)
        notifier_->send(facts); // never throws; a failure is one warning on stderr
}

void ExperimentNotifier::started(const core::State& s) {
    core::NotifyFacts f;
    f.event = core::NotifyEvent::start;
    f.experiment = experiment_;
    f.run_n = static_cast<int>(s.runs.size());
    for (const auto& t : s.targets)
        f.targets.push_back(t.target);
    send(f);
}

void ExperimentNotifier::run_measured(const core::State& s, size_t index, const core::RunResult& r,
                                      const std::filesystem::path& logs) {
    core::NotifyFacts f = run_facts(core::NotifyEvent::run, experiment_, s, index, logs);
    for (const auto& m : r.metrics)
        if (f.headlines.size() < core::kMaxHeadlines)
            f.headlines.push_back({m.key, m.value, m.unit});
    send(f);
}

void ExperimentNotifier::run_failed(const core::State& s, size_t index, const std::string& why,
                                    const std::filesystem::path& logs) {
    core::NotifyFacts f = run_facts(core::NotifyEvent::failure, experiment_, s, index, logs);
    f.failure = why;
    send(f);
}

void ExperimentNotifier::finished(const core::State& s, const std::filesystem::path& report) {
    core::NotifyFacts f;
    f.event = core::NotifyEvent::finish;
    f.experiment = experiment_;
    f.run_n = static_cast<int>(s.runs.size());
    f.report = report.string();
    f.done = static_cast<int>(s.count(core::SlotStatus::done));
    f.failed = static_cast<int>(s.count(core::SlotStatus::failed));
    f.failure = s.stop_reason;
    send(f);
}

} // namespace bootbench::sys
