#include "timeline/EventTrack.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace cnp::timeline {

void EventTrack::reserve(std::size_t n) {
    start_.reserve(n);
    end_.reserve(n);
    name_.reserve(n);
    style_.reserve(n);
    kind_.reserve(n);
}

void EventTrack::append(Ns start, Ns end, std::uint32_t name, std::uint8_t style, EventKind kind) {
    start_.push_back(start);
    end_.push_back(std::max(end, start));
    name_.push_back(name);
    style_.push_back(style);
    kind_.push_back(static_cast<std::uint8_t>(kind));
}

namespace {
// Small accumulator of (style, weight) pairs; ranges looked at hold few distinct styles.
struct StyleVotes {
    std::array<std::pair<std::uint8_t, Ns>, 32> v{};
    int n = 0;
    void add(std::uint8_t s, Ns w) {
        for (int k = 0; k < n; ++k)
            if (v[k].first == s) {
                v[k].second += w;
                return;
            }
        if (n < static_cast<int>(v.size()))
            v[n++] = {s, w};
    }
    std::uint8_t best() const {
        std::uint8_t s = n ? v[0].first : 0;
        Ns w = -1;
        for (int k = 0; k < n; ++k)
            if (v[k].second > w) {
                w = v[k].second;
                s = v[k].first;
            }
        return s;
    }
};
} // namespace

void EventTrack::finish() {
    const std::size_t n = size();
    start_.shrink_to_fit();
    end_.shrink_to_fit();
    name_.shrink_to_fit();
    style_.shrink_to_fit();
    kind_.shrink_to_fit();
    busy_.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        busy_[i + 1] = busy_[i] + (end_[i] - start_[i]);
    lod_.clear();
    std::size_t block = kFanout;
    while (n >= block) {
        const std::size_t blocks = n / block;
        std::vector<std::uint8_t> level(blocks);
        for (std::size_t b = 0; b < blocks; ++b) {
            StyleVotes votes;
            const std::size_t sub = block / kFanout;
            for (int c = 0; c < kFanout; ++c) {
                const std::size_t lo = b * block + c * sub;
                const std::uint8_t s = lod_.empty() ? style_[lo] : lod_.back()[lo / sub];
                votes.add(s, busy(lo, lo + sub));
            }
            level[b] = votes.best();
        }
        lod_.push_back(std::move(level));
        block *= kFanout;
    }
}

void EventTrack::remapIds(const std::vector<std::uint32_t>& names, const std::vector<std::uint8_t>& styles) {
    for (auto& n : name_)
        n = names[n];
    for (auto& s : style_)
        s = styles[s];
    finish();
}

