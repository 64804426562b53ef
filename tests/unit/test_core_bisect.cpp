// core/bisect: the classifier and the step choice on fake results. The runs
// are log-normal around a build's level (a fixed SplitMix64 stream), so each
// test sees noisy boots and the same boots every time.
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/base/random.hpp"
#include "core/bisect/bisect_state.hpp"
#include "error_of.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

using namespace bootbench;
using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

// Boots of a lower-is-better metric: level * exp(N(0, 0.03)).
struct Boots {
    SplitMix64 rng{8};
    double uniform() { return (static_cast<double>(rng.next() >> 11) + 0.5) / 9007199254740992.0; }
    // Draws are named, one statement each: the order in which a compiler
    // evaluates the operands of one expression is unspecified (GCC and clang
    // differ), and the checks below depend on which boot gets which draw.
    double boot(double level) {
        double u1 = uniform();
        double u2 = uniform();
        double z = std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
        return level * std::exp(0.03 * z);
    }
    std::vector<double> runs(double level, int n) {
        std::vector<double> v;
        for (int i = 0; i < n; ++i)
            v.push_back(boot(level));
        return v;
    }
};

std::vector<std::string> builds(int n) {
    std::vector<std::string> b;
    for (int i = 0; i < n; ++i)
        b.push_back("b" + std::to_string(i));
    return b;
}

// Runs every pending boot of `s` with `level(build)` until it is done, or
// `max_boots` boots.
BisectState run(BisectState s, Boots& boots, const std::function<double(int)>& level,
                int max_boots = 1000) {
    for (int n = 0; !next_action(s).done && n < max_boots; ++n) {
        int b = next_action(s).order.front();
        s = record_run(s, b, boots.boot(level(b)));
    }
    return s;
}

int boots_of(const BisectState& s) {
    int n = 0;
    for (const auto& v : s.values)
        n += static_cast<int>(v.size());
    return n;
}

} // namespace

TEST_CASE("a candidate's runs are like good's, like bad's, or undecided", "[bisect]") {
    Boots b;
    std::vector<double> good = b.runs(100, 10);
    std::vector<double> bad = b.runs(105, 10);
    // 8 boots at good's level: differs from bad only
    CandidateCall g = classify_candidate(b.runs(100, 8), good, bad, Better::lower, 0.01);
    CHECK(g.likeness == Likeness::like_good);
    CHECK(g.p_bad < 0.01);
    CHECK(g.p_good >= 0.01);
    CHECK(g.ratio_bad > 1); // better than bad
    CHECK(g.why.rfind("not from good (p = ", 0) == 0);
    CandidateCall x = classify_candidate(b.runs(105, 12), good, bad, Better::lower, 0.01);
    CHECK(x.likeness == Likeness::like_bad);
    CHECK(x.ratio_good < 1);
    // read as higher-is-better, the same boots are still like bad's; only the ratio turns
    CandidateCall h = classify_candidate(b.runs(105, 12), good, bad, Better::higher, 0.01);
    CHECK(h.likeness == Likeness::like_bad);
    CHECK(h.ratio_good > 1);
    // two boots cannot differ from anything at 0.01 (the exact test's smallest p is 2/66)
    CandidateCall few = classify_candidate(b.runs(105, 2), good, bad, Better::lower, 0.01);
    CHECK(few.likeness == Likeness::undecided);
    CHECK(few.why.find("not from good") != std::string::npos);
    // a build halfway, with many boots, differs from both: undecided, not the nearer one
    std::vector<double> halfway = b.runs(102.5, 80);
    std::vector<double> good80 = b.runs(100, 80);
    std::vector<double> bad80 = b.runs(105, 80);
    CandidateCall mid = classify_candidate(halfway, good80, bad80, Better::lower, 0.01);
    CHECK(mid.p_good < 0.01);
    CHECK(mid.p_bad < 0.01);
    CHECK(mid.likeness == Likeness::undecided);
}

