#include "catch.hpp"
#include "core/base/regex.hpp"
#include "error_of.hpp"

#include <string>

using namespace bootbench;
using namespace bootbench::core;
using bootbench::test::error_of;

TEST_CASE("regex: search gives the groups, unset ones empty") {
    Regex re("took ([0-9]+) ms( again)?");
    CHECK(re.capture_count() == 2);
    RegexMatch m = re.search("x took 42 ms");
    REQUIRE(m.outcome == RegexMatch::Outcome::match);
    REQUIRE(m.groups.size() == 3);
    CHECK(m.groups[0] == "took 42 ms");
    CHECK(m.groups[1] == "42");
    CHECK(m.groups[2].empty());
    CHECK(re.search("took many ms").outcome == RegexMatch::Outcome::no_match);
    CHECK(re.search("").outcome == RegexMatch::Outcome::no_match);
    CHECK(re.search("took 1 ms, took 2 ms", 5).groups[1] == "2");
}

TEST_CASE("regex: full_match is anchored at both ends") {
    Regex re("[a-z]+");
    CHECK(re.full_match("abc"));
    CHECK_FALSE(re.full_match("abc1"));
    CHECK_FALSE(re.full_match("1abc"));
    CHECK_FALSE(re.full_match(""));
}

TEST_CASE("regex: a pattern that does not compile says why and where") {
    CHECK(error_of([] { Regex("took ([0-9]+"); }) == "missing closing parenthesis at offset 12");
    CHECK(error_of([] { Regex("a{2,1}"); }) == "numbers out of order in {} quantifier at offset 5");
}

TEST_CASE("regex: nesting and length are bounded when compiling") {
    std::string deep = std::string(20000, '(') + "x" + std::string(20000, ')');
    CHECK(error_of([&] { Regex r(deep); }) == "it is 40001 bytes long, more than 4096");
    std::string nested = std::string(100, '(') + "x" + std::string(100, ')');
    CHECK(error_of([&] { Regex r(nested); }) == "parentheses are too deeply nested at offset 65");
    CHECK(error_of([] { Regex(std::string(64, '(') + "x" + std::string(64, ')')); }) ==
          "(no error)");
    CHECK(error_of([] { Regex(std::string(kMaxRegexLength + 1, 'a')); }) ==
          "it is 4097 bytes long, more than 4096");
    CHECK(error_of([] { Regex(std::string(kMaxRegexLength, 'a')); }) == "(no error)");
}

TEST_CASE("regex: a 50,000-digit line matches without recursion") {
    Regex re("took ([0-9]+)");
    std::string line = "took " + std::string(50000, '7');
    RegexMatch m = re.search(line);
    REQUIRE(m.outcome == RegexMatch::Outcome::match);
    CHECK(m.groups[1].size() == 50000);
    Regex group_per_digit("took ((?:[0-9])+)x");
    CHECK(group_per_digit.search(line).outcome == RegexMatch::Outcome::no_match);
}

TEST_CASE("regex: catastrophic backtracking gives up at the match limit") {
    Regex re("(a|a)*b([0-9])");
    RegexMatch m = re.search(std::string(28, 'a') + "bx");
    CHECK(m.outcome == RegexMatch::Outcome::gave_up);
    CHECK(m.why == "match limit exceeded");
    CHECK_FALSE(re.full_match(std::string(40, 'a') + "bx"));
}
