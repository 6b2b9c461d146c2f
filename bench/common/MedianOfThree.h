#pragma once
// The median wall time of three runs of `f`, in seconds: the benchmarks' figure on a shared, noisy machine.
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace cnp::bench {

inline double median3(const std::function<void()>& f) {
    std::vector<double> v;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        v.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(v.begin(), v.end());
    return v[1];
}

} // namespace cnp::bench