TEST_CASE("good against bad: a regression, none, or undecided, by the threshold", "[bisect]") {
    Boots b;
    std::vector<double> g10 = b.runs(100, 10);
    std::vector<double> b10 = b.runs(105, 10);
    PairComparison r = compare_pair(g10, b10, Better::lower, 0.05, 0.01, 1, LastRound::no);
    CHECK(r.call == PairCall::regression);
    CHECK(r.ratio < 1);
    CHECK(r.ci.lo <= 1 / 1.05);
    // A/A with few boots: its interval is wider than half the threshold
    std::vector<double> a6 = b.runs(100, 6);
    std::vector<double> a6b = b.runs(100, 6);
    PairComparison few = compare_pair(a6, a6b, Better::lower, 0.05, 0.01, 1, LastRound::no);
    CHECK(few.call == PairCall::undecided);
    CHECK((few.ci.lo <= 1 / 1.025 || few.ci.hi >= 1.025));
    // ... and with many its interval is within half the threshold: no regression
    std::vector<double> a40 = b.runs(100, 40);
    std::vector<double> a40b = b.runs(100, 40);
    PairComparison many = compare_pair(a40, a40b, Better::lower, 0.05, 0.01, 1, LastRound::no);
    CHECK(many.call == PairCall::no_regression);
    // a 2% change, clearly real, is smaller than the threshold: no regression, but only in the
    // last round while its interval reaches past half the threshold
    std::vector<double> before = b.runs(100, 80);
    std::vector<double> after = b.runs(102, 80);
    PairComparison small =
        compare_pair(before, after, Better::lower, 0.05, 0.01, 1, LastRound::yes);
    CHECK(small.p < 0.01);
    CHECK(small.ci.lo < 1 / 1.025);
    CHECK(small.ci.lo > 1 / 1.05);
    CHECK(small.call == PairCall::no_regression);
    CHECK(compare_pair(before, after, Better::lower, 0.05, 0.01, 1, LastRound::no).call ==
          PairCall::undecided);
    // bad clearly better than good
    std::vector<double> worse = b.runs(105, 10);
    std::vector<double> better = b.runs(100, 10);
    CHECK(compare_pair(worse, better, Better::lower, 0.05, 0.01, 1, LastRound::no).call == PairCall::no_regression);
    CHECK(few.why.find("95% interval") != std::string::npos);
}

TEST_CASE("a bisection starts with good and bad interleaved", "[bisect]") {
    BisectState s = start_bisect(builds(6), "boot_s", Better::lower, 0.05, 1);
    BisectAction a = next_action(s);
    CHECK_FALSE(a.done);
    REQUIRE(a.order.size() == 20);
    CHECK(a.order[0] == 0);
    CHECK(a.order[1] == 5);
    CHECK(a.order[2] == 0);
    REQUIRE(a.counts.size() == 2);
    CHECK(a.counts[0].build == 0);
    CHECK(a.counts[0].count == 10);
    CHECK(a.counts[1].build == 5);
    CHECK(error_of([&] { record_run(s, 2, 100); }) == "bisect: no run of build 2 is pending");
    CHECK(error_of([&] { record_run(s, 0, std::nan("")); }) ==
          "bisect: a run of b0 measured no finite boot_s");
    CHECK(error_of([] { start_bisect(builds(3), "m", Better::lower, 0.05, 1); }) ==
          "a bisection needs good, bad and at least two candidates between them");
}

