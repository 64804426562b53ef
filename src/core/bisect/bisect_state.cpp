#include "core/bisect/bisect_state.hpp"

#include "core/base/error.hpp"

#include <algorithm>
#include <cmath>

namespace bootbench::core {

namespace {

int bad_of(const BisectState& s) {
    return static_cast<int>(s.builds.size()) - 1;
}

// a, b, a, b, ...: `count` runs each.
std::vector<int> interleave(int a, int b, int count) {
    std::vector<int> order;
    for (int i = 0; i < count; ++i)
        order.insert(order.end(), {a, b});
    return order;
}

BisectState& finish(BisectState& s, BisectOutcome outcome, const std::string& verdict) {
    s.phase = BisectPhase::done;
    s.outcome = outcome;
    s.verdict = verdict;
    s.candidate = -1;
    s.pending.clear();
    return s;
}

// The next round of the same decision, or nullptr when the cap is reached.
BisectState* another_round(BisectState& s, std::vector<int> order) {
    if (s.round >= s.rules.max_rounds)
        return nullptr;
    ++s.round;
    s.pending = std::move(order);
    return &s;
}

std::string rounds_text(const BisectState& s) {
    return std::to_string(s.round) + (s.round == 1 ? " round" : " rounds");
}

// The middle of the range still searched, or the final pair's A/B.
BisectState& next_decision(BisectState& s) {
    s.round = 1;
    if (s.first_bad - s.last_good > 1) {
        s.phase = BisectPhase::search;
        s.candidate = s.last_good + (s.first_bad - s.last_good) / 2;
        s.pending.assign(static_cast<size_t>(s.rules.step_runs), s.candidate);
        return s;
    }
    s.phase = BisectPhase::confirm;
    s.candidate = -1;
    s.pending = interleave(s.last_good, s.first_bad, s.rules.confirm_runs);
    return s;
}

PairComparison compare_range(const BisectState& s) {
    return compare_pair(s.values[static_cast<size_t>(s.last_good)],
                        s.values[static_cast<size_t>(s.first_bad)], s.better, s.threshold,
                        s.rules.alpha, s.seed,
                        s.round >= s.rules.max_rounds ? LastRound::yes : LastRound::no);
}

void log_step(BisectState& s, int build, int before, const std::string& call,
              const std::string& why) {
    s.steps.push_back({s.phase, build, before, s.round, call, why});
}

BisectState& decide_endpoints(BisectState& s) {
    PairComparison c = compare_range(s);
    log_step(s, s.first_bad, s.last_good, name_of(kPairCallNames, c.call), c.why);
    if (c.call == PairCall::regression)
        return next_decision(s);
    if (c.call == PairCall::no_regression)
        return finish(s, BisectOutcome::no_regression,
                      "no regression between good and bad: bad against good " + c.why);
    if (another_round(s, interleave(s.last_good, s.first_bad, s.rules.more_runs)))
        return s;
    return finish(s, BisectOutcome::undecided,
                  "good and bad undecided after " + rounds_text(s) + ": bad against good " + c.why);
}

// The runs of every build already known good (from good to the last good)
// or bad (from the first bad to bad): a build judged like good joins good's
// runs, so each step has more to compare with than the one before.
std::vector<double> pooled(const BisectState& s, int from, int to) {
    std::vector<double> out;
    for (int b = from; b <= to; ++b)
        out.insert(out.end(), s.values[static_cast<size_t>(b)].begin(),
                   s.values[static_cast<size_t>(b)].end());
    return out;
}

// An undecided candidate's next round: its runs with one run of each end of
// the range between them (c, last good, c, first bad, c, ...), so that good's
// and bad's runs grow too and an unlucky first round of theirs does not hold
// every later step undecided.
std::vector<int> candidate_round(const BisectState& s) {
    std::vector<int> order;
    for (int i = 0; i < s.rules.more_runs; ++i) {
        order.push_back(s.candidate);
        if (i < 2)
            order.push_back(i == 0 ? s.last_good : s.first_bad);
    }
    return order;
}

BisectState& decide_candidate(BisectState& s) {
    CandidateCall c =
        classify_candidate(s.values[static_cast<size_t>(s.candidate)], pooled(s, 0, s.last_good),
                           pooled(s, s.first_bad, bad_of(s)), s.better, s.rules.alpha);
    log_step(s, s.candidate, -1, name_of(kLikenessNames, c.likeness), c.why);
    if (c.likeness != Likeness::undecided) {
        (c.likeness == Likeness::like_good ? s.last_good : s.first_bad) = s.candidate;
        return next_decision(s);
    }
    if (another_round(s, candidate_round(s)))
        return s;
    const auto& b = s.builds;
    return finish(s, BisectOutcome::undecided,
                  b[static_cast<size_t>(s.candidate)] + " undecided after " + rounds_text(s) +
                      " (" + c.why + "): the regression is after " +
                      b[static_cast<size_t>(s.last_good)] + " and at or before " +
                      b[static_cast<size_t>(s.first_bad)]);
}

BisectState& decide_pair(BisectState& s) {
    PairComparison c = compare_range(s);
    log_step(s, s.first_bad, s.last_good, name_of(kPairCallNames, c.call), c.why);
    const std::string& good = s.builds[static_cast<size_t>(s.last_good)];
    const std::string& bad = s.builds[static_cast<size_t>(s.first_bad)];
    if (c.call == PairCall::regression)
        return finish(s, BisectOutcome::culprit,
                      bad + " is the first bad build: against " + good + " " + c.why);
    if (c.call == PairCall::undecided &&
        another_round(s, interleave(s.last_good, s.first_bad, s.rules.more_runs)))
        return s;
    return finish(s, BisectOutcome::not_confirmed,
                  "the final pair is not confirmed: " + bad + " against " + good + " " + c.why +
                      " after " + rounds_text(s) + "; no culprit named");
}

BisectState& decide(BisectState& s) {
    switch (s.phase) {
    case BisectPhase::endpoints:
        return decide_endpoints(s);
    case BisectPhase::search:
        return decide_candidate(s);
    case BisectPhase::confirm:
        return decide_pair(s);
    case BisectPhase::done:
        break;
    }
    return s;
}

} // namespace

BisectState start_bisect(std::vector<std::string> builds, const std::string& metric, Better better,
                         double threshold, std::uint64_t seed, const BisectRules& rules) {
    if (builds.size() < 4)
        throw Error("a bisection needs good, bad and at least two candidates between them");
    BisectState s;
    s.metric = metric;
    s.better = better;
    s.threshold = threshold;
    s.seed = seed;
    s.rules = rules;
    s.builds = std::move(builds);
    s.values.resize(s.builds.size());
    s.first_bad = bad_of(s);
    s.pending = interleave(0, s.first_bad, rules.endpoint_runs);
    return s;
}

BisectAction next_action(const BisectState& s) {
    BisectAction a;
    a.order = s.pending;
    for (int b : s.pending) {
        auto it = std::find_if(a.counts.begin(), a.counts.end(),
                               [&](const BuildCount& c) { return c.build == b; });
        it == a.counts.end() ? a.counts.push_back({b, 1}) : void(++it->count);
    }
    a.done = s.phase == BisectPhase::done;
    a.outcome = s.outcome;
    a.verdict = s.verdict;
    if (s.outcome == BisectOutcome::culprit)
        a.last_good = s.last_good, a.first_bad = s.first_bad;
    return a;
}

BisectState end_undecided(BisectState s, const std::string& verdict) {
    return finish(s, BisectOutcome::undecided, verdict);
}

BisectState record_run(BisectState s, int build, double value) {
    auto it = std::find(s.pending.begin(), s.pending.end(), build);
    if (it == s.pending.end())
        throw Error("bisect: no run of build " + std::to_string(build) + " is pending");
    if (!std::isfinite(value))
        throw Error("bisect: a run of " + s.builds[static_cast<size_t>(build)] +
                    " measured no finite " + s.metric);
    s.pending.erase(it);
    s.values[static_cast<size_t>(build)].push_back(value);
    return s.pending.empty() ? decide(s) : s;
}

} // namespace bootbench::core
