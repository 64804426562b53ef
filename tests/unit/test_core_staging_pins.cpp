#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/deployment/staging_pins.hpp"
#include "error_of.hpp"

using namespace bootbench::core;
using bootbench::test::error_of;

namespace {

DeploymentInfo dep(const std::string& csum, bool pinned) {
    DeploymentInfo d;
    d.ref = {"os", csum, 0};
    d.pinned = pinned;
    return d;
}

const DeploymentRef kHost{"os", "host", 0}, kUser{"os", "user", 0}, kP{"os", "p", 0};

} // namespace

TEST_CASE("staging pins what is unpinned, never the user's own pins", "[staging]") {
    std::vector<DeploymentInfo> now = {dep("host", false), dep("user", true), dep("p", false)};
    StagingPins first = with_pins({"e", kHost, {}}, {kHost, kUser}, now);
    CHECK(first.pinned == std::vector<DeploymentRef>{kHost});
    now[0].pinned = true; // pinned by the first staging
    StagingPins second = with_pins(first, {kP, kHost, kUser, DeploymentRef{}}, now);
    CHECK(second.pinned == std::vector<DeploymentRef>{kHost, kP});
    CHECK(pinned_by_user(now[1], &second));
    CHECK_FALSE(pinned_by_user(now[0], &second));
    CHECK(pinned_by_user(now[0], nullptr));
}

TEST_CASE("staging.json round trip and a damaged one named", "[staging]") {
    StagingPins p{"exp", kHost, {kHost, kP}};
    nlohmann::json j = to_json(p);
    CHECK(j["schema"] == "bootbench-staging/1");
    StagingPins back = staging_pins_from_json(j, "staging.json");
    CHECK(back.experiment == "exp");
    CHECK(back.original_default == kHost);
    CHECK(back.pinned == p.pinned);
    j["schema"] = "bootbench-staging/9";
    CHECK(error_of([&] { staging_pins_from_json(j, "staging.json"); }) ==
          "staging.json: schema 'bootbench-staging/9' is not supported (this bootbench reads bootbench-staging/1)");
}
