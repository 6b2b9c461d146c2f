#include "metrics/StepAlignment.h"

#include "metrics/RunDiff.h"
#include "metrics/SequenceAlignment.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace cnp {

namespace {

// One stream's activities of one side: [first, past) of the sorted events.
struct StreamRange {
    std::int32_t device = 0;
    std::int64_t stream = 0;
    std::int32_t first = 0, past = 0;
    Ns firstStart = 0;
};

void sortEvents(std::vector<StepGpuEvent>& v) {
    std::sort(v.begin(), v.end(), [](const StepGpuEvent& x, const StepGpuEvent& y) {
        return std::tie(x.device, x.stream, x.start, x.end, x.name) <
               std::tie(y.device, y.stream, y.start, y.end, y.name);
    });
}

std::vector<StreamRange> streamsOf(const std::vector<StepGpuEvent>& v) {
    std::vector<StreamRange> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const auto& e = v[i];
        if (out.empty() || out.back().device != e.device || out.back().stream != e.stream)
            out.push_back(
                {e.device, e.stream, static_cast<std::int32_t>(i), static_cast<std::int32_t>(i), e.start});
        out.back().past = static_cast<std::int32_t>(i + 1);
    }
    return out;
}

// The first start and the span (last end − first start) of a step's activities; {0, 0} when none.
std::pair<Ns, Ns> startAndSpan(const std::vector<StepGpuEvent>& v) {
    if (v.empty())
        return {0, 0};
    Ns lo = v.front().start, hi = v.front().end;
    for (const auto& e : v)
        lo = std::min(lo, e.start), hi = std::max(hi, e.end);
    return {lo, hi - lo};
}

// Stream pairs: equal (device, stream) first, in that order; then the rest of each side by first use
// (first start, then id), the i-th of A with the i-th of B; then the unpaired. {index in A, index in B}.
std::vector<std::pair<int, int>> pairStreams(const std::vector<StreamRange>& a,
                                             const std::vector<StreamRange>& b) {
    std::vector<std::pair<int, int>> out;
    std::vector<char> usedA(a.size(), 0), usedB(b.size(), 0);
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) { // both sorted by (device, stream)
        const auto ka = std::make_pair(a[i].device, a[i].stream),
                   kb = std::make_pair(b[j].device, b[j].stream);
        if (ka == kb) {
            out.emplace_back(static_cast<int>(i), static_cast<int>(j));
            usedA[i++] = 1, usedB[j++] = 1;
        } else if (ka < kb) {
            ++i;
        } else {
            ++j;
        }
    }
    auto rest = [](const std::vector<StreamRange>& s, const std::vector<char>& used) {
        std::vector<int> r;
        for (std::size_t i = 0; i < s.size(); ++i)
            if (used[i] == 0)
                r.push_back(static_cast<int>(i));
        std::sort(r.begin(), r.end(), [&](int x, int y) {
            const auto& sx = s[static_cast<std::size_t>(x)];
            const auto& sy = s[static_cast<std::size_t>(y)];
            return std::tie(sx.firstStart, sx.device, sx.stream) <
                   std::tie(sy.firstStart, sy.device, sy.stream);
        });
        return r;
    };
    const auto ra = rest(a, usedA), rb = rest(b, usedB);
    const std::size_t common = std::min(ra.size(), rb.size());
    for (std::size_t k = 0; k < common; ++k)
        out.emplace_back(ra[k], rb[k]);
    for (std::size_t k = common; k < ra.size(); ++k)
        out.emplace_back(ra[k], -1);
    for (std::size_t k = common; k < rb.size(); ++k)
        out.emplace_back(-1, rb[k]);
    return out;
}

// Symbols for names (exact or normalised), shared by both sides.
class Symbols {
public:
    explicit Symbols(bool normalize) : normalize_(normalize) {}
    std::vector<std::int32_t> of(const std::vector<StepGpuEvent>& v) {
        std::vector<std::int32_t> out;
        out.reserve(v.size());
        for (const auto& e : v) {
            std::string key = normalize_ ? normaliseKernelName(e.name) : e.name;
            out.push_back(
                ids_.try_emplace(std::move(key), static_cast<std::int32_t>(ids_.size())).first->second);
        }
        return out;
    }

private:
    bool normalize_;
    std::unordered_map<std::string, std::int32_t> ids_;
};

} // namespace

