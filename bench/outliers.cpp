// How often the outlier rule flags clean data, and how often it finds a
// planted outlier: sets of log-normal values (a fixed sequence), by set size
// and noise. Prints a Markdown table for docs/performance.md.
//
//   ninja -C build bench/outliers-bench && build/bench/outliers-bench [SETS] [ALPHA]
#include "core/stats/outliers.hpp"
#include "core/state/plan.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace bootbench::core;

namespace {

// splitmix64 and Box-Muller: the same sets on every platform.
struct Noise {
    SplitMix64 rng;
    double uniform() { return (static_cast<double>(rng.next() >> 11) + 0.5) / 9007199254740992.0; }
    double normal() {
        return std::sqrt(-2 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
    }
};

struct Rates {
    double clean_sets_flagged, planted_found, planted_half_found;
};

bool only_first(const std::vector<size_t>& idx) {
    return idx.size() == 1 && idx[0] == 0;
}

Rates measure(size_t n, double sigma, int sets, double alpha) {
    Noise noise{SplitMix64(n * 1000 + static_cast<std::uint64_t>(sigma * 1000))};
    EsdTable table(alpha);
    int clean = 0, twice = 0, half = 0;
    for (int s = 0; s < sets; ++s) {
        std::vector<double> v;
        for (size_t i = 0; i < n; ++i)
            v.push_back(100 * std::exp(sigma * noise.normal()));
        clean += !find_outliers(v, table).indices.empty();
        std::vector<double> up = v, down = v;
        up[0] *= 2;
        down[0] /= 2;
        twice += only_first(find_outliers(up, table).indices);
        half += only_first(find_outliers(down, table).indices);
    }
    return {100.0 * clean / sets, 100.0 * twice / sets, 100.0 * half / sets};
}

} // namespace

int main(int argc, char** argv) {
    int sets = argc > 1 ? std::atoi(argv[1]) : 20000;
    double alpha = argc > 2 ? std::atof(argv[2]) : kOutlierAlpha;
    std::printf("%d sets per cell, alpha %g\n\n", sets, alpha);
    std::printf("| noise | n | clean sets flagged | planted 2x found | planted 0.5x found |\n");
    std::printf("| ---: | ---: | ---: | ---: | ---: |\n");
    for (double sigma : {0.02, 0.05, 0.10, 0.30})
        for (size_t n : {3, 4, 5, 6, 8, 10, 12, 16, 20, 30}) {
            Rates r = measure(n, sigma, sets, alpha);
            std::printf("| %.0f%% | %zu | %.2f%% | %.1f%% | %.1f%% |\n", sigma * 100, n,
                        r.clean_sets_flagged, r.planted_found, r.planted_half_found);
        }
}
