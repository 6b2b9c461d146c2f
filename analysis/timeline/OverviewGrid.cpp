#include "timeline/OverviewGrid.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

namespace cnp::timeline {

Ns overviewBucketWidth(Ns runStart, Ns runEnd, int buckets) {
    // The difference of two int64 values fits in uint64 when runEnd >= runStart (modular subtraction).
    const std::uint64_t span = static_cast<std::uint64_t>(runEnd) - static_cast<std::uint64_t>(runStart);
    const auto n = static_cast<std::uint64_t>(std::max(1, buckets));
    const std::uint64_t perBucket = span / n + (span % n != 0 ? 1 : 0); // ceil(span / n)
    constexpr std::uint64_t kMaxWidth = std::uint64_t{1} << 62;         // the largest power of two in Ns
    return static_cast<Ns>(std::bit_ceil(std::clamp<std::uint64_t>(perBucket, 1, kMaxWidth)));
}

EventTrack mergeLanePerBucket(const EventTrack& lane, Ns width) {
    EventTrack m;
    const std::size_t n = lane.size();
    std::size_t i = 0;
    while (i < n) {
        const Ns first = bucketStartOf(lane.start(i), width);
        // The next bucket's first event; none when the next bucket would lie beyond the int64 clock.
        const bool last = first > std::numeric_limits<Ns>::max() - width;
        const std::size_t j = last ? n : lane.gallopStartingAtOrAfter(i + 1, n, first + width); // > i
        std::size_t longest = i;
        for (std::size_t k = i + 1; k < j && k < i + 64; ++k)
            if (lane.end(k) - lane.start(k) > lane.end(longest) - lane.start(longest))
                longest = k;
        m.append(lane.start(i), lane.effectiveEnd(j - 1), lane.name(longest),
                 j - i == 1 ? lane.style(i) : lane.dominantStyle(i, j), lane.kind(longest));
        i = j;
    }
    m.finish();
    return m;
}

CounterSeries mergeCounterPerBucket(const CounterSeries& series, Ns width) {
    CounterSeries m;
    m.minValue = series.minValue;
    m.maxValue = series.maxValue;
    const std::size_t n = std::min(series.ts.size(), series.value.size());
    for (std::size_t first = 0; first < n;) {
        const Ns bucket = bucketStartOf(series.ts[first], width);
        std::size_t lo = first, hi = first, last = first;
        for (; last + 1 < n && bucketStartOf(series.ts[last + 1], width) == bucket; ++last) {
            lo = series.value[last + 1] < series.value[lo] ? last + 1 : lo;
            hi = series.value[last + 1] > series.value[hi] ? last + 1 : hi;
        }
        std::size_t kept[] = {lo, hi, last};
        std::sort(std::begin(kept), std::end(kept));
        for (std::size_t k = 0; k < 3; ++k)
            if (k == 0 || kept[k] != kept[k - 1]) {
                m.ts.push_back(series.ts[kept[k]]);
                m.value.push_back(series.value[kept[k]]);
            }
        first = last + 1;
    }
    return m;
}

} // namespace cnp::timeline