const char* toString(AlignKind k) {
    switch (k) {
    case AlignKind::Matched:
        return "matched";
    case AlignKind::Added:
        return "added";
    case AlignKind::Removed:
        return "removed";
    }
    return "matched";
}

Ns StepAlignment::durationA(const AlignedItem& i) const {
    return i.a < 0 ? 0 : a[static_cast<std::size_t>(i.a)].end - a[static_cast<std::size_t>(i.a)].start;
}
Ns StepAlignment::durationB(const AlignedItem& i) const {
    return i.b < 0 ? 0 : b[static_cast<std::size_t>(i.b)].end - b[static_cast<std::size_t>(i.b)].start;
}
Ns StepAlignment::offsetA(const AlignedItem& i) const {
    return i.a < 0 ? 0 : a[static_cast<std::size_t>(i.a)].start - startA;
}
Ns StepAlignment::offsetB(const AlignedItem& i) const {
    return i.b < 0 ? 0 : b[static_cast<std::size_t>(i.b)].start - startB;
}
const std::string& StepAlignment::name(const AlignedItem& i) const {
    return i.a >= 0 ? a[static_cast<std::size_t>(i.a)].name : b[static_cast<std::size_t>(i.b)].name;
}

std::vector<ShiftJump> StepAlignment::largestJumps(std::size_t n) const {
    std::vector<ShiftJump> all;
    for (std::size_t l = 0; l < streams.size(); ++l) {
        ShiftJump j;
        j.stream = static_cast<std::int32_t>(l);
        const auto& items = streams[l].items;
        for (std::size_t k = 0; k < items.size(); ++k) {
            const auto& i = items[k];
            if (i.kind == AlignKind::Added) {
                ++j.added;
                j.addedTime += durationB(i);
            } else if (i.kind == AlignKind::Removed) {
                ++j.removed;
                j.removedTime += durationA(i);
            } else {
                j.item = static_cast<std::int32_t>(k);
                j.after = offsetB(i) - offsetA(i);
                all.push_back(j);
                j = ShiftJump{j.stream, 0, static_cast<std::int32_t>(k), j.after, j.after, 0, 0, 0, 0};
            }
        }
    }
    auto size = [](const ShiftJump& j) {
        return j.after > j.before ? j.after - j.before : j.before - j.after;
    };
    const auto keep = std::min(n, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                      [&](const ShiftJump& x, const ShiftJump& y) {
                          return std::make_tuple(-size(x), x.stream, x.item) <
                                 std::make_tuple(-size(y), y.stream, y.item);
                      });
    all.resize(keep);
    return all;
}

