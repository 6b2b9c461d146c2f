#pragma once
// A small seeded generator for the statistics of analysis/metrics (block bootstrap, permutation tests):
// SplitMix64 (Steele, Lea & Flood 2014) with unbiased rejection sampling, so the same seed gives the same
// draws on every platform and standard library (std:: distributions differ between libraries).
#include <cstddef>
#include <cstdint>

namespace cnp {

class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) for n > 0, unbiased (rejection). O(1) expected.
    std::size_t below(std::size_t n) {
        const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
        std::uint64_t x;
        do
            x = next();
        while (x >= limit);
        return static_cast<std::size_t>(x % n);
    }

private:
    std::uint64_t state_;
};

} // namespace cnp
