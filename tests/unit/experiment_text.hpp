#pragma once
// Experiment files as text in tests: the message parse_experiment gives for
// one, and one edit of it.
#include "catch.hpp"
#include "core/base/error.hpp"
#include "core/experiment/experiment.hpp"

#include <string>

namespace bootbench::test {

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

// `text` with its first `from` replaced by `to`; `from` must be in it.
inline std::string replace(std::string text, const std::string& from, const std::string& to) {
    auto pos = text.find(from);
    REQUIRE(pos != std::string::npos);
    return text.replace(pos, from.size(), to);
}

} // namespace bootbench::test
