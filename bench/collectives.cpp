// bench_collectives: the pure collective matcher and straggler scorer (metrics/CollectiveMatcher.h,
// metrics/StragglerScorer.h) at cluster size: RANKS ranks x STEPS steps of collectives built in memory
// (per step 4 all-gathers and 1 reduce-scatter on one stream, 1 all-reduce on another: 6 calls), with
// per-rank evidence of 40 kernel names, one rank planted slow. Timed as the median of 5 calls, printed
// next to a floor measured in the same run:
//   floor = copying the input and one pass over every kernel (what any matcher pays at least).
// Target (issue 30.5): <= 2 s at 128 ranks x 1,000 steps.
// Usage: bench_collectives [RANKS] [STEPS] (default 128 1000).
#include "metrics/CollectiveMatcher.h"
#include "metrics/StragglerScorer.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace cnp;

namespace {

double seconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median5(const std::function<void()>& f) {
    std::vector<double> v;
    for (int i = 0; i < 5; ++i)
        v.push_back(seconds(f));
    std::sort(v.begin(), v.end());
    return v[2];
}

// A small deterministic generator (no std:: distribution: the same numbers everywhere).
struct Lcg {
    std::uint64_t s = 0x9E3779B97F4A7C15ULL;
    std::uint64_t next() {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return s >> 33;
    }
};

constexpr int kCallsPerStep = 6;
constexpr int kSlowRank = 7;

CollectiveInput buildInput(int ranks, int steps) {
    CollectiveInput in;
    in.names = {"ncclDevKernel_AllGather_RING_LL", "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL",
                "ncclKernel_AllReduce_RING_LL_Sum_float"};
    Lcg rng;
    in.ranks.resize(static_cast<std::size_t>(ranks));
    in.steps.resize(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        in.ranks[static_cast<std::size_t>(r)].rank = r;
        in.ranks[static_cast<std::size_t>(r)].kernels.reserve(static_cast<std::size_t>(steps) *
                                                              kCallsPerStep);
        in.steps[static_cast<std::size_t>(r)].rank = r;
    }
    const Ns stepNs = 100'000'000;
    for (int s = 0; s < steps; ++s) {
        for (int c = 0; c < kCallsPerStep; ++c) {
            const Ns base = static_cast<Ns>(s) * stepNs + static_cast<Ns>(c) * 10'000'000;
            std::vector<Ns> arrival(static_cast<std::size_t>(ranks));
            Ns last = 0;
            for (int r = 0; r < ranks; ++r) {
                arrival[static_cast<std::size_t>(r)] =
                    base + static_cast<Ns>(rng.next() % 200'000) + (r == kSlowRank ? 300'000 : 0);
                last = std::max(last, arrival[static_cast<std::size_t>(r)]);
            }
            const Ns end = last + 2'000'000;
            for (int r = 0; r < ranks; ++r) {
                CollectiveKernel k;
                k.stream = c == 5 ? 17 : 13;
                k.start = arrival[static_cast<std::size_t>(r)];
                k.end = end + static_cast<Ns>(rng.next() % 1000);
                k.nameIndex = c < 4 ? 0 : (c == 4 ? 1 : 2);
                k.bytes = 436'000'000;
                in.ranks[static_cast<std::size_t>(r)].kernels.push_back(k);
            }
        }
        for (int r = 0; r < ranks; ++r)
            in.steps[static_cast<std::size_t>(r)].windows.emplace_back(static_cast<Ns>(s) * stepNs,
                                                                       static_cast<Ns>(s + 1) * stepNs);
    }
    return in;
}

std::vector<RankEvidenceInput> buildEvidence(int ranks, int steps) {
    std::vector<RankEvidenceInput> out(static_cast<std::size_t>(ranks));
    Lcg rng;
    for (int r = 0; r < ranks; ++r) {
        auto& e = out[static_cast<std::size_t>(r)];
        e.rank = r;
        e.windowNs = static_cast<Ns>(steps) * 100'000'000;
        e.dataWaitNs = static_cast<Ns>(steps) * 1'000'000;
        for (int k = 0; k < 40; ++k) {
            KernelStatRow row;
            row.name = "kernel_" + std::to_string(k);
            row.category = "gemm";
            row.count = steps * 10;
            row.medianNs = 50'000.0 * (1.0 + static_cast<double>(rng.next() % 100) / 10'000.0) *
                           (r == kSlowRank ? 1.08 : 1.0);
            row.totalNs = static_cast<Ns>(row.medianNs * static_cast<double>(row.count));
            e.kernels.push_back(row);
        }
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    const int ranks = argc > 1 ? std::max(2, std::atoi(argv[1])) : 128;
    const int steps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1000;
    const CollectiveInput input = buildInput(ranks, steps);
    const auto evidence = buildEvidence(ranks, steps);
    const std::size_t kernels =
        static_cast<std::size_t>(ranks) * static_cast<std::size_t>(steps) * kCallsPerStep;
    std::printf("%d ranks x %d steps: %zu communication kernels, %d calls\n", ranks, steps, kernels,
                steps * kCallsPerStep);

    Ns sink = 0;
    const double floor = median5([&] {
        CollectiveInput copy = input;
        for (const auto& r : copy.ranks)
            for (const auto& k : r.kernels)
                sink += k.end - k.start;
    });
    CollectiveMatch match;
    const double matchS = median5([&] { match = matchCollectives(input); });
    StragglerReport report;
    const double scoreS = median5([&] { report = scoreStragglers(match, evidence); });
    std::printf("floor (copy + one pass)     %8.3f s\n", floor);
    std::printf("matchCollectives            %8.3f s  (%.1fx floor)\n", matchS, matchS / floor);
    std::printf("scoreStragglers             %8.3f s\n", scoreS);
    std::printf("match + score               %8.3f s  (target <= 2 s)\n", matchS + scoreS);
    const auto& top = report.ranks.front();
    std::printf("check: %zu calls, first straggler rank %d (planted %d), last at %lld calls, causes %zu%s\n",
                match.calls.size(), top.rank, kSlowRank, static_cast<long long>(top.lastCount),
                top.causes.size(), sink == 0 ? " (sink 0)" : "");
    return top.rank == kSlowRank ? 0 : 1;
}
