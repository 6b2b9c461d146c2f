#include "timeline/EventTrack.h"

#include <algorithm>
#include <array>
#include <utility>

namespace cnp::timeline {

const char* toString(EventKind k) {
    switch (k) {
    case EventKind::Kernel:
        return "kernel";
    case EventKind::Memcpy:
        return "memcpy";
    case EventKind::Memset:
        return "memset";
    case EventKind::ApiCall:
        return "API call";
    case EventKind::CpuRange:
        return "CPU range";
    case EventKind::GpuAnnotation:
        return "GPU annotation";
    case EventKind::Step:
        return "step";
    }
    return "event";
}

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

std::uint8_t EventTrack::dominantStyle(std::size_t i, std::size_t j) const {
    StyleVotes votes;
    if (j <= i)
        return 0;
    if (j - i < 2 * kFanout || lod_.empty()) {
        for (std::size_t k = i; k < j; ++k)
            votes.add(style_[k], end_[k] - start_[k] + 1);
        return votes.best();
    }
    // Largest level whose aligned blocks fit at least once inside [i, j).
    std::size_t level = 0, block = kFanout;
    while (level + 1 < lod_.size() && 2 * block * kFanout <= j - i) {
        ++level;
        block *= kFanout;
    }
    const std::size_t b0 = (i + block - 1) / block, b1 = j / block;
    for (std::size_t b = b0; b < b1 && b < lod_[level].size(); ++b)
        votes.add(lod_[level][b], busy(b * block, (b + 1) * block) + 1);
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
    while (i < hi) {
        const std::int32_t c0 = clampCol(axis.column(start_[i]));
        const std::int32_t c1 = clampCol(axis.column(effectiveEnd(i) - 1));
        if (c1 - c0 >= 2) { // wide: at least three columns, drawn on its own
            out.push_back({c0, c1, static_cast<std::uint32_t>(i), 1, style_[i], 4, false});
            ++i;
            continue;
        }
        // Narrow: group every event starting in column c0. All but the last of them end no later
        // than the last one starts (invariant), i.e. inside column c0.
        std::size_t k =
            c0 + 1 >= width ? hi : std::min(hi, firstStartingAtOrAfter(axis.firstTimeOfColumn(c0 + 1)));
        k = std::max(k, i + 1);
        std::size_t groupEnd = k;
        if (k - 1 > i &&
            clampCol(axis.column(effectiveEnd(k - 1) - 1)) - clampCol(axis.column(start_[k - 1])) >= 2)
            groupEnd = k - 1; // the wide last one is drawn on its own by the next iteration
        const std::int32_t x1 = clampCol(axis.column(effectiveEnd(groupEnd - 1) - 1));
        if (groupEnd - i == 1) {
            out.push_back({c0, x1, static_cast<std::uint32_t>(i), 1, style_[i], 4, false});
        } else {
            const Ns spanNs = std::max<Ns>(1, axis.firstTimeOfColumn(x1 + 1) - axis.firstTimeOfColumn(c0));
            const Ns b = busy(i, groupEnd);
            const auto cov = static_cast<std::uint8_t>(std::clamp<Ns>(1 + (4 * b) / spanNs, 1, 4));
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
        b += l.capacity() + sizeof(l);
    return b;
}

} // namespace cnp::timeline
