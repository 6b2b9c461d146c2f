#pragma once
// The generator's own PRNG (SplitMix64, Steele, Lea & Flood 2014): the same seed gives the same stream on
// every platform and standard library, unlike std:: distributions. Only integer arithmetic and exact
// floating-point operations are used, so generated traces are byte-identical everywhere.
#include <cstdint>

namespace cnp::synth {

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return uniform() < p; }
    // Approximately standard normal (Irwin-Hall: sum of four uniforms, scaled to unit variance), bounded
    // by +-3.46: no tail can turn a duration negative.
    double normal() {
        const double s = uniform() + uniform() + uniform() + uniform();
        return (s - 2.0) * 1.7320508075688772;
    }
    // A factor 1 + relSd x normal(), never below 0.5.
    double jitter(double relSd) {
        const double f = 1.0 + relSd * normal();
        return f < 0.5 ? 0.5 : f;
    }

    // A seed for an independent stream derived from this seed and `salt` (one stream per rank, per run...).
    static std::uint64_t derive(std::uint64_t seed, std::uint64_t salt) {
        SplitMix64 g(seed ^ (salt * 0xD1B54A32D192ED03ull));
        g.next();
        return g.next();
    }

private:
    std::uint64_t state_;
};

} // namespace cnp::synth
