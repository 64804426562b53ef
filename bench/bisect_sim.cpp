// Simulated bisections through the real decision core (core/bisect): each
// history has --builds builds, good first and bad last; every boot measures
// a lower-is-better metric of 100 times boot-to-boot noise (log-normal
// exp(N(0, s)) or normal 1 + N(0, s)); from the culprit build on, the
// centre is (1 + regression) times higher. One line of JSON per bisection:
//
//   build/bench/bisect-sim --count 1000 --seed 1 [--builds 16] [--noise 0.03]
//       [--regression 0.05 | --aa] [--normal] [--threshold 0.05]
//       [--alpha A --endpoint-runs N --step-runs N --confirm-runs N
//        --more-runs N --max-rounds N]
//
// bench/bisect_sim.py runs it and sums the lines up.
#include "core/base/random.hpp"
#include "core/bisect/bisect_state.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace bootbench::core;

namespace {

struct Options {
    int count = 1000, builds = 16;
    std::uint64_t seed = 1;
    double noise = 0.03, regression = 0.05, threshold = 0.05;
    bool aa = false, normal = false;
    BisectRules rules;
};

// splitmix64 and Box-Muller: the same boots on every platform and with
// every compiler (the two draws are named: the order in which operands of
// one expression are evaluated is unspecified, and GCC and clang differ).
struct Noise {
    SplitMix64 rng;
    double uniform() { return (static_cast<double>(rng.next() >> 11) + 0.5) / 9007199254740992.0; }
    double gauss() {
        double u1 = uniform();
        double u2 = uniform();
        return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
};

double boot(Noise& n, const Options& o, bool slow) {
    double centre = 100 * (slow ? 1 + o.regression : 1);
    double z = n.gauss();
    return o.normal ? centre * (1 + o.noise * z) : centre * std::exp(o.noise * z);
}

// One bisection: the culprit (first slow build, 1..builds-1) or 0 for A/A.
void bisect_once(const Options& o, int index) {
    Noise noise{SplitMix64(o.seed * 1000003 + static_cast<std::uint64_t>(index))};
    int culprit =
        o.aa ? 0 : 1 + static_cast<int>(noise.rng.below(static_cast<unsigned>(o.builds - 1)));
    std::vector<std::string> builds;
    for (int b = 0; b < o.builds; ++b)
        builds.push_back("b" + std::to_string(b));
    BisectState s = start_bisect(builds, "boot_s", Better::lower, o.threshold, o.seed, o.rules);
    int boots = 0;
    for (BisectAction a = next_action(s); !a.done; a = next_action(s))
        for (int b : a.order)
            s = record_run(s, b, boot(noise, o, culprit > 0 && b >= culprit)), ++boots;
    BisectAction a = next_action(s);
    const char* last = s.steps.empty() ? "" : name_of(kBisectPhaseNames, s.steps.back().phase);
    std::printf(
        "{\"culprit\": %d, \"outcome\": \"%s\", \"named\": %d, \"boots\": %d, \"steps\": %zu, "
        "\"last_phase\": \"%s\"}\n",
        culprit, name_of(kBisectOutcomeNames, a.outcome), a.first_bad, boots, s.steps.size(), last);
}

bool read_option(Options& o, const char* key, const char* value) {
    std::string k = key;
    auto num = [&] { return std::strtod(value, nullptr); };
    auto whole = [&] { return static_cast<int>(std::strtol(value, nullptr, 10)); };
    if (k == "--count")
        o.count = whole();
    else if (k == "--builds")
        o.builds = whole();
    else if (k == "--seed")
        o.seed = std::strtoull(value, nullptr, 10);
    else if (k == "--noise")
        o.noise = num();
    else if (k == "--regression")
        o.regression = num();
    else if (k == "--threshold")
        o.threshold = num();
    else if (k == "--alpha")
        o.rules.alpha = num();
    else if (k == "--endpoint-runs")
        o.rules.endpoint_runs = whole();
    else if (k == "--step-runs")
        o.rules.step_runs = whole();
    else if (k == "--confirm-runs")
        o.rules.confirm_runs = whole();
    else if (k == "--more-runs")
        o.rules.more_runs = whole();
    else if (k == "--max-rounds")
        o.rules.max_rounds = whole();
    else
        return false;
    return true;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--aa"))
            o.aa = true;
        else if (!std::strcmp(argv[i], "--normal"))
            o.normal = true;
        else if (i + 1 >= argc || !read_option(o, argv[i], argv[i + 1])) {
            std::fprintf(stderr, "bisect-sim: unknown option or missing value: %s\n", argv[i]);
            return 2;
        } else
            ++i;
    }
    for (int i = 0; i < o.count; ++i)
        bisect_once(o, i);
}
