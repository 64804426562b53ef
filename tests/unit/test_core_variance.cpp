#include "catch.hpp"
#include "core/stats/variance.hpp"

using namespace bootbench::core;

// Three boots of two iterations, by hand: boot means 11, 15, 12, mean 38/3;
// within: (1 + 1) per boot = 6 over n2 (n1 - 1) = 3 -> S1^2 = 2;
// between: ((5/3)^2 + (7/3)^2 + (2/3)^2) / 2 = 13/3 = S2^2;
// T2^2 = 13/3 - 2/2 = 10/3; shares 2 : 10/3 = 37.5% : 62.5%.
TEST_CASE("Kalibera-Jones variance split, by hand", "[variance]") {
    auto v = variance_split({{10, 12}, {14, 16}, {11, 13}});
    REQUIRE(v);
    CHECK(v->boots == 3);
    CHECK(v->iterations == 2);
    CHECK(v->mean == Approx(38.0 / 3));
    CHECK(v->s1_sq == Approx(2));
    CHECK(v->t1_sq == Approx(2));
    CHECK(v->s2_sq == Approx(13.0 / 3));
    CHECK(v->t2_sq == Approx(10.0 / 3));
    CHECK(v->between_detectable());
    CHECK(v->within_share == Approx(0.375));
    CHECK(v->between_share == Approx(0.625));
}

TEST_CASE("nothing to split without two boots or a repeated bench", "[variance]") {
    CHECK_FALSE(variance_split({{1, 2, 3}}));
    CHECK_FALSE(variance_split({{1}, {2}, {3}}));
    CHECK_FALSE(variance_split({}));
    // Unequal boots pool the within-boot sums: (2 + 0) / (1 + 0) = 2.
    auto v = variance_split({{10, 12}, {14}});
    REQUIRE(v);
    CHECK(v->s1_sq == Approx(2));
    CHECK(v->iterations == 1.5);
}

// With c_boot / c_iter = 60: r1 = ceil(sqrt(60 * 2 / (10/3))) = ceil(6) = 6.
// V = 10/3 + 2/6 = 11/3; for +-20%: (V / (0.2 * 38/3)^2) = 0.5713, and the
// smallest n2 with n2 >= t(n2-1)^2 * 0.5713 is 5 (t(4)^2 * 0.5713 = 4.40;
// n2 = 4: t(3)^2 * 0.5713 = 5.79 > 4).
TEST_CASE("boots x iterations for a precision, by hand", "[variance]") {
    auto v = variance_split({{10, 12}, {14, 16}, {11, 13}});
    auto a = advise(*v, 60, 1, 0.2);
    REQUIRE(a);
    CHECK(a->iterations == 6);
    CHECK(a->iterations_from_costs);
    CHECK(a->boots == 5);
    CHECK_FALSE(a->capped);
    // +-2%: (11/3) / (0.02 * 38/3)^2 = 57.13 -> t(221)^2 * 57.13 = 221.9 -> 222.
    CHECK(advise(*v, 60, 1)->boots == 222);
    // Boots as cheap as iterations: r1 = ceil(sqrt(2 / (10/3))) = 1.
    CHECK(advise(*v, 1, 1, 0.2)->iterations == 1);
    // Unknown costs: the pilot's repeat, not the formula.
    auto unknown = advise(*v, 0, 1, 0.2);
    CHECK(unknown->iterations == 2);
    CHECK_FALSE(unknown->iterations_from_costs);
    CHECK(advise(*v, 60, 1, 0.0001)->capped);
}

// Issue 32 item 7: the ratio of two medians. One target's split twice, R = 6
// as advise's: w = (10/3 + pi x 2/6) / (38/3)^2 = 0.027302; for +-20% the
// scale is pi/2 x 2w / 0.2^2 = 2.1443 and n2 = 11 (t(10)^2 x 2.1443 = 10.65;
// n2 = 10: t(9)^2 x 2.1443 = 10.97 > 10).
TEST_CASE("boots for the ratio of two medians, by hand", "[variance]") {
    auto v = variance_split({{10, 12}, {14, 16}, {11, 13}});
    auto a = advise_ratio(*v, *v, 60, 1, 0.2);
    REQUIRE(a);
    CHECK(a->iterations == 6);
    CHECK(a->boots == 11);
    // +-2%: scale 214.43, t(826)^2 x 214.43 = 826.2 -> 827 (advise: 222)
    CHECK(advise_ratio(*v, *v, 60, 1)->boots == 827);
    // One iteration per boot (boots as cheap as iterations): T1^2 counts
    // once, w = (10/3 + 2) / (38/3)^2 = 0.033241, scale 261.07 -> 1006:
    // more than kMaxRuns (1000)
    auto one = advise_ratio(*v, *v, 1, 1);
    CHECK(one->iterations == 1);
    CHECK(one->capped);
    // the larger R of the two targets is the bench's
    auto quiet = variance_split({{10, 10.1}, {14, 14.1}, {11, 11.1}});
    CHECK(advise_ratio(*quiet, *v, 60, 1)->iterations == 6);
    CHECK_FALSE(advise_ratio(*v, VarianceSplit{}, 60, 1)); // a mean not above 0
}

// Boot means all 12: S2^2 = 0, S1^2 = (4 + 4 + 0 + 0 + 1 + 1) / 3 = 10/3,
// T2^2 = -5/3: no between-boot variance to detect. R stays the pilot's 2,
// V = 0 + (10/3) / 2; for +-10%: scale 1.157, n2 = 7 (t(6)^2 * 1.157 = 6.93).
TEST_CASE("between-boot variance not detectable: no division by it", "[variance]") {
    auto v = variance_split({{10, 14}, {12, 12}, {11, 13}});
    REQUIRE(v);
    CHECK(v->t2_sq == Approx(-5.0 / 3));
    CHECK_FALSE(v->between_detectable());
    CHECK(v->within_share == 1);
    CHECK(v->between_share == 0);
    auto a = advise(*v, 60, 1, 0.1);
    REQUIRE(a);
    CHECK(a->iterations == 2);
    CHECK_FALSE(a->iterations_from_costs);
    CHECK(a->boots == 7);
    CHECK_FALSE(advise(*variance_split({{-1, 1}, {-2, 2}}), 60, 1));
}

TEST_CASE("t quantiles: the table and the expansion agree with the tables", "[variance]") {
    CHECK(t975(1) == Approx(12.7062));
    CHECK(t975(4) == Approx(2.7764));
    CHECK(t975(30) == Approx(2.0423).epsilon(1e-4));
    CHECK(t975(31) == Approx(2.0395).epsilon(1e-4));
    CHECK(t975(60) == Approx(2.0003).epsilon(1e-4));
    CHECK(t975(120) == Approx(1.9799).epsilon(1e-4));
    CHECK(t975(100000) == Approx(1.96).epsilon(1e-3));
}
