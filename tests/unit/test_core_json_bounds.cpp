#include "catch.hpp"
#include "core/base/json_bounds.hpp"
#include "error_of.hpp"

#include <string>

using namespace bootbench::core;
using bootbench::test::error_of;

TEST_CASE("bounded JSON: nesting deeper than 64 levels is refused before parsing") {
    std::string deep = std::string(200000, '[') + std::string(200000, ']');
    CHECK(error_of([&] { parse_bounded_json(deep, "runs/a-1.json"); }) ==
          "runs/a-1.json: nesting deeper than 64 levels; not a bootbench file?");
    std::string objects;
    for (int i = 0; i < 65; ++i)
        objects += "{\"a\":";
    CHECK(error_of([&] { parse_bounded_json(objects + "1" + std::string(65, '}'), "s.json"); }) ==
          "s.json: nesting deeper than 64 levels; not a bootbench file?");
    CHECK(error_of([&] { parse_bounded_json(std::string(64, '[') + std::string(64, ']'), "x"); }) ==
          "(no error)");
}

TEST_CASE("bounded JSON: brackets in strings are not levels") {
    std::string text = "{\"images\": \"" + std::string(1000, '[') + "\\\"{\"}";
    auto j = parse_bounded_json(text, "state.json");
    CHECK(j["images"].get<std::string>().size() == 1002);
}

TEST_CASE("bounded JSON: size is bounded, syntax errors are nlohmann's") {
    std::string big(kMaxJsonBytes + 1, ' ');
    CHECK(error_of([&] { parse_bounded_json(big, "big.json"); }) ==
          "big.json: 67108865 bytes, more than the 64 MiB a bootbench file may have; not a "
          "bootbench file?");
    CHECK_THROWS_AS(parse_bounded_json("{", "x"), nlohmann::json::parse_error);
}
