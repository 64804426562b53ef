#include "core/bisect/classify.hpp"

#include <cmath>
#include <cstdio>

namespace bootbench::core {

namespace {

std::string p_text(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "p = %.3g", p);
    return buf;
}

// How far the candidate's median lies from good's towards bad's, in log
// ratio: 0 at good, 1 at bad; NaN when a median is not above 0 or the two
// endpoints have one median.
double position(double candidate, double good, double bad) {
    if (candidate <= 0 || good <= 0 || bad <= 0 || good == bad)
        return std::nan("");
    return std::log(candidate / good) / std::log(bad / good);
}

Likeness likeness_of(bool differs_good, bool differs_bad, double pos) {
    if (differs_good && !differs_bad && pos > 0.5)
        return Likeness::like_bad;
    if (differs_bad && !differs_good && pos < 0.5)
        return Likeness::like_good;
    return Likeness::undecided;
}

std::string call_why(bool differs_good, bool differs_bad, const CandidateCall& c) {
    auto side = [](bool differs, const char* name, double p) {
        return std::string(differs ? "differs from " : "not from ") + name + " (" + p_text(p) + ")";
    };
    return side(differs_good, "good", c.p_good) + ", " + side(differs_bad, "bad", c.p_bad);
}

} // namespace

CandidateCall classify_candidate(const std::vector<double>& candidate,
                                 const std::vector<double>& good, const std::vector<double>& bad,
                                 Better better, double alpha) {
    CandidateCall c;
    if (candidate.empty() || good.empty() || bad.empty()) {
        c.why = "no runs yet";
        return c;
    }
    double mc = median(candidate), mg = median(good), mb = median(bad);
    c.p_good = mann_whitney(candidate, good).p_value;
    c.p_bad = mann_whitney(candidate, bad).p_value;
    c.ratio_good = better_ratio(mc, mg, better);
    c.ratio_bad = better_ratio(mc, mb, better);
    bool differs_good = c.p_good < alpha, differs_bad = c.p_bad < alpha;
    c.likeness = likeness_of(differs_good, differs_bad, position(mc, mg, mb));
    c.why = call_why(differs_good, differs_bad, c);
    return c;
}

namespace {

std::string percent(double ratio) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", (ratio - 1) * 100);
    return buf;
}

bool within(const Interval& ci, double threshold) {
    return ci.lo > 1 / (1 + threshold) && ci.hi < 1 + threshold;
}

// No regression early only when the interval is within half the threshold:
// a percentile interval of few runs is narrower than 95%, and a true change
// of the whole threshold would often pass for none.
PairCall pair_call(const PairComparison& c, double threshold, double alpha, LastRound last) {
    if (c.p < alpha && c.ratio < 1 && c.ci.lo <= 1 / (1 + threshold))
        return PairCall::regression;
    if ((c.p < alpha && c.ratio > 1) || within(c.ci, threshold / 2) ||
        (last == LastRound::yes && within(c.ci, threshold)))
        return PairCall::no_regression;
    return PairCall::undecided;
}

} // namespace

PairComparison compare_pair(const std::vector<double>& before, const std::vector<double>& after,
                            Better better, double threshold, double alpha, std::uint64_t seed,
                            LastRound last) {
    PairComparison c;
    if (before.empty() || after.empty() || median(before) <= 0 || median(after) <= 0) {
        c.why =
            before.empty() || after.empty() ? "no runs yet" : "a median is 0 or below: no ratio";
        return c;
    }
    c.ratio = better_ratio(median(after), median(before), better);
    c.ci = bootstrap_ratio_ci(after, before, better, seed);
    c.p = mann_whitney(after, before).p_value;
    c.call = pair_call(c, threshold, alpha, last);
    c.why = percent(c.ratio) + " (95% interval " + percent(c.ci.lo) + " to " + percent(c.ci.hi) +
            ", " + p_text(c.p) + ")";
    return c;
}

} // namespace bootbench::core