TEST_CASE(
    "a noisy history of 16 builds: the culprit is found and confirmed by the final pair's A/B",
    "[bisect]") {
    Boots b;
    BisectState s = start_bisect(builds(16), "boot_s", Better::lower, 0.05, 1);
    auto level = [](int build) { return build >= 11 ? 105.0 : 100.0; };
    // run until the search has narrowed to one pair: the culprit is not named yet
    while (!next_action(s).done && s.phase != BisectPhase::confirm)
        s = record_run(s, next_action(s).order.front(),
                       b.boot(level(next_action(s).order.front())));
    CHECK(s.last_good == 10);
    CHECK(s.first_bad == 11);
    CHECK(s.outcome == BisectOutcome::running);
    BisectAction confirm = next_action(s);
    REQUIRE(confirm.counts.size() == 2);
    CHECK(confirm.order == std::vector<int>{10, 11, 10, 11, 10, 11, 10, 11});
    s = run(s, b, level);
    BisectAction done = next_action(s);
    CHECK(done.done);
    CHECK(done.outcome == BisectOutcome::culprit);
    CHECK(done.last_good == 10);
    CHECK(done.first_bad == 11);
    CHECK(done.verdict.rfind("b11 is the first bad build: against b10 ", 0) == 0);
    REQUIRE(s.steps.size() >= 5);
    auto search = std::find_if(s.steps.begin(), s.steps.end(),
                               [](const BisectStep& x) { return x.phase == BisectPhase::search; });
    REQUIRE(search != s.steps.begin());
    REQUIRE(search != s.steps.end());
    CHECK(std::prev(search)->call == "regression"); // good against bad
    CHECK(search->build == 7);                      // the middle of 0..15 first
    CHECK(s.steps.back().phase == BisectPhase::confirm);
    CHECK(s.steps.back().before == 10);
    CHECK(s.steps.back().call == "regression");
}

TEST_CASE("a final pair whose direct A/B shows no difference names no culprit", "[bisect]") {
    Boots b;
    BisectState s = start_bisect(builds(6), "boot_s", Better::lower, 0.05, 1);
    s.phase = BisectPhase::confirm;
    s.last_good = 2;
    s.first_bad = 3;
    s.values[2] = b.runs(100, 8);
    s.values[3] = b.runs(100, 8);
    s.pending = {2, 3, 2, 3};
    s = run(s, b, [](int) { return 100.0; });
    BisectAction a = next_action(s);
    CHECK(a.done);
    CHECK(a.outcome == BisectOutcome::not_confirmed);
    CHECK(a.first_bad == -1);
    CHECK(a.verdict.rfind("the final pair is not confirmed: b3 against b2 ", 0) == 0);
    CHECK(a.verdict.find("; no culprit named") != std::string::npos);
}

TEST_CASE("an undecided candidate gets more rounds with the range's ends, then is reported",
          "[bisect]") {
    Boots b;
    // good and bad 21% apart, the candidate halfway between: it never looks like either
    auto level = [](int build) { return build == 0 ? 100.0 : build == 3 ? 110.0 : 121.0; };
    BisectState s = start_bisect(builds(8), "boot_s", Better::lower, 0.05, 1);
    s.values[0] = b.runs(100, 10);
    s.values[7] = b.runs(121, 10);
    s.phase = BisectPhase::search;
    s.candidate = 3;
    s.pending.assign(8, 3);
    s = record_run(s, 3, 110);
    CHECK(s.round == 1);
    while (s.round == 1 && !next_action(s).done)
        s = record_run(s, 3, b.boot(level(3)));
    CHECK(s.round == 2);
    CHECK(s.steps.back().call == "undecided");
    CHECK(next_action(s).order == std::vector<int>{3, 0, 3, 7, 3});
    s = run(s, b, level);
    BisectAction a = next_action(s);
    CHECK(a.outcome == BisectOutcome::undecided);
    CHECK(s.round == s.rules.max_rounds);
    CHECK(a.verdict.rfind("b3 undecided after 8 rounds (differs from good", 0) == 0);
    CHECK(a.verdict.find("the regression is after b0 and at or before b7") != std::string::npos);
    CHECK(s.values[3].size() == 8 + 7 * 3);
}

