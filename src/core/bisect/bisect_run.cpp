#include "core/bisect/bisect_run.hpp"

#include "core/base/error.hpp"
#include "core/base/json_read.hpp"
#include "core/base/text.hpp"
#include "core/experiment/metric_catalog.hpp"
#include "core/experiment/names.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace bootbench::core {

namespace {

std::vector<std::string> prefixes(const std::vector<std::string>& commits, size_t n) {
    std::vector<std::string> out;
    for (const auto& c : commits)
        out.push_back(c.substr(0, n));
    return out;
}

bool all_distinct(const std::vector<std::string>& v) {
    return std::set<std::string>(v.begin(), v.end()).size() == v.size();
}

int build_of(const BisectRun& run, const std::string& target) {
    auto it = std::find(run.labels.begin(), run.labels.end(), target);
    if (it == run.labels.end())
        throw Error("bisect: the run's target '" + target + "' is none of the bisection's builds");
    return static_cast<int>(it - run.labels.begin());
}

int failures_of(const State& s, const std::string& target) {
    return static_cast<int>(std::count_if(s.runs.begin(), s.runs.begin() + static_cast<long>(s.current),
                                          [&](const RunSlot& r) {
                                              return r.target == target && r.status == SlotStatus::failed;
                                          }));
}

// A failed run (or one without the metric): its build stays pending in the
// search, so builds_to_queue queues it again, unless it failed too often.
void note_failure(Fed& f, const RunSlot& slot, int build, const std::string& why) {
    if (failures_of(f.state, slot.target) < kBuildFailuresAllowed)
        return;
    std::string verdict = "build " + f.run.labels[static_cast<size_t>(build)] + " failed " +
                          std::to_string(kBuildFailuresAllowed) + " runs (the last: " + why +
                          "); the bisection cannot judge it and ends undecided";
    f.run.search = end_undecided(std::move(f.run.search), verdict);
    f.state = drop_pending_runs(std::move(f.state), verdict);
}

void feed_one(Fed& f, const RunSlot& slot, const RunValue& v) {
    int build = build_of(f.run, slot.target);
    if (slot.status == SlotStatus::done && v.value)
        f.run.search = record_run(std::move(f.run.search), build, *v.value);
    else
        note_failure(f, slot, build, slot.status == SlotStatus::done ? v.why : slot.failure);
}

// The builds' subjects, versions and times; absent: none known.
void read_history(const JsonReader& r, BisectRun& run) {
    if (!r.has("history"))
        return;
    const nlohmann::json& a = r.array("history");
    if (a.size() != run.commits.size())
        r.fail("history must have one entry per commit");
    for (size_t i = 0; i < a.size(); ++i) {
        JsonReader x = r.child(a[i], "history");
        run.history.push_back({run.commits[i], x.str("subject"), x.str("version"), x.str("timestamp")});
    }
}

// An image bisection's pinned references, one per build; absent: a ref's.
void read_images(const JsonReader& r, BisectRun& run) {
    if (!r.has("images"))
        return;
    run.images = r.strings("images");
    if (run.images.size() != run.commits.size())
        r.fail("images must have one entry per commit");
    for (const auto& i : run.images)
        if (!is_valid_image_reference(i))
            r.fail("'" + printable(i) + "' in images is not an image reference");
}

} // namespace

std::vector<std::string> build_labels(const std::vector<std::string>& commits) {
    for (size_t n = 12; n < 64; ++n)
        if (auto labels = prefixes(commits, n); all_distinct(labels))
            return labels;
    return prefixes(commits, 64);
}

Better metric_direction(const Experiment& e, const std::string& metric) {
    for (const auto& b : e.benches)
        for (const auto& m : expected_metrics(b))
            if (m.key == metric)
                return m.better;
    auto info = find_metric(metric);
    return info ? info->better : Better::lower;
}

BisectRun begin_bisect_run(const BisectFile& f, const std::string& refspec, std::vector<CommitInfo> history,
                           std::uint64_t seed, std::vector<std::string> images) {
    BisectRun run;
    run.refspec = refspec;
    run.images = std::move(images);
    for (const auto& c : history)
        run.commits.push_back(c.checksum);
    run.labels = build_labels(run.commits);
    run.history = std::move(history);
    run.search =
        start_bisect(run.labels, f.bisect.metric, metric_direction(f.experiment, f.bisect.metric),
                     f.bisect.threshold, seed, f.bisect.rules);
    return run;
}

Experiment bisect_experiment(Experiment e, const BisectRun& run) {
    e.targets.clear();
    e.baseline = run.labels.front(); // the report compares every build with good
    for (size_t i = 0; i < run.commits.size(); ++i) {
        Target t;
        t.name = run.labels[i];
        t.selector = run.images.empty() ? Selector{SelectorKind::checksum, run.commits[i], -1}
                                        : Selector{SelectorKind::image, run.images[i], -1};
        e.targets.push_back(std::move(t));
    }
    return e;
}

