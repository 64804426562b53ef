#include "catch.hpp"
#include "core/stats/stats.hpp"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>

using namespace bootbench::core;

namespace {

// The two-sided permutation p-value of the rank sum by brute force: every
// way to pick a.size() of the pooled values, mid-ranks for ties.
double brute_force_p(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> all = a;
    all.insert(all.end(), b.begin(), b.end());
    size_t n = all.size(), k = a.size();
    std::vector<double> rank(n);
    for (size_t i = 0; i < n; ++i) {
        double less = 0, equal = 0;
        for (double v : all)
            less += v < all[i], equal += v == all[i];
        rank[i] = less + (equal + 1) / 2;
    }
    double observed = 0;
    for (size_t i = 0; i < k; ++i)
        observed += rank[i];
    double expected = static_cast<double>(k) * static_cast<double>(n + 1) / 2;
    double total = 0, extreme = 0;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        if (static_cast<size_t>(std::popcount(mask)) != k)
            continue;
        double sum = 0;
        for (size_t i = 0; i < n; ++i)
            if (mask & (1u << i))
                sum += rank[i];
        total += 1;
        extreme += std::fabs(sum - expected) >= std::fabs(observed - expected) - 1e-9;
    }
    return extreme / total;
}

} // namespace

TEST_CASE("median of odd and even samples", "[stats]") {
    CHECK(median({3, 1, 2}) == 2);
    CHECK(median({4, 1, 3, 2}) == 2.5);
    CHECK(median({7}) == 7);
    // bluefin-dx sched_pipe_usecs_op: middle two of 7.943863 7.95377 7.990634 7.996969
    CHECK(median({7.990634, 7.996969, 7.95377, 7.943863}) == Approx((7.95377 + 7.990634) / 2));
}

TEST_CASE("medians of values near the largest double stay finite", "[stats]") {
    const double top = std::numeric_limits<double>::max();
    CHECK(median({top, top}) == top);
    CHECK(median({top, top / 2, top / 2, top}) == top * 0.75);
    CHECK(median({-top, top}) == 0);
    Interval c = bootstrap_ratio_ci({top, top, top, top}, {top / 2, top / 2, top / 2, top / 2}, Better::higher, 1);
    CHECK(c.lo == 2);
    CHECK(c.hi == 2);
}

TEST_CASE("MAD is the median absolute deviation from the median", "[stats]") {
    // median 3; deviations 2 1 0 1 6 -> sorted 0 1 1 2 6 -> 1
    CHECK(mad({1, 2, 3, 4, 9}) == 1);
    // median 4.5; deviations 3.5 2.5 0.5 0.5 1.5 5.5 -> 0.5 0.5 1.5 2.5 3.5 5.5 -> (1.5+2.5)/2
    CHECK(mad({1, 2, 4, 5, 6, 10}) == 2);
    CHECK(mad({5, 5, 5}) == 0);
}

TEST_CASE("summary: n, median, min, max, spread", "[stats]") {
    Summary s = summarize({4, 2, 3});
    CHECK(s.n == 3);
    CHECK(s.median == 3);
    CHECK(s.min == 2);
    CHECK(s.max == 4);
    CHECK(s.spread_pct == Approx(200.0 / 3)); // (4 - 2) / 3
}

TEST_CASE("Mann-Whitney exact: 4 vs 4 fully separated is 2/70", "[stats]") {
    RankTest t = mann_whitney({1, 2, 3, 4}, {5, 6, 7, 8});
    CHECK(t.method == PValueMethod::exact);
    CHECK(t.p_value == Approx(2.0 / 70));
    CHECK(t.min_p_value == Approx(2.0 / 70));
    CHECK(mann_whitney({5, 6, 7, 8}, {1, 2, 3, 4}).p_value == Approx(2.0 / 70));
}

TEST_CASE("Mann-Whitney exact: 3 vs 4 can never go below 2/35", "[stats]") {
    RankTest t = mann_whitney({4.29, 4.45, 4.46}, {7.94, 7.95, 7.99, 8.00});
    CHECK(t.p_value == Approx(2.0 / 35));
    CHECK(t.min_p_value == Approx(2.0 / 35));
    CHECK(t.p_value > kAlpha);
}