namespace {

// The unmatched items between two matches, removed and added merged by their offsets from the step starts.
void emitGap(const StepAlignment& s, std::int32_t a0, std::int32_t a1, std::int32_t b0, std::int32_t b1,
             std::vector<AlignedItem>& out) {
    while (a0 < a1 || b0 < b1) {
        const bool takeA = b0 >= b1 || (a0 < a1 && s.a[static_cast<std::size_t>(a0)].start - s.startA <=
                                                       s.b[static_cast<std::size_t>(b0)].start - s.startB);
        if (takeA)
            out.push_back({AlignKind::Removed, a0++, -1});
        else
            out.push_back({AlignKind::Added, -1, b0++});
    }
}

// The lane's figures from its items.
void summarise(const StepAlignment& s, AlignedStream& lane) {
    Ns lastEndA = s.startA, lastEndB = s.startB;
    for (const auto& i : lane.items) {
        const Ns da = s.durationA(i), db = s.durationB(i);
        lane.busyA += da;
        lane.busyB += db;
        if (i.a >= 0)
            lastEndA = std::max(lastEndA, s.a[static_cast<std::size_t>(i.a)].end);
        if (i.b >= 0)
            lastEndB = std::max(lastEndB, s.b[static_cast<std::size_t>(i.b)].end);
        switch (i.kind) {
        case AlignKind::Matched:
            ++lane.matched;
            (db >= da ? lane.slower : lane.faster) += db - da;
            lane.shift.push_back({s.offsetA(i), s.offsetB(i), s.offsetB(i) - s.offsetA(i)});
            break;
        case AlignKind::Added:
            ++lane.added;
            lane.addedTime += db;
            break;
        case AlignKind::Removed:
            ++lane.removed;
            lane.removedTime += da;
            break;
        }
    }
    lane.endShift = (lastEndB - s.startB) - (lastEndA - s.startA);
}

// Aligns one stream pair (either side may be absent) into `lane`.
void alignLane(const StepAlignment& s, const StreamRange* ra, const StreamRange* rb,
               const std::vector<std::int32_t>& symA, const std::vector<std::int32_t>& symB,
               const StepAlignmentOptions& options, AlignedStream& lane) {
    const std::int32_t a0 = ra ? ra->first : 0, a1 = ra ? ra->past : 0;
    const std::int32_t b0 = rb ? rb->first : 0, b1 = rb ? rb->past : 0;
    const std::vector<std::int32_t> sa(symA.begin() + a0, symA.begin() + a1),
        sb(symB.begin() + b0, symB.begin() + b1);
    const auto r = SequenceAlignment::align(sa, sb, options.maxWork);
    lane.truncated = r.truncated;
    std::int32_t pa = a0, pb = b0;
    for (const auto& [x, y] : r.matches) {
        emitGap(s, pa, a0 + x, pb, b0 + y, lane.items);
        lane.items.push_back({AlignKind::Matched, a0 + x, b0 + y});
        pa = a0 + x + 1;
        pb = b0 + y + 1;
    }
    emitGap(s, pa, a1, pb, b1, lane.items);
    summarise(s, lane);
}

} // namespace

StepAlignment StepAlignment::align(std::vector<StepGpuEvent> eventsA, std::vector<StepGpuEvent> eventsB,
                                   const StepAlignmentOptions& options) {
    StepAlignment s;
    s.a = std::move(eventsA);
    s.b = std::move(eventsB);
    sortEvents(s.a);
    sortEvents(s.b);
    std::tie(s.startA, s.totals.spanA) = startAndSpan(s.a);
    std::tie(s.startB, s.totals.spanB) = startAndSpan(s.b);
    Symbols symbols(options.normalize);
    const auto symA = symbols.of(s.a), symB = symbols.of(s.b);
    const auto streamsA = streamsOf(s.a), streamsB = streamsOf(s.b);
    for (const auto& [ia, ib] : pairStreams(streamsA, streamsB)) {
        const StreamRange* ra = ia >= 0 ? &streamsA[static_cast<std::size_t>(ia)] : nullptr;
        const StreamRange* rb = ib >= 0 ? &streamsB[static_cast<std::size_t>(ib)] : nullptr;
        AlignedStream lane;
        lane.deviceA = ra ? ra->device : -1;
        lane.streamA = ra ? ra->stream : -1;
        lane.deviceB = rb ? rb->device : -1;
        lane.streamB = rb ? rb->stream : -1;
        lane.pairedById = ra && rb && ra->device == rb->device && ra->stream == rb->stream;
        alignLane(s, ra, rb, symA, symB, options, lane);
        auto& t = s.totals;
        t.matched += lane.matched;
        t.added += lane.added;
        t.removed += lane.removed;
        t.slower += lane.slower;
        t.faster += lane.faster;
        t.addedTime += lane.addedTime;
        t.removedTime += lane.removedTime;
        s.streams.push_back(std::move(lane));
    }
    auto& t = s.totals;
    t.idle = (t.spanB - t.spanA) - (t.slower + t.faster + t.addedTime - t.removedTime);
    return s;
}

} // namespace cnp
