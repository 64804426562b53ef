#pragma once
// The message a bootbench::Error carries out of `f`, for tests that check
// what the user sees; "(no error)" when `f` does not throw.
#include "core/base/error.hpp"

#include <functional>
#include <string>

namespace bootbench::test {

inline std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const bootbench::Error& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace bootbench::test