TEST_CASE("Mann-Whitney exact agrees with brute-force enumeration", "[stats]") {
    const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases = {
        {{1, 3, 5}, {2, 4, 6, 8}},
        {{1, 2, 2, 3}, {2, 3, 3, 4}}, // ties across samples
        {{5, 5, 5}, {5, 5}},          // all tied
        {{1.5, 9, 2.5, 7, 3}, {4, 8, 6, 10, 0.5}},
        {{23.95, 23.95, 24.38}, {21.5, 21.89, 20.37, 21.11}},
        {{1, 1, 2, 7, 7, 7}, {2, 3, 7, 9, 9, 1}},
    };
    for (const auto& [a, b] : cases) {
        INFO("a has " << a.size() << " values, b " << b.size());
        CHECK(mann_whitney(a, b).p_value == Approx(brute_force_p(a, b)).epsilon(1e-12));
    }
}

TEST_CASE("Mann-Whitney switches to the normal approximation for large samples", "[stats]") {
    std::vector<double> a, b, odd, even;
    for (int i = 0; i < 40; ++i) {
        a.push_back(i);
        b.push_back(40 + i);
        even.push_back(2 * i);
        odd.push_back(2 * i + 1);
    }
    RankTest separated = mann_whitney(a, b);
    CHECK(separated.method == PValueMethod::normal);
    // U = 0, mean 800, sd sqrt(40*40*81/12) = 103.92; z = 799.5 / 103.92 = 7.69
    CHECK(separated.p_value == Approx(std::erfc(799.5 / std::sqrt(10800.0) / std::sqrt(2.0))));
    CHECK(separated.p_value < 1e-10);
    // interleaved: U = 780 against a mean of 800, so nothing to see
    CHECK(mann_whitney(even, odd).p_value > 0.8);
    CHECK(mann_whitney({}, {1, 2}).p_value == 1);
}

TEST_CASE("better ratio is above 1 when the subject is better, in both directions", "[stats]") {
    CHECK(better_ratio(4.45432, 7.972202, Better::lower) == Approx(1.78977).epsilon(1e-5));
    CHECK(better_ratio(224501, 125436, Better::higher) == Approx(1.78977).epsilon(1e-5));
    CHECK(better_ratio(23.95, 21.305, Better::lower) < 1);
}

TEST_CASE("bootstrap interval is deterministic for a seed and brackets the ratio", "[stats]") {
    std::vector<double> s = {4.45, 4.29, 4.46, 4.40, 4.52}, b = {7.99, 8.00, 7.95, 7.94, 8.10};
    Interval x = bootstrap_ratio_ci(s, b, Better::lower, 42);
    Interval y = bootstrap_ratio_ci(s, b, Better::lower, 42);
    CHECK(x.lo == y.lo);
    CHECK(x.hi == y.hi);
    double ratio = better_ratio(median(s), median(b), Better::lower);
    CHECK(x.lo <= ratio);
    CHECK(ratio <= x.hi);
    // every resampled median lies within min..max of each sample
    CHECK(x.lo >= 7.94 / 4.52);
    CHECK(x.hi <= 8.10 / 4.29);
}

TEST_CASE("bootstrap interval depends on the seed, and only on it", "[stats]") {
    std::vector<double> s, b;
    for (int i = 0; i < 25; ++i) {
        s.push_back(4 + 0.01 * ((i * 37) % 25));
        b.push_back(8 + 0.013 * ((i * 11) % 25));
    }
    Interval x = bootstrap_ratio_ci(s, b, Better::lower, 7);
    Interval y = bootstrap_ratio_ci(s, b, Better::lower, 8);
    CHECK((x.lo != y.lo || x.hi != y.hi));
    Interval again = bootstrap_ratio_ci(s, b, Better::lower, 7);
    CHECK(again.lo == x.lo);
    CHECK(again.hi == x.hi);
}

