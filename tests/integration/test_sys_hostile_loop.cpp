// Hostile text and sizes through the whole loop: bytes that are not UTF-8
// and outputs of tens of megabytes must be stored, capped, and never stop
// the experiment.
#include "../unit/catch.hpp"
#include "core/result/run_result.hpp"
#include "sandbox_fixture.hpp"
#include "sys/store/files.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

using namespace bootbench;
using namespace bootbench::test;

namespace {

const std::string kReplacement = "\xEF\xBF\xBD"; // U+FFFD

// The experiment ran to its end and every run is stored as failed.
void check_finished_all_failed(Sandbox& sb) {
    core::State s = sb.state();
    CHECK(s.phase == core::Phase::finished);
    CHECK(s.count(core::SlotStatus::failed) == 2);
    CHECK(sb.booted_name() == "host");
    CHECK(sb.result_files().size() == 2);
}

// TMPDIR for the lifetime of one test, so that the sandbox's path has it.
class ScopedTmpdir {
  public:
    explicit ScopedTmpdir(const fs::path& dir) {
        const char* old = std::getenv("TMPDIR");
        old_ = old ? std::optional<std::string>(old) : std::nullopt;
        fs::create_directories(dir);
        ::setenv("TMPDIR", dir.c_str(), 1);
    }
    ~ScopedTmpdir() {
        if (old_)
            ::setenv("TMPDIR", old_->c_str(), 1);
        else
            ::unsetenv("TMPDIR");
    }

  private:
    std::optional<std::string> old_;
};

} // namespace

TEST_CASE("a failing bench whose stderr is not UTF-8: stored with U+FFFD, the experiment ends",
          "[loop][hostile]") {
    // The repro: printf's \377 is the byte 0xff (TOML needs \\ for it).
    Sandbox sb(fast_experiment(1, "", "", "echo value: 5; printf 'bad \\\\377\\\\n' >&2; exit 3"));
    sb.start();
    sb.boot_until_done();
    check_finished_all_failed(sb);
    for (const auto& [id, text] : sb.result_files()) {
        auto r = core::run_result_from_json(nlohmann::json::parse(text), id);
        CHECK(r.status == core::RunStatus::failed);
        CHECK(r.failure ==
              "no metric was collected: echo: exited with status 3: bad " + kReplacement);
        REQUIRE(r.benches.size() == 1);
        CHECK(r.benches[0].reason == "exited with status 3: bad " + kReplacement);
    }
    CHECK(sb.state().runs[0].failure ==
          "no metric was collected: echo: exited with status 3: bad " + kReplacement);
}

TEST_CASE("a sandbox whose path is not UTF-8: results stored, the experiment ends",
          "[loop][hostile]") {
    fs::path odd = fs::temp_directory_path() / ("bootbench-\xff-" + std::to_string(::getpid()));
    {
        ScopedTmpdir tmp(odd);
        Sandbox sb(fast_experiment(1, "", "", "echo no number here"));
        sb.start();
        sb.boot_until_done();
        check_finished_all_failed(sb);
        for (const auto& [id, text] : sb.result_files()) {
            auto r = core::run_result_from_json(nlohmann::json::parse(text), id);
            REQUIRE(r.benches.size() == 1);
            CHECK(r.benches[0].reason.rfind("its output has none of the expected metrics (see ", 0) == 0);
            CHECK(r.benches[0].reason.find("bootbench-" + kReplacement + "-") != std::string::npos);
        }
    }
    fs::remove_all(odd);
}

TEST_CASE("a 30 MB stderr line and 20 MB of stdout: capped on disk and in the result",
          "[loop][hostile]") {
    Sandbox sb(fast_experiment(
        1, "", "",
        "head -c 20000000 /dev/zero | tr '\\\\0' y; head -c 30000000 /dev/zero | tr '\\\\0' x >&2; exit 1"));
    sb.start();
    sb.boot_until_done();
    check_finished_all_failed(sb);
    for (const auto& [id, text] : sb.result_files()) {
        CHECK(text.size() < 64 * 1024);
        auto r = core::run_result_from_json(nlohmann::json::parse(text), id);
        REQUIRE(r.benches.size() == 1);
        // Compared piecewise: a failure must not print megabytes.
        const std::string& reason = r.benches[0].reason;
        CHECK(reason.size() < 4200);
        CHECK(reason.rfind("exited with status 1: " + std::string(4096, 'x') + " [... ", 0) == 0);
        CHECK(reason.ends_with(" [... " + std::to_string((4u << 20) - 4096) +
                               " more bytes of stderr's last line cut]"));
        // The first and last 4 MiB are kept, with a line that says what was dropped.
        fs::path raw = sb.results() / "runs" / id / "attempt-1";
        std::string out = sys::read_text_file(raw / "echo.stdout");
        CHECK(out.size() < (8u << 20) + 200);
        CHECK(out.find("\n[bootbench: 11611392 bytes dropped here: raw output is capped at 8 MiB, "
                       "its first and last 4 MiB kept]\n") == (4u << 20));
        CHECK(fs::file_size(raw / "echo.stderr") < (8u << 20) + 200);
    }
    CHECK(fs::file_size(sb.paths().state()) < 64 * 1024);
}

TEST_CASE("an error that quotes outside text is printed with its escapes escaped",
          "[loop][hostile]") {
    CliResult r = run_cli({"plan", "/nonexistent/\x1b[2J\x1b]0;pwned\x07.toml"});
    CHECK(r.status == 2);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(r.err.find("/nonexistent/\\x1b[2J\\x1b]0;pwned\\x07.toml") != std::string::npos);
}

TEST_CASE("terminal escapes on a bench's stderr are stored escaped and status shows them so",
          "[loop][hostile]") {
    Sandbox sb(fast_experiment(1, "", "", "printf '\\\\033[2J\\\\033[31mred\\\\n' >&2; exit 3"));
    sb.start();
    sb.boot_until_done();
    check_finished_all_failed(sb);
    for (const auto& [id, text] : sb.result_files()) {
        auto r = core::run_result_from_json(nlohmann::json::parse(text), id);
        REQUIRE(r.benches.size() == 1);
        CHECK(r.benches[0].reason == "exited with status 3: \\x1b[2J\\x1b[31mred");
    }
    CliResult status = run_cli({"status", "--sysroot", sb.layout.sysroot.string()});
    CHECK(status.status == 0);
    CHECK(status.out.find('\x1b') == std::string::npos);
    CHECK(fs::file_size(sb.results() / "bootbench.log") > 0);
    CHECK(sys::read_text_file(sb.results() / "bootbench.log").find('\x1b') == std::string::npos);
}
