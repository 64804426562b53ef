// core/stats/stats against computations that share no code with it: the exact
// bootstrap distribution of a median (binomial sums), and reference p-values
// of the normal approximation with ties (scipy 1.10,
// stats.mannwhitneyu(a, b, method="asymptotic", use_continuity=True)).
// Each test fails for a mutation named in its comment.
#include "catch.hpp"
#include "core/stats/stats.hpp"

#include <cmath>
#include <vector>

using namespace bootbench::core;

namespace {

// P(X >= m) for X ~ Binomial(n, p), by the pmf recurrence.
double binomial_at_least(int n, double p, int m) {
    if (p >= 1)
        return 1;
    double pmf = std::pow(1 - p, n), tail = 0;
    for (int j = 0; j <= n; ++j) {
        if (j >= m)
            tail += pmf;
        pmf *= static_cast<double>(n - j) / static_cast<double>(j + 1) * p / (1 - p);
    }
    return tail;
}

// The values 1..n (n odd): the median of a resample is <= k exactly when at
// least (n+1)/2 of the n draws are <= k. Returns the smallest k whose CDF
// reaches q: the exact q-quantile of the bootstrap distribution.
double exact_median_quantile(int n, double q) {
    for (int k = 1; k <= n; ++k)
        if (binomial_at_least(n, static_cast<double>(k) / n, (n + 1) / 2) >= q)
            return k;
    return n;
}

std::vector<double> one_to(int n) {
    std::vector<double> v;
    for (int i = 1; i <= n; ++i)
        v.push_back(i);
    return v;
}

} // namespace

// Mutation: the interval computed at 90% (0.05 / 0.95) and labelled 95%.
// With baseline {1} and higher-is-better, the ratio is the subject's
// resampled median, whose exact 2.5% quantile is 87 and 5% quantile 89.
TEST_CASE("the bootstrap interval is the 2.5% and 97.5% quantile of the exact distribution", "[stats]") {
    Interval ci = bootstrap_ratio_ci(one_to(201), {1}, Better::higher, seed_from("level"));
    CHECK(exact_median_quantile(201, 0.025) < exact_median_quantile(201, 0.05));
    CHECK(ci.lo >= exact_median_quantile(201, 0.015));
    CHECK(ci.lo <= exact_median_quantile(201, 0.035));
    CHECK(ci.hi >= exact_median_quantile(201, 0.965));
    CHECK(ci.hi <= exact_median_quantile(201, 0.985));
}

// Mutation: the resampler never draws the largest (or smallest) value. From
// {1, 2, 3} a resample's median is 3 with probability 7/27 (two or three
// draws of 3), so both ends of a 95% interval are reached.
TEST_CASE("resamples reach both extremes of a small sample", "[stats]") {
    Interval ci = bootstrap_ratio_ci({1, 2, 3}, {1}, Better::higher, seed_from("ends"));
    CHECK(ci.lo == 1);
    CHECK(ci.hi == 3);
    Interval lower = bootstrap_ratio_ci({1}, {1, 2, 3}, Better::lower, seed_from("ends"));
    CHECK(lower.lo == 1);
    CHECK(lower.hi == 3);
}

// Mutation: the tie correction dropped from the variance of U.
TEST_CASE("the normal approximation with ties matches scipy", "[stats]") {
    std::vector<double> a, b;
    for (int i = 0; i < 40; ++i) {
        a.push_back(i % 4);       // 0 1 2 3 0 1 2 3 ...
        b.push_back(1 + i % 4 / 2 * 2 + (i % 3 == 0)); // 1..4, heavily tied
    }
    RankTest t = mann_whitney(a, b);
    REQUIRE(t.method == PValueMethod::normal);
    CHECK(t.p_value == Approx(0.0025154693779805824).epsilon(1e-9));
}

TEST_CASE("the normal approximation without ties matches scipy", "[stats]") {
    std::vector<double> a, b;
    for (int i = 0; i < 35; ++i) {
        a.push_back(i * 1.5);
        b.push_back(10 + i * 1.3);
    }
    CHECK(mann_whitney(a, b).p_value == Approx(0.0761142841020421).epsilon(1e-9));
}