TEST_CASE("bootstrap of constant samples is the ratio itself", "[stats]") {
    Interval c = bootstrap_ratio_ci({2, 2, 2}, {4, 4}, Better::lower, 1);
    CHECK(c.lo == 2);
    CHECK(c.hi == 2);
}

TEST_CASE("seeds come from FNV-1a so they are the same everywhere", "[stats]") {
    CHECK(seed_from("a") == 0xaf63dc4c8601ec8cULL);
    CHECK(seed_from("") == 0xcbf29ce484222325ULL);
}

TEST_CASE("quantiles interpolate linearly", "[stats]") {
    std::vector<double> v = {1, 2, 3, 4, 5};
    CHECK(quantile_sorted(v, 0) == 1);
    CHECK(quantile_sorted(v, 1) == 5);
    CHECK(quantile_sorted(v, 0.5) == 3);
    CHECK(quantile_sorted(v, 0.125) == 1.5);
}

TEST_CASE("Holm's adjustment matches R's p.adjust(method = \"holm\")", "[stats]") {
    // p.adjust(c(0.03, 0.04, 0.01, 0.005), "holm") = 0.06 0.06 0.03 0.02
    std::vector<double> adjusted = holm_adjust({0.03, 0.04, 0.01, 0.005});
    REQUIRE(adjusted.size() == 4);
    CHECK(adjusted[0] == Approx(0.06));
    CHECK(adjusted[1] == Approx(0.06)); // 0.04 alone would be 0.04: never below a smaller p's
    CHECK(adjusted[2] == Approx(0.03));
    CHECK(adjusted[3] == Approx(0.02));
    CHECK(holm_adjust({0.5, 0.6}) == std::vector<double>{1, 1}); // capped at 1
    CHECK(holm_adjust({}).empty());
}

TEST_CASE("Mann-Whitney: exact up to 60 values in all, the normal approximation above", "[stats]") {
    std::vector<double> a(30), b(30);
    for (int i = 0; i < 30; ++i)
        a[i] = i, b[i] = 100 + i;
    CHECK(mann_whitney(a, b).method == PValueMethod::exact);
    b.push_back(200);
    CHECK(mann_whitney(a, b).method == PValueMethod::normal);
}

TEST_CASE("the two-level bootstrap is the ordinary one with one value per boot", "[stats][bootstrap]") {
    std::vector<double> s, b;
    std::vector<std::vector<double>> sb, bb;
    for (int i = 0; i < 9; ++i) {
        s.push_back(10 + (i * 7) % 5 * 0.3);
        b.push_back(12 + (i * 3) % 4 * 0.2);
        sb.push_back({s.back()});
        bb.push_back({b.back()});
    }
    b.pop_back();
    bb.pop_back();
    Interval one = bootstrap_ratio_ci(s, b, Better::lower, 42);
    Interval two = hierarchical_ratio_ci(sb, bb, Better::lower, 42);
    CHECK(one.lo == two.lo); // exactly: the published reports do not move
    CHECK(one.hi == two.hi);
}

TEST_CASE("the two-level bootstrap carries the noise inside boots", "[stats][bootstrap]") {
    // Boots whose medians agree closely but whose iterations scatter: the
    // inner level widens the interval over the one of the boot medians alone.
    std::vector<std::vector<double>> s, b;
    std::vector<double> sm, bm;
    for (int i = 0; i < 8; ++i) {
        s.push_back({9.0 + 0.01 * i, 10.0 + 0.01 * i, 11.0 + 0.01 * i});
        b.push_back({9.5 + 0.01 * i, 10.5 + 0.01 * i, 11.5 + 0.01 * i});
        sm.push_back(s.back()[1]);
        bm.push_back(b.back()[1]);
    }
    Interval flat = bootstrap_ratio_ci(sm, bm, Better::lower, 7);
    Interval two = hierarchical_ratio_ci(s, b, Better::lower, 7);
    CHECK(two.hi - two.lo > 3 * (flat.hi - flat.lo));
    CHECK(two.lo < 1.05);
    CHECK(two.hi > 1.05);
    CHECK(hierarchical_ratio_ci(s, b, Better::lower, 7).lo == two.lo); // seeded
}