std::vector<PlannedRun> runs_for_builds(const State& s, const BisectRun& run, const std::vector<int>& builds) {
    std::map<std::string, int> count;
    for (const auto& r : s.runs)
        ++count[r.target];
    std::vector<PlannedRun> out;
    for (int b : builds) {
        const std::string& label = run.labels.at(static_cast<size_t>(b));
        int k = ++count[label];
        out.push_back({label + "-" + std::to_string(k), label, k});
    }
    return out;
}

std::vector<int> builds_to_queue(const State& s, const BisectRun& run) {
    std::map<int, int> queued;
    for (size_t i = s.current; i < s.runs.size(); ++i)
        ++queued[build_of(run, s.runs[i].target)];
    std::vector<int> out;
    for (int b : run.search.pending)
        if (queued[b] > 0)
            --queued[b];
        else
            out.push_back(b);
    return out;
}

Fed feed_finished_runs(BisectRun run, State s, const std::function<RunValue(const RunSlot&)>& value_of) {
    Fed f{std::move(run), std::move(s)};
    while (f.run.fed < f.state.current && f.run.fed < f.state.runs.size()) {
        RunSlot slot = f.state.runs[f.run.fed++];
        if (f.run.search.phase != BisectPhase::done)
            feed_one(f, slot, value_of(slot));
    }
    return f;
}

RunValue metric_value(const RunResult& r, const std::string& metric) {
    for (const auto& m : r.metrics)
        if (m.key == metric)
            return {m.value, ""};
    return {std::nullopt, "the run measured no " + metric};
}

BisectEstimate estimate_bisect(int builds, const BisectRules& r) {
    BisectEstimate e;
    for (int range = builds - 1; range > 1; range = (range + 1) / 2)
        ++e.steps;
    int later = r.max_rounds - 1;
    e.runs_first_rounds = 2 * r.endpoint_runs + e.steps * r.step_runs + 2 * r.confirm_runs;
    e.runs_at_most = e.runs_first_rounds + later * (2 * r.more_runs + e.steps * (r.more_runs + 2) + 2 * r.more_runs);
    return e;
}

namespace {

const std::string& label_of(const BisectRun& run, int build) {
    return run.labels.at(static_cast<size_t>(build));
}

std::string doing_text(const BisectRun& run) {
    const BisectState& s = run.search;
    std::string round = ", round " + std::to_string(s.round);
    if (s.phase == BisectPhase::endpoints)
        return "good " + label_of(run, 0) + " against bad " + label_of(run, s.first_bad) + round;
    if (s.phase == BisectPhase::confirm)
        return "confirming " + label_of(run, s.first_bad) + " against " + label_of(run, s.last_good) + round;
    return "judging " + label_of(run, s.candidate) + round + "; the regression is after " +
           label_of(run, s.last_good) + " and at or before " + label_of(run, s.first_bad) + " (" +
           std::to_string(s.first_bad - s.last_good) + " builds)";
}

} // namespace

std::string bisect_status_text(const BisectRun& run) {
    const BisectState& s = run.search;
    std::string steps = std::to_string(s.steps.size()) + (s.steps.size() == 1 ? " decision" : " decisions");
    if (s.phase == BisectPhase::done)
        return "bisect: done after " + steps + ": " + s.verdict + "\n";
    return "bisect: " + doing_text(run) + "; " + steps + " so far, " + std::to_string(run.labels.size()) +
           " builds from good to bad\n";
}

nlohmann::json bisect_status_json(const BisectRun& run) {
    const BisectState& s = run.search;
    auto label = [&](int b) { return b < 0 ? nlohmann::json(nullptr) : nlohmann::json(label_of(run, b)); };
    return {{"phase", name_of(kBisectPhaseNames, s.phase)},
            {"outcome", name_of(kBisectOutcomeNames, s.outcome)},
            {"round", s.round},
            {"candidate", label(s.candidate)},
            {"last_good", label(s.last_good)},
            {"first_bad", label(s.first_bad)},
            {"decisions", s.steps.size()},
            {"builds", run.labels.size()},
            {"verdict", s.verdict}};
}

nlohmann::json to_json(const BisectRun& run) {
    nlohmann::json history = nlohmann::json::array();
    for (const auto& c : run.history)
        history.push_back({{"subject", c.subject}, {"version", c.version}, {"timestamp", c.timestamp}});
    nlohmann::json j = {{"refspec", run.refspec}, {"commits", run.commits},   {"history", history},
                        {"labels", run.labels},   {"fed", run.fed},           {"search", to_json(run.search)}};
    if (!run.images.empty())
        j["images"] = run.images;
    return j;
}

BisectRun bisect_run_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    BisectRun run;
    run.refspec = r.str("refspec");
    run.commits = r.strings("commits");
    run.labels = r.strings("labels");
    long long fed = r.integer("fed");
    if (run.labels.size() != run.commits.size() || fed < 0)
        r.fail("labels and commits must pair up, and fed count from 0");
    for (const auto& l : run.labels)
        if (!is_valid_name(l))
            r.fail("the build label '" + l + "' is not a valid target name");
    run.fed = static_cast<size_t>(fed);
    read_images(r, run);
    read_history(r, run);
    run.search = bisect_state_from_json(r.object("search"), where + ": search");
    return run;
}

} // namespace bootbench::core
