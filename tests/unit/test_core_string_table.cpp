#include "catch.hpp"
#include "core/base/string_table.hpp"
#include "core/experiment/experiment.hpp"
#include "core/host/doctor_check.hpp"
#include "core/report/report.hpp"
#include "core/report/report_reproduce.hpp"
#include "core/result/run_result.hpp"
#include "core/state/state.hpp"

#include <set>
#include <string>

using namespace bootbench::core;

namespace {

enum class Colour { red, green, blue };
constexpr Named<Colour> kColours[] = {{"red", Colour::red}, {"green", Colour::green}};

// Every row reads back both ways, and no name or value is there twice.
template <typename E, std::size_t N> void check_both_ways(const Named<E> (&table)[N]) {
    std::set<std::string> names;
    std::set<E> values;
    for (const auto& [name, value] : table) {
        CHECK(std::string(name_of(table, value)) == name);
        CHECK(value_of(table, name) == value);
        names.insert(name);
        values.insert(value);
    }
    CHECK(names.size() == N);
    CHECK(values.size() == N);
}

} // namespace

TEST_CASE("a string table reads a value's name and a name's value") {
    STATIC_REQUIRE(std::string_view(name_of(kColours, Colour::green)) == "green");
    CHECK(std::string(name_of(kColours, Colour::red)) == "red");
    CHECK(value_of(kColours, "green") == Colour::green);
}

TEST_CASE("a string table says '?' for a value it lacks and nothing for a name it lacks") {
    CHECK(std::string(name_of(kColours, Colour::blue)) == "?");
    CHECK_FALSE(value_of(kColours, "blue"));
    CHECK_FALSE(value_of(kColours, "Red"));
    CHECK_FALSE(value_of(kColours, ""));
}

TEST_CASE("every enum's table reads both ways, and to_string is its name") {
    check_both_ways(kOrderNames);
    check_both_ways(kSelectorKindNames);
    check_both_ways(kBetterNames);
    check_both_ways(kBenchKindNames);
    check_both_ways(kCheckStatusNames);
    check_both_ways(kVerdictNames);
    check_both_ways(kReproductionNames);
    CHECK(std::string(to_string(Order::counterbalanced)) == "counterbalanced");
    CHECK(std::string(to_string(SelectorKind::checksum)) == "checksum");
    CHECK(std::string(to_string(Better::higher)) == "higher");
    CHECK(std::string(to_string(BenchKind::perf_sched_messaging)) == "perf-sched-messaging");
    CHECK(std::string(to_string(CheckStatus::warn)) == "warn");
    CHECK(std::string(to_string(Verdict::same)) == "same");
    CHECK(std::string(to_string(Reproduction::not_comparable)) == "not comparable");
    CHECK(std::string(to_string(Phase::finished)) == "finished");
    CHECK(std::string(to_string(SlotStatus::done)) == "done");
    CHECK(std::string(to_string(RunStatus::partial)) == "partial");
    CHECK(std::string(to_string(BenchStatus::ok)) == "ok");
}
