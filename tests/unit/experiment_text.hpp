#pragma once
// Experiment files as text in tests: the one file the tests share, the edits
// each test states, and the message parse_experiment gives for a file.
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/experiment/experiment.hpp"

#include <stdexcept>
#include <string>

namespace bootbench::test {

// The experiment file the tests share: valid, and each test states only what
// it changes. Error positions count from its lines, which stay where they are:
//    1 [experiment]   2 name   3 runs = 2   4 baseline = "a"
//    6 [[target]] a, 8 its refspec
//   10 [[target]] b, 12 its image, 13 its kargs
//   15 [[bench]], 16 kind = "perf-sched-pipe"
// A table added after it starts on line 17, its first key on line 18.
inline const std::string kExperiment = R"([experiment]
name = "kern-ab"
runs = 2
baseline = "a"

[[target]]
name = "a"
refspec = "fedora:fedora/x86_64/silverblue"

[[target]]
name = "b"
image = "ostree-image-signed:docker://ghcr.io/x/y:stable"
kargs = ["mitigations=off"]

[[bench]]
kind = "perf-sched-pipe"
)";

// `text` with its first `from` replaced by `to`. A `from` not in it is a
// mistake of the test: thrown, so a test fails on it and a file built before
// the tests run stops the binary.
inline std::string replace(std::string text, const std::string& from, const std::string& to) {
    auto pos = text.find(from);
    if (pos == std::string::npos)
        throw std::logic_error("replace: '" + from + "' is not in the text");
    return text.replace(pos, from.size(), to);
}

// kExperiment with `lines` added to [experiment] after runs (from line 4).
inline std::string with_experiment_key(const std::string& lines) {
    return replace(kExperiment, "runs = 2\n", "runs = 2\n" + lines + "\n");
}

// kExperiment with `bench` in place of its bench's kind line (from line 16):
// a bench's keys, or more [[bench]] tables after the first one's.
inline std::string with_bench(const std::string& bench) {
    return replace(kExperiment, "kind = \"perf-sched-pipe\"\n", bench + "\n");
}

// The message parse_experiment reports for `text` (read as exp.toml, always
// exit 2), or "" when it is valid.
inline std::string experiment_error(const std::string& text) {
    try {
        core::parse_experiment(text, "exp.toml");
    } catch (const Error& e) {
        CHECK(e.code() == ExitCode::bad_input);
        return e.what();
    }
    return "";
}

} // namespace bootbench::test
