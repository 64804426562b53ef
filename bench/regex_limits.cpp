// What PCRE2's limits cost (core/base/regex): the time a metric regex takes to
// give up on a hostile line, and to match an ordinary one. Best of 5.
//
//   ninja -C build regex-limits-bench && build/bench/regex-limits-bench
#include "core/base/regex.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace {

using bootbench::core::Regex;
using bootbench::core::RegexMatch;

const char* outcome_name(RegexMatch::Outcome o) {
    switch (o) {
    case RegexMatch::Outcome::match:
        return "match";
    case RegexMatch::Outcome::no_match:
        return "no match";
    case RegexMatch::Outcome::gave_up:
        return "gave up";
    }
    return "?";
}

void measure(const char* what, const std::string& pattern, const std::string& line, int repeat) {
    Regex re(pattern);
    double best = 1e9;
    RegexMatch m;
    for (int round = 0; round < 5; ++round) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < repeat; ++i)
            m = re.search(line);
        std::chrono::duration<double, std::micro> d = std::chrono::steady_clock::now() - t0;
        best = std::min(best, d.count() / repeat);
    }
    std::printf("%-44s %-9s %12.1f us per line\n", what, outcome_name(m.outcome), best);
}

} // namespace

int main() {
    std::string digits = "took " + std::string(50000, '7');
    measure("'took ([0-9]+)' on 50,000 digits", "took ([0-9]+)", digits, 20);
    measure("'(a|a)*b([0-9])' on 28 a's + 'bx'", "(a|a)*b([0-9])", std::string(28, 'a') + "bx", 3);
    measure("'(a|a)*b([0-9])' on 28 a's", "(a|a)*b([0-9])", std::string(28, 'a'), 1000);
    measure("'(x+x+)+[yz]' on 64 KiB of x", "(x+x+)+[yz]", std::string(65536, 'x'), 3);
    measure("'latency: ([0-9.]+)' on a 40-byte line", "latency: ([0-9.]+)",
            "  latency: 12.5 ms (p50), 14.1 ms (p99)", 100000);
    return 0;
}
