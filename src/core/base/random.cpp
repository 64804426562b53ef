#include "core/base/random.hpp"

namespace bootbench::core {

unsigned long long SplitMix64::next() {
    unsigned long long z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

unsigned long long SplitMix64::below(unsigned long long bound) {
    unsigned long long limit = ~0ULL - (~0ULL % bound);
    unsigned long long x;
    do
        x = next();
    while (x >= limit);
    return x % bound;
}

} // namespace bootbench::core
