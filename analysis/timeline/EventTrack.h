#pragma once
// One lane of a timeline row: events in flat, sorted arrays (structure of arrays).
// Invariant (established by RowBuilder's lane assignment): events are sorted by start and do not
// overlap, taking a zero-length event to occupy 1 ns:  effectiveEnd(i) <= start(i + 1).
// Hence effective ends are sorted too and every visibility query is a binary search, O(log n).
// Memory: 30 bytes per event (start 8, end 8, prefix busy sum 8, name 4, style 1, kind 1) plus a
// dominant-style level of detail of ~n/15 bytes.
#include "core/EventKind.h"
#include "core/TraceData.h"
#include "timeline/TimeAxis.h"

#include <cstdint>
#include <vector>

namespace cnp::timeline {

using cnp::EventKind;
using cnp::toString;

// One primitive of the draw list: inclusive pixel columns [x0, x1] of the view (clipped to it).
// count == 1 and merged == false: the single event `first`, drawn at its own size.
// merged == true: events [first, first + count) that each lie within at most two columns,
// drawn as one covered span coloured by their dominant style; `coverage` in 1..4 is the busy
// fraction of the span's time quantised to quarters (4 = at least 75 % busy).
struct DrawSpan {
    std::int32_t x0 = 0, x1 = 0;
    std::uint32_t first = 0, count = 0;
    std::uint8_t style = 0;
    std::uint8_t coverage = 4;
    bool merged = false;
};

class EventTrack {
public:
    void reserve(std::size_t n);
    // Appends one event; callers append in an order that keeps the invariant above.
    void append(Ns start, Ns end, std::uint32_t name, std::uint8_t style, EventKind kind);
    // Builds the prefix busy sums and the level of detail. O(n). Call once after the last append.
    void finish();
    // Moves every event's ids to another model's tables: name -> names[name], style -> styles[style]
    // (every id must index its map), then finish()es again (the level of detail holds styles). O(n).
    void remapIds(const std::vector<std::uint32_t>& names, const std::vector<std::uint8_t>& styles);

    std::size_t size() const { return start_.size(); }
    bool empty() const { return start_.empty(); }
    Ns start(std::size_t i) const { return start_[i]; }
    Ns end(std::size_t i) const { return end_[i]; }
    Ns effectiveEnd(std::size_t i) const { return end_[i] > start_[i] ? end_[i] : start_[i] + 1; }
    std::uint32_t name(std::size_t i) const { return name_[i]; }
    std::uint8_t style(std::size_t i) const { return style_[i]; }
    EventKind kind(std::size_t i) const { return static_cast<EventKind>(kind_[i]); }
    Ns firstStart() const { return start_.empty() ? 0 : start_.front(); }
    Ns lastEnd() const { return start_.empty() ? 0 : effectiveEnd(size() - 1); }

    // First i with effectiveEnd(i) > t (size() when none). O(log n).
    std::size_t firstEndingAfter(Ns t) const;
    // First i with start(i) >= t (size() when none). O(log n).
    std::size_t firstStartingAtOrAfter(Ns t) const;
    // First i in [from, hi) with start(i) >= t, hi when none (requires hi <= size()); equals
    // min(hi, max(from, firstStartingAtOrAfter(t))). An answer among the 16 events from `from` on is
    // counted without branches; beyond, a galloping search probes from + 1, + 3, + 7, ... until it
    // brackets the answer and bisects the bracket. O(log(i - from + 2)), reading memory near `from`
    // only (the view walk's searches are short hops from the previous column's events).
    std::size_t gallopStartingAtOrAfter(std::size_t from, std::size_t hi, Ns t) const;
    // Sum of end - start over events [i, j). O(1).
    Ns busy(std::size_t i, std::size_t j) const { return busy_[j] - busy_[i]; }
    // The style holding most busy time among events [i, j); exact for j - i < 32, else judged on
    // the largest aligned blocks inside the range. O(1) amortised (at most ~32 blocks looked at).
    std::uint8_t dominantStyle(std::size_t i, std::size_t j) const;

    // Appends the draw list of the events visible in `axis` to `out`.
    // Guarantees: every column that holds part of an event in [axis.start(), axis.end()) is inside
    // some span ("nothing disappears"); each column is covered by at most 2 spans; spans are in
    // increasing x0. Cost O(log n + min(visible events, 2 * width) * log(events per column)): the
    // walk gallops from one column's first event to the next's, and maps times to columns with about
    // one division per column visited.
    void buildSpans(const TimeAxis& axis, std::vector<DrawSpan>& out) const;

    // The event under column `column` of `axis`: the one containing time `at` when given
    // (at >= 0 on the axis's clock), else the longest event touching the column (scanning at most
    // 256 candidates). -1 when no event touches the column. O(log n).
    std::int64_t hitTest(const TimeAxis& axis, std::int64_t column, Ns at = -1) const;

    std::size_t memoryBytes() const;

private:
    static constexpr int kFanout = 16; // block size ratio between LOD levels

    std::vector<Ns> start_, end_;
    std::vector<Ns> busy_; // busy_[i] = sum of durations of events [0, i); size n + 1
    std::vector<std::uint32_t> name_;
    std::vector<std::uint8_t> style_, kind_;
    // lod_[k][b]: dominant style of events [b * 16^(k+1), (b + 1) * 16^(k+1)).
    std::vector<std::vector<std::uint8_t>> lod_;
};

} // namespace cnp::timeline
