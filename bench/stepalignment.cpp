// bench_stepalignment: the step diff's alignment (metrics/StepAlignment) of one big step: N GPU activities
// (default 100,000) on two streams named from a vocabulary of 300 kernels; B is A with 1 in 100 activities
// removed, 1 in 100 new ones inserted and every 20th 10% slower, and a second B where a block of 1 in 4
// activities is replaced by fused kernels A lacks (a compiled run). Printed beside each time: the floor
// measured in the same run, sorting a copy of both steps' activities by (stream, start) — the alignment
// sorts them too — and the peak resident memory. Usage: bench_stepalignment [ACTIVITIES]
// (docs/performance.md, "Step diff").
#include "metrics/StepAlignment.h"
#include "common/MedianOfThree.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include <sys/resource.h>

using namespace cnp;

namespace {

using bench::median3;

std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

StepGpuEvent activity(const std::string& name, std::int64_t stream, Ns start, Ns duration) {
    StepGpuEvent e;
    e.name = name;
    e.stream = stream;
    e.start = start;
    e.end = start + duration;
    return e;
}

std::vector<StepGpuEvent> stepA(long n, const std::vector<std::string>& vocabulary) {
    std::vector<StepGpuEvent> out;
    Ns t[2] = {0, 0};
    for (long i = 0; i < n; ++i) {
        const int s = i % 7 == 0 ? 1 : 0;
        const Ns d = 2'000 + static_cast<Ns>(mix(static_cast<std::uint64_t>(i)) % 20'000);
        out.push_back(activity(vocabulary[mix(static_cast<std::uint64_t>(i) * 3) % vocabulary.size()],
                               7 + 6 * s, t[s], d));
        t[s] += d + 1'000;
    }
    return out;
}

// B from A: `replaceEvery` > 0 replaces 1 block of 8 in `replaceEvery` by fused kernels A lacks.
std::vector<StepGpuEvent> stepB(const std::vector<StepGpuEvent>& a, long replaceEvery) {
    std::vector<StepGpuEvent> out;
    Ns t[2] = {0, 0};
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto& e = a[i];
        const int s = e.stream == 7 ? 0 : 1;
        const std::uint64_t r = mix(i * 7 + 1);
        if (r % 100 == 0)
            continue;
        Ns d = e.end - e.start;
        if (i % 20 == 0)
            d += d / 10;
        std::string name = e.name;
        if (replaceEvery > 0 && (i / 8) % static_cast<std::size_t>(replaceEvery) == 0)
            name = "triton_fused_" + std::to_string((i / 8) % 50);
        out.push_back(activity(name, e.stream, t[s], d));
        t[s] += d + 1'000;
        if (r % 100 == 1) {
            out.push_back(activity("inserted_kernel", e.stream, t[s], 3'000));
            t[s] += 4'000;
        }
    }
    return out;
}

double floorOf(const std::vector<StepGpuEvent>& a, const std::vector<StepGpuEvent>& b) {
    return median3([&]() {
        for (const auto* v : {&a, &b}) {
            auto copy = *v;
            std::sort(copy.begin(), copy.end(), [](const StepGpuEvent& x, const StepGpuEvent& y) {
                return std::tie(x.device, x.stream, x.start, x.end, x.name) <
                       std::tie(y.device, y.stream, y.start, y.end, y.name);
            });
        }
    });
}

void run(const char* label, const std::vector<StepGpuEvent>& a, const std::vector<StepGpuEvent>& b) {
    StepAlignment s;
    const double t = median3([&]() { s = StepAlignment::align(a, b); });
    const double floor = floorOf(a, b);
    std::printf("%-22s %8zu vs %8zu activities: %7.1f ms (floor, sorting both: %6.1f ms; %.1fx) — %d "
                "matched, %d added, "
                "%d removed%s\n",
                label, a.size(), b.size(), t * 1e3, floor * 1e3, t / floor, s.totals.matched, s.totals.added,
                s.totals.removed, s.streams.empty() || !s.streams[0].truncated ? "" : " (truncated)");
}

} // namespace

int main(int argc, char** argv) {
    const long n = argc > 1 ? std::max(1L, std::atol(argv[1])) : 100'000;
    std::vector<std::string> vocabulary;
    for (int i = 0; i < 300; ++i)
        vocabulary.push_back("void at::native::kernel_" + std::to_string(i) + "<float, 4>(int, float*)");
    const auto a = stepA(n, vocabulary);
    run("edited (2% edits)", a, stepB(a, 0));
    run("compiled (1/4 fused)", a, stepB(a, 4));
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    std::printf("peak resident memory: %.0f MiB\n", static_cast<double>(u.ru_maxrss) / 1024.0);
    return 0;
}
