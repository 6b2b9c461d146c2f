// bench_assemble_decode: what study assemble decodes of each shard on its reader threads (ingest/
// StudyAssembler), per value, next to the floor measured in the same run: zlib's inflate of the same bytes
// (inflateWithLength), which any decoder of these blobs pays.
//   1. a kernel digest (ingest/KernelDigest.h) of N durations in 400 names, decoded into groups;
//   2. a gap pack (store/GapPack.h) of N / 10 gaps, read through GapPackReader (the check assemble runs).
// Values are drawn from a fixed seed (durations log-uniform 1 us .. 10 ms, gaps as an ingest writes them).
// Prints the median of 5 rounds of each (each round times the floor, then the work), in ns per value, and the
// ratio to the floor.
//
//   bench_assemble_decode [N]   (default 4,000,000: one shard of 8 ranks of 1M events holds about that)
#include "core/PackedBytes.h"
#include "ingest/KernelDigest.h"
#include "store/GapPack.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace cnp;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double secondsOf(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The medians over 5 rounds of the floor and of the measured work, each round timing both one after the
// other (so that both see the same load on a shared machine).
std::pair<double, double> timedPair(const std::function<void()>& floor, const std::function<void()>& work) {
    std::vector<double> f, w;
    for (int r = 0; r < 5; ++r) {
        f.push_back(secondsOf(floor));
        w.push_back(secondsOf(work));
    }
    return {median(f), median(w)};
}

std::string digestOf(std::size_t n, std::mt19937_64& rng) {
    constexpr int kNames = 400;
    std::uniform_real_distribution<double> logNs(3.0, 7.0);
    KernelDigestWriter w;
    for (int k = 0; k < kNames; ++k) {
        const std::size_t count = n / kNames;
        std::vector<Ns> d(count);
        for (auto& x : d)
            x = static_cast<Ns>(std::pow(10.0, logNs(rng)));
        std::sort(d.begin(), d.end());
        w.beginName("kernel_" + std::to_string(k) + "_sm90_xmma_gemm_bf16", "gemm", false, 0,
                    static_cast<std::int64_t>(count));
        for (Ns x : d)
            w.duration(x);
    }
    return w.finish();
}

std::string gapPackOf(std::size_t gaps, std::mt19937_64& rng) {
    std::uniform_int_distribution<std::int64_t> len(1'000, 200'000), launches(0, 20);
    GapPackWriter w;
    std::int64_t t = 0;
    for (std::size_t k = 0; k < gaps; ++k) {
        SummaryGapRow g;
        g.stepIndex = static_cast<std::int32_t>(k / 2'000);
        g.startNs = t + len(rng);
        g.endNs = g.startNs + len(rng);
        t = g.endNs;
        g.cpuState = k % 3 == 0 ? "launching" : "synchronizing";
        g.launches = launches(rng);
        g.syncNs = len(rng) / 2;
        g.nextName = "kernel_" + std::to_string(k % 50) + "_sm90_xmma_gemm_bf16";
        g.nextLaunchNs = g.startNs + 500;
        w.add(g);
    }
    return w.finish();
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4'000'000;
    std::mt19937_64 rng(27);
    const std::string digest = digestOf(n, rng);
    const std::string pack = gapPackOf(n / 10, rng);
    std::size_t sink = 0;
    const auto [digestFloor, digestDecode] =
        timedPair([&] { sink += inflateWithLength(digest, 1ULL << 31, "", "").size(); },
                  [&] {
                      for (const auto& g : decodeKernelDigest(digest, KernelDigestWriter::kFormat, "bench"))
                          sink += g.durations.size();
                  });
    const auto [packFloor, packRead] =
        timedPair([&] { sink += inflateWithLength(pack, 1ULL << 30, "", "").size(); },
                  [&] {
                      GapPackReader rd(pack, GapPackWriter::kFormat, 0, "bench");
                      while (rd.next())
                          sink += static_cast<std::size_t>(rd.gap().launches);
                  });
    const auto perValue = [](double s, std::size_t values) { return s * 1e9 / static_cast<double>(values); };
    std::printf("%zu durations (digest %zu bytes), %zu gaps (pack %zu bytes); medians of 5\n", n,
                digest.size(), n / 10, pack.size());
    std::printf("  %-36s %10s %14s %8s\n", "what", "ns/value", "floor ns/value", "x floor");
    std::printf("  %-36s %10.2f %14.2f %8.2f\n", "kernel digest decode", perValue(digestDecode, n),
                perValue(digestFloor, n), digestDecode / digestFloor);
    std::printf("  %-36s %10.2f %14.2f %8.2f\n", "gap pack read (GapPackReader)", perValue(packRead, n / 10),
                perValue(packFloor, n / 10), packRead / packFloor);
    std::printf("  (floor: inflateWithLength of the same bytes; checksum %zu)\n", sink % 10);
    return 0;
}