TEST_CASE("an A/A history ends after the endpoints' runs with no regression", "[bisect]") {
    Boots b;
    BisectState s = run(start_bisect(builds(16), "boot_s", Better::lower, 0.05, 1), b,
                        [](int) { return 100.0; });
    BisectAction a = next_action(s);
    CHECK(a.done);
    CHECK(a.outcome == BisectOutcome::no_regression);
    CHECK(a.verdict.rfind("no regression between good and bad: bad against good ", 0) == 0);
    CHECK(boots_of(s) == static_cast<int>(s.values.front().size() + s.values.back().size()));
    for (const auto& st : s.steps)
        CHECK(st.phase == BisectPhase::endpoints);
}

TEST_CASE("a bisection's state survives a round trip through JSON and goes on the same",
          "[bisect]") {
    Boots b, twin;
    auto level = [](int build) {
        return build >= 4 ? 95.0 : 100.0;
    }; // higher is better: bad is slower
    BisectState s = run(start_bisect(builds(9), "boot_s", Better::higher, 0.07, 42), b, level, 35);
    REQUIRE(s.phase == BisectPhase::search);
    s.round = 2; // every field away from its default, so that one not read back shows
    nlohmann::json j = to_json(s);
    BisectState back = bisect_state_from_json(nlohmann::json::parse(j.dump()), "bisect.json");
    CHECK(to_json(back) == j);
    twin = b;
    BisectState a = run(s, b, level), c = run(back, twin, level);
    CHECK(to_json(a) == to_json(c));
    CHECK(next_action(c).done);
    j["values"][1] = {1, "x"};
    CHECK(error_of([&] { bisect_state_from_json(j, "bisect.json"); }) ==
          "bisect.json: field 'values' must hold finite numbers only");
    j = to_json(s);
    j["first_bad"] = 0;
    CHECK(error_of([&] { bisect_state_from_json(j, "bisect.json"); }) ==
          "bisect.json: field 'first_bad' (0) is outside 1..8");
    j = to_json(s);
    j["candidate"] = -1;
    CHECK(error_of([&] { bisect_state_from_json(j, "bisect.json"); }) ==
          "bisect.json: field 'candidate' (-1) does not fit phase 'search'");
    j = to_json(s);
    int other = 0; // a build that is not being judged
    while (other == s.candidate || other == s.last_good || other == s.first_bad)
        ++other;
    j["pending"] = {s.candidate, other};
    CHECK(error_of([&] { bisect_state_from_json(j, "bisect.json"); }) ==
          "bisect.json: field 'pending' names build " + std::to_string(other) +
              ", which is not being judged");
    j = to_json(s);
    j["pending"] = nlohmann::json::array();
    CHECK(error_of([&] { bisect_state_from_json(j, "bisect.json"); }) ==
          "bisect.json: fields 'pending' and 'outcome' do not fit phase 'search'");
    j = to_json(s);
    j["phase"] = "confirm";
    j["candidate"] = -1;
    CHECK(error_of([&] { bisect_state_from_json(j, "bisect.json"); }) ==
          "bisect.json: fields 'last_good' and 'first_bad' must be neighbours in phase 'confirm'");
    j = to_json(s);
    j["schema"] = 2;
    CHECK(error_of([&] { bisect_state_from_json(j, "bisect.json"); }) ==
          "bisect.json: bisect state schema 2 is not supported (this bootbench reads 1)");
}

TEST_CASE(
    "a real change smaller than the threshold ends with no regression in the endpoints' last round",
    "[bisect]") {
    Boots b;
    BisectState s = run(start_bisect(builds(6), "boot_s", Better::lower, 0.05, 1), b,
                        [](int build) { return build == 5 ? 102.0 : 100.0; });
    BisectAction a = next_action(s);
    CHECK(a.outcome == BisectOutcome::no_regression);
    CHECK(s.round == s.rules.max_rounds);
    CHECK(s.steps.size() == static_cast<size_t>(s.rules.max_rounds));
    CHECK(s.steps[s.steps.size() - 2].call == "undecided");
}
