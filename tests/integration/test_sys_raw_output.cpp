#include "catch.hpp"
#include "helpers.hpp"
#include "sys/run/raw_output.hpp"

#include <string>

using namespace bootbench;
using testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("a raw output within the cap is left as it is", "[raw-output]") {
    TempDir dir;
    fs::path f = dir.path() / "b.stdout";
    testing::write(f, std::string(40, 'a'));
    sys::cap_raw_output(f, 40);
    CHECK(testing::read(f) == std::string(40, 'a'));
    sys::cap_raw_output(dir.path() / "never-written", 40); // a bench that wrote nothing
    CHECK_FALSE(fs::exists(dir.path() / "never-written"));
}

TEST_CASE("a raw output over the cap keeps its head and tail and says what was dropped",
          "[raw-output]") {
    TempDir dir;
    fs::path f = dir.path() / "b.stdout";
    testing::write(f, std::string(20, 'h') + std::string(60, '.') + std::string(20, 't'));
    sys::cap_raw_output(f, 40);
    CHECK(testing::read(f) == std::string(20, 'h') +
                                  "\n[bootbench: 60 bytes dropped here: raw output is capped at "
                                  "40 bytes, its first and last 20 bytes kept]\n" +
                                  std::string(20, 't'));
}

TEST_CASE("reading a raw output back never takes more than the cap into memory", "[raw-output]") {
    TempDir dir;
    fs::path f = dir.path() / "b.stderr";
    testing::write(f, std::string(100, 'x'));
    CHECK(sys::read_raw_output(f, 30) == std::string(30, 'x'));
    CHECK(sys::read_raw_output(dir.path() / "missing", 30).empty());
}