std::size_t EventTrack::firstEndingAfter(Ns t) const {
    // effectiveEnd is non-decreasing (invariant), so partition_point applies.
    std::size_t lo = 0, hi = size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (effectiveEnd(mid) > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

std::size_t EventTrack::firstStartingAtOrAfter(Ns t) const {
    return static_cast<std::size_t>(std::lower_bound(start_.begin(), start_.end(), t) - start_.begin());
}

std::size_t EventTrack::gallopStartingAtOrAfter(std::size_t from, std::size_t hi, Ns t) const {
    if (from >= hi)
        return hi;
    // Dense views put a handful of events in each column: when the answer is within the next 16
    // events, count the starts below t without branches (starts are sorted, so the count is the
    // offset). Data-dependent branches, not memory, dominate at that size.
    constexpr std::size_t kScan = 16;
    if (hi - from >= kScan && start_[from + kScan - 1] >= t) {
        std::size_t n = 0;
        for (std::size_t k = 0; k < kScan - 1; ++k)
            n += start_[from + k] < t ? 1 : 0;
        return from + n;
    }
    if (start_[from] >= t)
        return from;
    // Gallop. Invariant: start_[lo] < t and the answer lies in (lo, bound]. Probes at distances 1, 2, 4, ...
    // from the last index known to start before t, then bisects the last bracket.
    std::size_t lo = from, bound = hi;
    for (std::size_t step = 1; step < hi - lo; step *= 2) {
        if (start_[lo + step] >= t) {
            bound = lo + step;
            break;
        }
        lo += step;
    }
    return static_cast<std::size_t>(std::lower_bound(start_.begin() + static_cast<std::ptrdiff_t>(lo + 1),
                                                     start_.begin() + static_cast<std::ptrdiff_t>(bound), t) -
                                    start_.begin());
}

namespace {
// The votes of StyleVotes for fewer than 32 items (so none is dropped) without its data-dependent
// branches: weights indexed by style, then the first item (in order) whose style has the largest
// total weight, i.e. the first-added of the largest styles. 0 when there are no items.
template <class StyleOf, class WeightOf>
std::uint8_t dominantOfFew(std::size_t b, std::size_t e, StyleOf styleOf, WeightOf weightOf) {
    std::array<Ns, 256> weight; // only entries of styles among the items are read, after their reset
    for (std::size_t k = b; k < e; ++k)
        weight[styleOf(k)] = 0;
    for (std::size_t k = b; k < e; ++k)
        weight[styleOf(k)] += weightOf(k);
    std::uint8_t s = 0;
    Ns w = -1;
    for (std::size_t k = b; k < e; ++k) {
        const bool better = weight[styleOf(k)] > w;
        w = better ? weight[styleOf(k)] : w;
        s = better ? styleOf(k) : s;
    }
    return s;
}
} // namespace

std::uint8_t EventTrack::dominantStyle(std::size_t i, std::size_t j) const {
    if (j <= i)
        return 0;
    if (j - i < 2 * std::size_t{kFanout} || lod_.empty()) // exact: every event votes end - start + 1
        return dominantOfFew(
            i, j, [this](std::size_t k) { return style_[k]; },
            [this](std::size_t k) { return end_[k] - start_[k] + 1; });
    // Largest level whose aligned blocks fit at least once inside [i, j).
    std::size_t level = 0, block = kFanout;
    while (level + 1 < lod_.size() && 2 * block * kFanout <= j - i) {
        ++level;
        block *= kFanout;
    }
    const std::vector<std::uint8_t>& lod = lod_[level];
    const std::size_t b0 = (i + block - 1) / block, b1 = std::min(j / block, lod.size());
    if (b1 <= b0)
        return 0;
    const auto blockWeight = [this, block](std::size_t b) { return busy(b * block, (b + 1) * block) + 1; };
    // Always fewer than 32 blocks: fewer than 2 * kFanout of the chosen level fit in [i, j), and the
    // top level has fewer than kFanout. StyleVotes stays as the general case.
    if (b1 - b0 < 32)
        return dominantOfFew(
            b0, b1, [&lod](std::size_t b) { return lod[b]; }, blockWeight);
    StyleVotes votes;
    for (std::size_t b = b0; b < b1; ++b)
        votes.add(lod[b], blockWeight(b));
    return votes.best();
}

void EventTrack::buildSpans(const TimeAxis& axis, std::vector<DrawSpan>& out) const {
    const std::int64_t width = axis.width();
    const std::size_t firstOut = out.size();
    std::size_t i = firstEndingAfter(axis.start());
    const std::size_t hi = firstStartingAtOrAfter(axis.end());
    auto clampCol = [width](std::int64_t c) {
        return static_cast<std::int32_t>(std::clamp<std::int64_t>(c, 0, width - 1));
    };
    constexpr Ns kNever = std::numeric_limits<Ns>::max();
    // The walk's column c0 (the clamped column of start(i)) and the first times of columns c0, c0 + 1
    // and c0 + 2 (t2 = kNever when c0 + 2 > width). By exactness of the axis, for any time t:
    //   column(t) >= c  <=>  t >= firstTimeOfColumn(c),
    // so every column test below is a comparison with t1 or t2. Columns only move right and, in a
    // dense view, the next group starts in column c0 + 1: shifting the window then costs a single
    // division per column.
    std::int32_t c0 = -1;
    Ns t0 = 0, t1 = 0, t2 = 0;
    auto firstTime = [&axis, width](std::int64_t c) {
        return c <= width ? axis.firstTimeOfColumn(c) : kNever;
    };
    while (i < hi) {
        const Ns s = start_[i];
        if (c0 >= 0 && s < t1) {
            // Still column c0: start(i) > the previous group's start, whose clamped column was c0.
        } else if (c0 >= 0 && s < t2) {
            // t1 <= s < t2: column c0 + 1 exactly (< width since s < axis.end()).
            ++c0;
            t0 = t1;
            t1 = t2;
            t2 = firstTime(c0 + 2);
        } else {
            c0 = clampCol(axis.column(s));
            t0 = axis.firstTimeOfColumn(c0);
            t1 = axis.firstTimeOfColumn(c0 + 1);
            t2 = firstTime(c0 + 2);
        }
        // Event i covers columns [c0, clampCol(column(end - 1))]; it reaches column c0 + 2 iff that
        // column is in view and end - 1 >= t2.
        const Ns e = effectiveEnd(i);
        if (c0 + 2 < width && e - 1 >= t2) { // wide: at least three columns, drawn on its own
            out.push_back(
                {c0, clampCol(axis.column(e - 1)), static_cast<std::uint32_t>(i), 1, style_[i], 4, false});
            ++i;
            continue;
        }
        // Narrow: group every event starting in column c0, i.e. before t1 (start(i) < t1 and starts
        // increase, so the search starts at i + 1). All but the last of them end no later than the last
        // one starts (invariant), i.e. inside column c0. The last one starts in c0 too, so it is wide
        // iff it reaches c0 + 2; it is then left to the next iteration (same c0, drawn on its own).
        const std::size_t k = c0 + 1 >= width ? hi : gallopStartingAtOrAfter(i + 1, hi, t1);
        std::size_t groupEnd = k;
        Ns lastEnd = k - 1 == i ? e : effectiveEnd(k - 1);
        if (k - 1 > i && c0 + 2 < width && lastEnd - 1 >= t2) {
            groupEnd = k - 1;
            lastEnd = effectiveEnd(k - 2);
        }
        // Every event of the group is narrow, so the group ends in column c0 or c0 + 1 (clamped).
        const bool spills = c0 + 1 < width && lastEnd - 1 >= t1;
        const std::int32_t x1 = spills ? c0 + 1 : c0;
        if (groupEnd - i == 1) {
            out.push_back({c0, x1, static_cast<std::uint32_t>(i), 1, style_[i], 4, false});
        } else {
            // Coverage = clamp(1 + floor(4 * busy / spanNs), 1, 4) without a division: how many times
            // (up to 3) spanNs fits in 4 * busy. Both are >= 0, so the subtractions cannot overflow.
            const Ns spanNs = std::max<Ns>(1, (spills ? t2 : t1) - t0);
            Ns rest = 4 * busy(i, groupEnd);
            std::uint8_t cov = 1;
            while (cov < 4 && rest >= spanNs) {
                rest -= spanNs;
                ++cov;
            }
            out.push_back({c0, x1, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(groupEnd - i),
                           dominantStyle(i, groupEnd), cov, true});
        }
        i = groupEnd;
    }
    // A span whose last column is the next span's first column gives that column up: the next span
    // covers it. This keeps every column at <= 2 spans (a narrow group and a wide event starting in it).
    for (std::size_t s = firstOut; s + 1 < out.size(); ++s)
        if (out[s + 1].x0 == out[s].x1 && out[s].x1 > out[s].x0)
            --out[s].x1;
}

std::int64_t EventTrack::hitTest(const TimeAxis& axis, std::int64_t column, Ns at) const {
    const Ns t0 = axis.firstTimeOfColumn(column), t1 = axis.firstTimeOfColumn(column + 1);
    const std::size_t lo = firstEndingAfter(t0);
    const std::size_t hi = firstStartingAtOrAfter(t1);
    if (lo >= hi)
        return -1;
    if (at >= t0 && at < t1) {
        const std::size_t k = firstEndingAfter(at);
        if (k < hi && start_[k] <= at)
            return static_cast<std::int64_t>(k);
    }
    std::size_t best = lo;
    const std::size_t stop = std::min(hi, lo + 256);
    for (std::size_t k = lo + 1; k < stop; ++k)
        if (end_[k] - start_[k] > end_[best] - start_[best])
            best = k;
    return static_cast<std::int64_t>(best);
}

std::size_t EventTrack::memoryBytes() const {
    std::size_t b = sizeof(*this) + start_.capacity() * sizeof(Ns) + end_.capacity() * sizeof(Ns) +
                    busy_.capacity() * sizeof(Ns) + name_.capacity() * 4 + style_.capacity() +
                    kind_.capacity();
    for (const auto& l : lod_)
        b += l.capacity() + sizeof(std::vector<std::uint8_t>); // the level's bytes and its vector
    return b;
}

} // namespace cnp::timeline
