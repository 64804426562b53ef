#pragma once
// The two judgements a bisection makes from runs (docs/statistics.md,
// "Bisect"): where a candidate build stands between good and bad, and
// whether two builds differ by at least the threshold (the endpoints first,
// the final pair last). Both use core/stats: the exact rank test and the
// bootstrap interval of the ratio of medians.
#include "core/experiment/bench.hpp"
#include "core/stats/stats.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace bootbench::core {

// How many runs a bisection asks for and at which level its tests decide
// (tuned by bench/bisect_sim.py: docs/statistics.md).
struct BisectRules {
    double alpha = 0.01;    // a rank test's level, for every decision
    int endpoint_runs = 10; // good's and bad's first round, each
    int step_runs = 8;      // a candidate's first round
    int confirm_runs = 4;   // the final pair's round, each, interleaved
    int more_runs = 3;      // each later round of an undecided decision, per build
    int max_rounds = 8;     // rounds of one decision before it is reported undecided
};

enum class Likeness { like_good, like_bad, undecided };
inline constexpr Named<Likeness> kLikenessNames[] = {{"like-good", Likeness::like_good},
                                                     {"like-bad", Likeness::like_bad},
                                                     {"undecided", Likeness::undecided}};

// A candidate's runs against good's and bad's. like-bad: it differs from
// good (rank test below alpha), not from bad, and its median is nearer
// bad's; like-good the other way round; undecided otherwise (too few runs,
// or different from both: a build between the two).
struct CandidateCall {
    Likeness likeness = Likeness::undecided;
    double p_good = 1, p_bad = 1; // the rank tests against each endpoint
    double ratio_good = 1,
           ratio_bad = 1; // better_ratio of the medians: < 1, the candidate is worse
    std::string why;      // for the report: "differs from good (p = 0.002), not from bad"
};
CandidateCall classify_candidate(const std::vector<double>& candidate,
                                 const std::vector<double>& good, const std::vector<double>& bad,
                                 Better better, double alpha);

enum class PairCall { regression, no_regression, undecided };
inline constexpr Named<PairCall> kPairCallNames[] = {{"regression", PairCall::regression},
                                                     {"no-regression", PairCall::no_regression},
                                                     {"undecided", PairCall::undecided}};

enum class LastRound { no, yes };

// `after` against `before`: a regression when the rank test is below alpha,
// `after` is worse and its interval reaches a change of the threshold
// (better_ratio <= 1 / (1 + threshold)); no regression when `after` is
// significantly better, or the interval lies within half the threshold
// ((1 / (1 + t/2), 1 + t/2)), or within the threshold in the last round;
// undecided otherwise.
struct PairComparison {
    PairCall call = PairCall::undecided;
    double ratio = 1; // better_ratio(median(after), median(before)): < 1, after is worse
    Interval ci;
    double p = 1;
    std::string why;
};
PairComparison compare_pair(const std::vector<double>& before, const std::vector<double>& after,
                            Better better, double threshold, double alpha, std::uint64_t seed,
                            LastRound last);

} // namespace bootbench::core
