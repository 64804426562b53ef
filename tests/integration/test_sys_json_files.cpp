#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/result/run_result.hpp"
#include "core/state/state.hpp"
#include "error_of.hpp"
#include "helpers.hpp"
#include "sys/store/result_reader.hpp"
#include "sys/store/state_store.hpp"

using namespace bootbench;
using bootbench::test::error_of;
using testing::TempDir;

namespace {

// `doc` as text with the string "DEEP" replaced by an array nested 200,000 deep.
std::string with_deep_array(const nlohmann::json& doc) {
    std::string text = doc.dump();
    std::string deep = std::string(200000, '[') + std::string(200000, ']');
    return text.replace(text.find("\"DEEP\""), 6, deep);
}

core::RunResult valid_run() {
    core::RunResult r;
    r.experiment = "e";
    r.run_id = "a-1";
    r.target = "a";
    r.started_at = r.finished_at = "2026-07-01T00:00:00+00:00";
    r.metrics.push_back({"sched_pipe_usecs_op", 4.5, "us/op", core::Better::lower, "pipe"});
    return r;
}

} // namespace

TEST_CASE("a state.json with an images field nested 200,000 deep is damaged, not a crash") {
    TempDir dir;
    auto file = dir.path() / "state.json";
    core::State s;
    s.experiment = "e";
    s.images = {{"a", "DEEP"}};
    testing::write(file, with_deep_array(core::to_json(s)));
    CHECK(error_of([&] { sys::load_state(file); }) ==
          file.string() +
              ": nesting deeper than 64 levels; not a bootbench file? The experiment cannot go on "
              "from a damaged state; run 'bootbench abort' to put the machine back (it falls back "
              "to " +
              (dir.path() / "state.initial.json").string() +
              ") and keep the results collected so far");
}

TEST_CASE("a run file nested 200,000 deep is refused by name before parsing") {
    TempDir dir;
    auto file = dir.path() / "runs" / "a-1.json";
    core::RunResult r = valid_run();
    testing::write(file, core::to_json(r).dump());
    REQUIRE(sys::read_results({file}).runs.size() == 1); // valid without the deep part
    r.environment.kernel_release = "DEEP";
    testing::write(file, with_deep_array(core::to_json(r)));
    CHECK(error_of([&] { sys::read_results({file}); }) ==
          file.string() + ": nesting deeper than 64 levels; not a bootbench file?");
}
