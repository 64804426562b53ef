#pragma once
// One exception type for the command level; main() has the single catch.
// Exit codes a script can rely on: 0 ok, 1 failure, 2 bad usage or bad input.
#include <stdexcept>
#include <string>

namespace bootbench {

enum class ExitCode : int { ok = 0, failure = 1, bad_input = 2 };

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& what, ExitCode code = ExitCode::failure)
        : std::runtime_error(what), code_(code) {}
    ExitCode code() const { return code_; }

private:
    ExitCode code_;
};

// Bad usage or bad input: exit status 2.
inline Error input_error(const std::string& what) { return Error(what, ExitCode::bad_input); }

} // namespace bootbench
