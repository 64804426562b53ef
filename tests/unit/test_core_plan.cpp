#include "catch.hpp"
#include "core/state/plan.hpp"

#include <set>

using namespace bootbench::core;

namespace {

Experiment experiment(Order order, int runs, std::vector<std::string> names = {"a", "b"}) {
    Experiment e;
    e.name = "x";
    e.runs = runs;
    e.order = order;
    for (auto& n : names) {
        Target t;
        t.name = n;
        e.targets.push_back(t);
    }
    return e;
}

std::vector<std::string> ids(const std::vector<PlannedRun>& runs) {
    std::vector<std::string> out;
    for (const auto& r : runs)
        out.push_back(r.run_id);
    return out;
}

} // namespace

TEST_CASE("blocked runs every target's runs together", "[plan]") {
    CHECK(ids(plan_runs(experiment(Order::blocked, 2))) ==
          std::vector<std::string>{"a-1", "a-2", "b-1", "b-2"});
}

TEST_CASE("interleaved alternates targets", "[plan]") {
    CHECK(ids(plan_runs(experiment(Order::interleaved, 2, {"a", "b", "c"}))) ==
          std::vector<std::string>{"a-1", "b-1", "c-1", "a-2", "b-2", "c-2"});
}

TEST_CASE("counterbalanced reverses every other round (ABBA)", "[plan]") {
    CHECK(ids(plan_runs(experiment(Order::counterbalanced, 4))) ==
          std::vector<std::string>{"a-1", "b-1", "b-2", "a-2", "a-3", "b-3", "b-4", "a-4"});
}

TEST_CASE("random is a seeded permutation, numbered in run order", "[plan]") {
    Experiment e = experiment(Order::random, 5);
    e.seed = 7;
    auto first = plan_runs(e);
    CHECK(ids(first) == ids(plan_runs(e))); // same seed, same order
    REQUIRE(first.size() == 10);
    auto first_ids = ids(first);
    std::set<std::string> unique(first_ids.begin(), first_ids.end());
    CHECK(unique.size() == 10);
    int seen_a = 0;
    for (const auto& r : first)
        if (r.target == "a")
            CHECK(r.run_id == "a-" + std::to_string(++seen_a));
    CHECK(seen_a == 5);
    e.seed = 8;
    CHECK(ids(plan_runs(e)) != ids(first));
    // Pinned so that a plan made on one machine is the plan run on another.
    Experiment pinned = experiment(Order::random, 2);
    pinned.seed = 1;
    CHECK(ids(plan_runs(pinned)) == std::vector<std::string>{"b-1", "a-1", "b-2", "a-2"});
}

TEST_CASE("splitmix64 is the published sequence", "[plan]") {
    SplitMix64 rng(1234567);
    CHECK(rng.next() == 6457827717110365317ULL);
    CHECK(rng.next() == 3203168211198807973ULL);
    SplitMix64 r2(0);
    for (int i = 0; i < 1000; ++i)
        CHECK(r2.below(3) < 3);
}
