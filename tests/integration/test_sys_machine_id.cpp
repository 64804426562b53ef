#include "catch.hpp"
#include "helpers.hpp"
#include "sys/probe/machine_id.hpp"

#include <algorithm>
#include <cctype>

using namespace bootbench;
using namespace bootbench::sys;
using testing::TempDir;

// Expected digests from Python: hashlib.sha256(b"bootbench-machine\n" + id + b"\n" + name).hexdigest()[:16]
TEST_CASE("the machine id: SHA-256 of /etc/machine-id with the experiment's name, 16 hex digits") {
    TempDir dir;
    testing::write(dir.path() / "machine-id", "0123456789abcdef0123456789abcdef\n");
    CHECK(machine_id(dir.path() / "machine-id", "lab") == std::optional<std::string>("4c211619e0a41ca9"));
    CHECK(machine_id(dir.path() / "machine-id", "other") == std::optional<std::string>("a7a84d5e31b828f8"));
}

TEST_CASE("no machine id without a machine-id file, or with an empty one") {
    TempDir dir;
    CHECK_FALSE(machine_id(dir.path() / "machine-id", "lab"));
    testing::write(dir.path() / "machine-id", "\n");
    CHECK_FALSE(machine_id(dir.path() / "machine-id", "lab"));
}

TEST_CASE("a sandbox's machine-id: 32 hex digits, new each time") {
    std::string a = random_machine_id(), b = random_machine_id();
    CHECK(a.size() == 32);
    CHECK(std::all_of(a.begin(), a.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }));
    CHECK(a != b);
}
