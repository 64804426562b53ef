#pragma once
// What every fuzz target holds bootbench to: on any input, a parser either
// returns a value or throws bootbench::Error (the message a user sees, exit
// 2). Any other exception would reach main() as "internal error", and a
// crash, a hang or a sanitizer report is a finding in itself.
#include "core/base/error.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace bootbench::fuzz {

template <typename F>
void expect_value_or_error(F&& parse) {
    try {
        parse();
    } catch (const bootbench::Error&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: an exception other than bootbench::Error escaped: %s\n", e.what());
        std::abort();
    }
}

inline std::string text_of(const uint8_t* data, size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

} // namespace bootbench::fuzz
