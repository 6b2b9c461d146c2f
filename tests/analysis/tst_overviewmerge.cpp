// A run's timeline overview built part by part (timeline/OverviewMerge.h) against the overview of the whole
// run, on synthetic traces split by rank. Expectations are computed here from the full (unmerged) model:
// its lanes' events grouped by the test's own floor division on a power-of-two grid found by doubling.
// Exact: rows, groups, steps, span and every merged event's start and end (the grids nest); a merged
// event's name, style and kind are those of one of its bucket's raw events, and exactly that event's when
// it is alone in the bucket. The grid helpers (timeline/OverviewGrid.h) against hand-computed numbers.
#include "timeline/OverviewGrid.h"
#include "timeline/OverviewMerge.h"
#include "timeline/TimelineBuilder.h"
#include "timeline/TimelineOverview.h"

#include <QtTest>

#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace cnp;
using namespace cnp::timeline;

namespace {

// A synthetic run: rank r's events lie in [base + r * length / 2, + length * (1 + spread * r)] (and a
// little beyond: event durations), so a rank's span is well below the run's when there are several.
struct Shape {
    int ranks = 2;
    Ns base = 0;
    Ns length = 900'000;
    double spread = 0;
    int eventsPerStream = 120;
};
using Parts = std::vector<std::vector<int>>; // the ranks of each part, in order; {} = an empty part

class Gen {
public:
    Gen(TraceData& t, Ns start, Ns length) : t_(t), start_(start), len_(length) {}
    Ns at() { return start_ + static_cast<Ns>(rng_() % static_cast<std::uint64_t>(len_)); }
    // Mostly short (may be 0), one in ten long enough to overlap the next events (more lanes).
    Ns dur() {
        const auto d = static_cast<Ns>(rng_() % static_cast<std::uint64_t>(len_ / 400));
        return rng_() % 10 == 0 ? 40 * d : d;
    }
    StringId pick(const std::vector<std::string>& texts) {
        return t_.strings.intern(texts[rng_() % texts.size()]);
    }
    std::uint64_t next() { return rng_(); }

private:
    TraceData& t_;
    Ns start_, len_;
    std::mt19937_64 rng_{42};
};

void addGpu(TraceData& t, Gen& g, std::int32_t rank, int n) {
    const std::vector<std::string> names = {"k0", "k1", "k2", "gemm_big", "nccl_all_reduce", "k5"};
    const std::vector<std::string> categories = {"gemm", "communication", "elementwise", ""};
    const std::vector<std::pair<std::int32_t, std::int64_t>> streams =
        rank % 2 ? std::vector<std::pair<std::int32_t, std::int64_t>>{{0, 7}, {0, 9}, {1, 3}}
                 : std::vector<std::pair<std::int32_t, std::int64_t>>{{0, 7}, {0, 9}};
    for (const auto& [device, stream] : streams)
        for (int i = 0; i < n; ++i) {
            KernelEvent k;
            k.rank = rank;
            k.device = device;
            k.stream = stream;
            k.start = g.at();
            k.end = k.start + g.dur();
            k.name = g.pick(names);
            k.category = g.pick(categories);
            t.kernels.push_back(k);
        }
    for (int i = 0; i < n / 10; ++i) {
        MemcpyEvent c; // no name: the builder names it "Memcpy HtoD"
        c.rank = rank;
        c.stream = 7;
        c.kind = MemcpyKind::HtoD;
        c.start = g.at();
        c.end = c.start + g.dur();
        t.memcpys.push_back(c);
        GpuAnnotation a;
        a.rank = rank;
        a.start = g.at();
        a.end = a.start + 4 * g.dur();
        a.name = g.pick({"fwd", "bwd"});
        t.gpuAnnotations.push_back(a);
    }
}

void addCpu(TraceData& t, Gen& g, std::int32_t rank, int n) {
    for (int i = 0; i < n; ++i) {
        ApiCall a;
        a.rank = rank;
        a.pid = 100 + rank;
        a.tid = 1;
        a.kind = g.next() % 2 ? ApiKind::Runtime : ApiKind::Driver;
        a.start = g.at();
        a.end = a.start + g.dur() / 4;
        a.name = g.pick({"cudaLaunchKernel", "cuMemcpy"});
        t.apiCalls.push_back(a);
    }
    for (int i = 0; i < n / 4; ++i) { // a parent and two nested children: lanes 0 and 1 (and more on overlap)
        const Ns s = g.at(), d = 4 * g.dur() + 8;
        const std::pair<Ns, Ns> spans[] = {{s, s + d}, {s + d / 4, s + d / 2}, {s + d / 2, s + 3 * d / 4}};
        for (const auto& [b, e] : spans) {
            CpuRange r;
            r.rank = rank;
            r.pid = 100 + rank;
            r.tid = 2;
            r.kind = b == s ? CpuRangeKind::UserAnnotation : CpuRangeKind::CpuOp;
            r.start = b;
            r.end = e;
            r.name = g.pick({"aten::mm", "aten::add", "forward"});
            t.cpuRanges.push_back(r);
        }
    }
}

void addStepsAndCounters(TraceData& t, std::int32_t rank, Ns start, Ns length) {
    for (int i = 0; i < 3; ++i) {
        StepRange s;
        s.rank = rank;
        s.index = i;
        s.name = t.strings.intern("ProfilerStep#" + std::to_string(i));
        s.cpuStart = start + i * (length / 3);
        s.cpuEnd = s.cpuStart + length / 3 - 1;
        s.gpuStart = i == 2 ? -1 : s.cpuStart + 10; // the last step found no GPU work
        s.gpuEnd = i == 2 ? -1 : s.cpuEnd;
        t.steps.push_back(s);
    }
    // Dense enough that buckets hold several samples: a saw tooth with a dip, so lowest, highest and last
    // differ.
    for (int k = 0; k < 200; ++k)
        t.counters.push_back({start + k * (length / 200), (k % 7) * 1.5 - (k % 13 == 5 ? 9 : 0) + rank, rank,
                              0, t.strings.intern("memory")});
}

TraceData makeTrace(const Shape& s) {
    TraceData t;
    for (int r = 0; r < s.ranks; ++r) {
        RankInfo info;
        info.rank = r;
        info.host = "host" + std::to_string(r);
        t.ranks.push_back(info);
        const Ns start = s.base + r * (s.length / 2);
        const auto length = static_cast<Ns>(static_cast<double>(s.length) * (1 + s.spread * r));
        Gen g(t, start, length);
        addGpu(t, g, r, s.eventsPerStream);
        addCpu(t, g, r, s.eventsPerStream);
        addStepsAndCounters(t, r, start, length);
    }
    return t;
}

// The events of `ranks`, with a string table of their own whose ids differ from the whole trace's.
TraceData subset(const TraceData& t, const std::vector<int>& ranks, std::size_t part) {
    TraceData p;
    p.strings.intern("only in part " + std::to_string(part));
    const std::set<int> in(ranks.begin(), ranks.end());
    const auto id = [&](StringId s) { return p.strings.intern(t.strings.at(s)); };
    const auto copy = [&](const auto& from, auto& to, auto&& fix) {
        for (auto e : from)
            if (in.count(e.rank)) {
                fix(e);
                to.push_back(e);
            }
    };
    const auto name = [&](auto& e) { e.name = id(e.name); };
    copy(t.ranks, p.ranks, [](RankInfo&) {});
    copy(t.kernels, p.kernels, [&](KernelEvent& k) {
        k.name = id(k.name);
        k.category = id(k.category);
    });
    copy(t.memcpys, p.memcpys, name);
    copy(t.gpuAnnotations, p.gpuAnnotations, name);
    copy(t.apiCalls, p.apiCalls, name);
    copy(t.cpuRanges, p.cpuRanges, name);
    copy(t.steps, p.steps, name);
    copy(t.counters, p.counters, name);
    return p;
}

TimelineModel mergedOverview(const TraceData& whole, const Parts& parts, int buckets) {
    TimelineModel m;
    for (std::size_t k = 0; k < parts.size(); ++k)
        appendOverviewPart(
            m, makeOverview(TimelineBuilder::fromTrace(subset(whole, parts[k], k), {}, BusyRows::Always),
                            buckets));
    finishOverview(m, buckets);
    return m;
}

// The smallest power of two w with w * buckets >= span (at least 1), by doubling.
Ns gridWidth(Ns span, int buckets) {
    Ns w = 1;
    while (w * buckets < span)
        w *= 2;
    return w;
}

Ns floorDiv(Ns t, Ns w) {
    const Ns q = t / w;
    return t % w != 0 && t < 0 ? q - 1 : q;
}

// One bucket's raw events: the merged event must span [start, end) and take one of their names/styles/kinds.
struct Bucket {
    Ns start = 0, end = 0;
    std::size_t events = 0;
    std::set<std::string> names, styles;
    std::set<EventKind> kinds;
};

std::vector<Bucket> bucketsOf(const EventTrack& raw, const TimelineModel& full, Ns width) {
    std::vector<Bucket> out;
    Ns current = 0;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (out.empty() || floorDiv(raw.start(i), width) != current) {
            current = floorDiv(raw.start(i), width);
            out.push_back({raw.start(i), 0, 0, {}, {}, {}});
        }
        Bucket& b = out.back();
        b.end = std::max(raw.end(i), raw.start(i) + 1); // the last event's effective end
        ++b.events;
        b.names.insert(full.names[raw.name(i)]);
        b.styles.insert(full.styles[raw.style(i)]);
        b.kinds.insert(raw.kind(i));
    }
    return out;
}

// The first difference between a merged lane and the buckets of its raw lane ("" when none).
std::string laneDiff(const EventTrack& got, const TimelineModel& m, const std::vector<Bucket>& want) {
    std::ostringstream d;
    if (got.size() != want.size())
        d << "events " << got.size() << " != " << want.size();
    for (std::size_t i = 0; d.tellp() == 0 && i < got.size(); ++i) {
        const Bucket& b = want[i];
        const std::string name = m.names[got.name(i)], style = m.styles[got.style(i)];
        if (got.start(i) != b.start || got.end(i) != b.end)
            d << "event " << i << " [" << got.start(i) << ", " << got.end(i) << ") != [" << b.start << ", "
              << b.end << ")";
        else if (!b.names.count(name) || !b.styles.count(style) || !b.kinds.count(got.kind(i)))
            d << "event " << i << " name " << name << " / style " << style << " not of its bucket";
        else if (b.events == 1 && (*b.names.begin() != name || *b.styles.begin() != style))
            d << "event " << i << " alone in its bucket changed";
    }
    return d.str();
}

// The samples of `raw` an overview keeps: per bucket (by floorDiv), the indices of its lowest, highest and
// last sample, lowest and highest the first of equals, each index once, in order.
CounterSeries counterBuckets(const CounterSeries& raw, Ns width) {
    std::map<Ns, std::vector<std::size_t>> byBucket;
    for (std::size_t i = 0; i < raw.ts.size(); ++i)
        byBucket[floorDiv(raw.ts[i], width)].push_back(i);
    CounterSeries out;
    out.minValue = raw.minValue;
    out.maxValue = raw.maxValue;
    for (const auto& [bucket, idx] : byBucket) {
        std::set<std::size_t> kept{idx.back()};
        kept.insert(*std::min_element(idx.begin(), idx.end(),
                                      [&](auto a, auto b) { return raw.value[a] < raw.value[b]; }));
        kept.insert(*std::max_element(idx.begin(), idx.end(),
                                      [&](auto a, auto b) { return raw.value[a] < raw.value[b]; }));
        for (std::size_t i : kept) {
            out.ts.push_back(raw.ts[i]);
            out.value.push_back(raw.value[i]);
        }
    }
    return out;
}

// `a` (an overview's row) against `b` (the full model's), whose counter is cut to buckets of `width`.
std::string rowHeaderDiff(const TimelineRow& a, const TimelineRow& b, Ns width) {
    const CounterSeries want = counterBuckets(b.counter, width);
    const bool same = a.kind == b.kind && a.label == b.label && a.group == b.group && a.rank == b.rank &&
                      a.device == b.device && a.stream == b.stream && a.pid == b.pid && a.tid == b.tid &&
                      a.lanes.size() == b.lanes.size() && a.counter.ts == want.ts &&
                      a.counter.value == want.value && a.counter.minValue == b.counter.minValue &&
                      a.counter.maxValue == b.counter.maxValue;
    return same ? "" : "row " + a.label + " (rank " + std::to_string(a.rank) + ") differs from " + b.label;
}

std::string tablesDiff(const TimelineModel& got, const TimelineModel& full) {
    if (got.runStart != full.runStart || got.runEnd != full.runEnd)
        return "span";
    if (got.groups.size() != full.groups.size())
        return "group count";
    for (std::size_t g = 0; g < got.groups.size(); ++g) {
        const TimelineGroup &a = got.groups[g], &b = full.groups[g];
        if (a.label != b.label || a.parent != b.parent || a.depth != b.depth || a.rank != b.rank ||
            a.collapsed != b.collapsed)
            return "group " + std::to_string(g);
    }
    if (got.steps.size() != full.steps.size())
        return "step count";
    for (std::size_t s = 0; s < got.steps.size(); ++s) {
        const StepRange &a = got.steps[s], &b = full.steps[s];
        if (a.rank != b.rank || a.index != b.index || got.names[a.name] != full.names[b.name] ||
            a.cpuStart != b.cpuStart || a.cpuEnd != b.cpuEnd || a.gpuStart != b.gpuStart ||
            a.gpuEnd != b.gpuEnd)
            return "step " + std::to_string(s);
    }
    return got.rows.size() == full.rows.size() ? "" : "row count";
}

// The first way `got` is not the overview of `full` on `buckets` buckets ("" when it is).
std::string overviewDiff(const TimelineModel& got, const TimelineModel& full, int buckets) {
    std::string d = tablesDiff(got, full);
    const Ns width = gridWidth(full.runEnd - full.runStart, buckets);
    for (std::size_t r = 0; d.empty() && r < got.rows.size(); ++r) {
        d = rowHeaderDiff(got.rows[r], full.rows[r], width);
        for (std::size_t l = 0; d.empty() && l < got.rows[r].lanes.size(); ++l) {
            d = laneDiff(got.rows[r].lanes[l], got, bucketsOf(full.rows[r].lanes[l], full, width));
            d = d.empty() ? d : got.rows[r].label + " lane " + std::to_string(l) + ": " + d;
        }
    }
    return d;
}

// Every event's name, style and kind as text, row by row and lane by lane (ids differ between models).
std::vector<std::string> eventLabels(const TimelineModel& m) {
    std::vector<std::string> out;
    for (const auto& r : m.rows)
        for (const auto& l : r.lanes)
            for (std::size_t i = 0; i < l.size(); ++i)
                out.push_back(m.names[l.name(i)] + "|" + m.styles[l.style(i)] + "|" +
                              std::to_string(static_cast<int>(l.kind(i))));
    return out;
}

int countKind(const TimelineModel& m, RowKind kind) {
    return static_cast<int>(
        std::count_if(m.rows.begin(), m.rows.end(), [&](const auto& r) { return r.kind == kind; }));
}

} // namespace

Q_DECLARE_METATYPE(Shape)
Q_DECLARE_METATYPE(Parts)

class TestOverviewMerge : public QObject {
    Q_OBJECT

private slots:
    void bucketWidth_data() {
        QTest::addColumn<Ns>("start");
        QTest::addColumn<Ns>("end");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<Ns>("width");
        constexpr Ns kMin = std::numeric_limits<Ns>::min(), kMax = std::numeric_limits<Ns>::max();
        QTest::newRow("empty span") << Ns(5) << Ns(5) << 8192 << Ns(1);
        QTest::newRow("span = buckets") << Ns(0) << Ns(8192) << 8192 << Ns(1);
        QTest::newRow("span = buckets + 1") << Ns(0) << Ns(8193) << 8192 << Ns(2);
        QTest::newRow("span = 2 buckets") << Ns(0) << Ns(16384) << 8192 << Ns(2);
        QTest::newRow("span = 2 buckets + 1") << Ns(0) << Ns(16385) << 8192 << Ns(4);
        QTest::newRow("across zero: ceil(10 / 4) = 3 -> 4") << Ns(-5) << Ns(5) << 4 << Ns(4);
        // 1e9 / 8192 = 122070.3 -> 122071 -> 2^17.
        QTest::newRow("epoch ns") << Ns(1'700'000'000'000'000'000) << Ns(1'700'000'001'000'000'000) << 8192
                                  << Ns(131072);
        QTest::newRow("whole clock, one bucket: capped at 2^62") << kMin << kMax << 1 << (Ns(1) << 62);
        QTest::newRow("buckets < 1 taken as 1") << Ns(0) << Ns(100) << 0 << Ns(128);
    }
    void bucketWidth() {
        QFETCH(Ns, start);
        QFETCH(Ns, end);
        QFETCH(int, buckets);
        QFETCH(Ns, width);
        QCOMPARE(overviewBucketWidth(start, end, buckets), width);
    }

    void bucketStart_data() {
        QTest::addColumn<Ns>("t");
        QTest::addColumn<Ns>("width");
        QTest::addColumn<Ns>("first");
        QTest::newRow("zero") << Ns(0) << Ns(4) << Ns(0);
        QTest::newRow("inside") << Ns(7) << Ns(4) << Ns(4);
        QTest::newRow("on a boundary") << Ns(8) << Ns(4) << Ns(8);
        QTest::newRow("-1 rounds down") << Ns(-1) << Ns(4) << Ns(-4);
        QTest::newRow("negative boundary") << Ns(-4) << Ns(4) << Ns(-4);
        QTest::newRow("-5") << Ns(-5) << Ns(4) << Ns(-8);
        QTest::newRow("width 1") << Ns(-3) << Ns(1) << Ns(-3);
        QTest::newRow("int64 min") << std::numeric_limits<Ns>::min() << Ns(1024)
                                   << std::numeric_limits<Ns>::min();
        QTest::newRow("int64 max") << std::numeric_limits<Ns>::max() << Ns(1024)
                                   << std::numeric_limits<Ns>::max() - 1023;
    }
    void bucketStart() {
        QFETCH(Ns, t);
        QFETCH(Ns, width);
        QFETCH(Ns, first);
        QCOMPARE(bucketStartOf(t, width), first);
    }

    // The last bucket of the clock has no next bucket: its events still merge into one.
    void lastBucketOfTheClock() {
        constexpr Ns kMax = std::numeric_limits<Ns>::max();
        EventTrack lane;
        lane.append(kMax - 100, kMax - 90, 1, 0, EventKind::Kernel);
        lane.append(kMax - 50, kMax - 10, 2, 1, EventKind::Kernel);
        lane.finish();
        const EventTrack m = mergeLanePerBucket(lane, 1024);
        QCOMPARE(m.size(), std::size_t(1));
        QCOMPARE(m.start(0), kMax - 100);
        QCOMPARE(m.end(0), kMax - 10);
        QCOMPARE(m.name(0), std::uint32_t(2)); // the longer one
    }

    // Ids move to into's tables, groups past into's, steps keep their names as text; the span widens.
    void appendRemapsIds() {
        TimelineModel into, part;
        into.runName = "run";
        into.runStart = 100;
        into.runEnd = 200;
        into.names = {"", "a", "b"};
        into.styles = {"", "gemm"};
        into.groups = {{"Rank 0", -1, 0, 0, false}, {"GPU 0", 0, 1, 0, false}};
        into.rows.push_back(TimelineRow{RowKind::Steps, "Steps", 0, 0, -1, -1, 0, 0, {}, {}});
        part.runName = "ignored";
        part.runStart = 50;
        part.runEnd = 150;
        part.names = {"", "b", "c"};
        part.styles = {"", "memory", "gemm"};
        part.groups = {{"Rank 1", -1, 0, 1, false}, {"GPU 0", 0, 1, 1, false}};
        part.steps = {StepRange{1, 0, 2, 60, 70, -1, -1}};
        TimelineRow row{RowKind::GpuStream, "Stream 7", 1, 1, 0, 7, 0, 0, {}, {}};
        row.lanes.emplace_back();
        row.lanes[0].append(60, 70, 1, 2, EventKind::Kernel); // "b", "gemm"
        row.lanes[0].append(80, 90, 2, 1, EventKind::Memcpy); // "c", "memory"
        row.lanes[0].finish();
        part.rows.push_back(std::move(row));
        appendOverviewPart(into, std::move(part));
        QCOMPARE(into.runName, std::string("run"));
        QCOMPARE(into.runStart, Ns(50));
        QCOMPARE(into.runEnd, Ns(200));
        QCOMPARE(into.names, (std::vector<std::string>{"", "a", "b", "c"}));
        QCOMPARE(into.styles, (std::vector<std::string>{"", "gemm", "memory"}));
        QCOMPARE(into.groups.size(), std::size_t(4));
        QCOMPARE(into.groups[2].parent, -1);
        QCOMPARE(into.groups[3].parent, 2);
        QCOMPARE(into.rows[1].group, 3);
        const EventTrack& lane = into.rows[1].lanes[0];
        QCOMPARE(lane.name(0), std::uint32_t(2));
        QCOMPARE(lane.style(0), std::uint8_t(1));
        QCOMPARE(lane.name(1), std::uint32_t(3));
        QCOMPARE(lane.style(1), std::uint8_t(2));
        QCOMPARE(lane.dominantStyle(0, 2), std::uint8_t(1)); // tie broken by the first event, as before
        QCOMPARE(into.steps.size(), std::size_t(1));
        QCOMPARE(into.steps[0].name, StringId(3));
    }

    void mergedPartsEqualWholeOverview_data() {
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<Parts>("parts");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<bool>("finer"); // some part's grid is finer than the run's (checked)
        QTest::newRow("2 ranks, a part each") << Shape{2} << Parts{{0}, {1}} << 64 << true;
        QTest::newRow("3 ranks, 1 + 2") << Shape{3} << Parts{{0}, {1, 2}} << 64 << true;
        QTest::newRow("3 ranks, one part") << Shape{3} << Parts{{0, 1, 2}} << 64 << false;
        QTest::newRow("4 ranks, a part each: busy rows go")
            << Shape{4} << Parts{{0}, {1}, {2}, {3}} << 64 << true;
        QTest::newRow("6 ranks, 1 + 1 + 3 + 1: busy rows stay")
            << Shape{6} << Parts{{0}, {1}, {2, 3, 4}, {5}} << 64 << true;
        QTest::newRow("6 ranks, 5 + 1: a part collapsed its own")
            << Shape{6} << Parts{{0, 1, 2, 3, 4}, {5}} << 64 << true;
        QTest::newRow("6 ranks, one part") << Shape{6} << Parts{{0, 1, 2, 3, 4, 5}} << 64 << false;
        QTest::newRow("empty parts first, between, last")
            << Shape{3} << Parts{{}, {0}, {}, {1, 2}, {}} << 64 << true;
        QTest::newRow("ranks of different spans")
            << Shape{5, 0, 1'000'000, 3.0} << Parts{{0}, {1, 2}, {3}, {4}} << 64 << true;
        QTest::newRow("negative times") << Shape{3, -5'000'000'000} << Parts{{0}, {1}, {2}} << 64 << true;
        QTest::newRow("across zero") << Shape{3, -700'000, 1'000'000, 0.5} << Parts{{0}, {1}, {2}} << 64
                                     << true;
        QTest::newRow("epoch ns") << Shape{3, 1'700'000'000'123'456'789, 2'000'000'000, 1.0}
                                  << Parts{{0}, {1}, {2}} << 64 << true;
        QTest::newRow("default buckets") << Shape{3, 1'700'000'000'000'000'000, 50'000'000, 0.7, 2000}
                                         << Parts{{0}, {1, 2}} << 8192 << true;
        QTest::newRow("one bucket") << Shape{2} << Parts{{0}, {1}} << 1 << true;
    }
    void mergedPartsEqualWholeOverview() {
        QFETCH(Shape, shape);
        QFETCH(Parts, parts);
        QFETCH(int, buckets);
        QFETCH(bool, finer);
        const TraceData whole = makeTrace(shape);
        const TimelineModel full = TimelineBuilder::fromTrace(whole);
        const TimelineModel wholeOverview = makeOverview(full, buckets);
        const TimelineModel merged = mergedOverview(whole, parts, buckets);
        // The expectations themselves: the whole run's overview is the buckets of its raw events.
        const std::string wholeDiff = overviewDiff(wholeOverview, full, buckets);
        QVERIFY2(wholeDiff.empty(), wholeDiff.c_str());
        const std::string mergedDiff = overviewDiff(merged, full, buckets);
        QVERIFY2(mergedDiff.empty(), mergedDiff.c_str());
        // The case exercises the rebucketing: some part's grid is finer than the run's (test's own widths).
        bool partFiner = false;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            const TimelineModel p = TimelineBuilder::fromTrace(subset(whole, parts[k], k));
            partFiner |= !p.rows.empty() && gridWidth(p.runEnd - p.runStart, buckets) <
                                                gridWidth(full.runEnd - full.runStart, buckets);
        }
        QCOMPARE(partFiner, finer);
        QVERIFY(merged.eventCount() < full.eventCount()); // buckets did merge events
        QCOMPARE(countKind(merged, RowKind::GpuBusy), shape.ranks > 4 ? shape.ranks : 0);
        QCOMPARE(merged.eventCount(), wholeOverview.eventCount());
        // A single (non-empty) part is the whole run: then names, styles and kinds are equal too.
        const auto nonEmpty =
            std::count_if(parts.begin(), parts.end(), [](const auto& p) { return !p.empty(); });
        if (nonEmpty == 1)
            QCOMPARE(eventLabels(merged), eventLabels(wholeOverview));
    }

    // A counter keeps each bucket's lowest, highest and last sample (by hand, width 8), and merging the
    // kept samples again on a coarser grid (16) gives what the raw series gives there.
    void counterKeepsLowHighLast_data() {
        QTest::addColumn<Ns>("width");
        QTest::addColumn<std::vector<Ns>>("ts");
        QTest::addColumn<std::vector<double>>("values");
        QTest::newRow("width 8") << Ns{8} << std::vector<Ns>{-5, 3, 6, 9, 12, 25, 27}
                                 << std::vector<double>{1, 2, 8, 4, 1, 3, 3};
        QTest::newRow("width 16") << Ns{16} << std::vector<Ns>{-5, 6, 12, 25, 27}
                                  << std::vector<double>{1, 8, 1, 3, 3};
    }
    void counterKeepsLowHighLast() {
        QFETCH(Ns, width);
        QFETCH(std::vector<Ns>, ts);
        QFETCH(std::vector<double>, values);
        CounterSeries raw;
        raw.ts = {-5, 0, 3, 6, 9, 12, 25, 27};
        raw.value = {1, 5, 2, 8, 4, 1, 3, 3};
        raw.minValue = 1;
        raw.maxValue = 8;
        const CounterSeries once = mergeCounterPerBucket(raw, width);
        QCOMPARE(once.ts, ts);
        QCOMPARE(once.value, values);
        QCOMPARE(once.minValue, 1.0);
        QCOMPARE(once.maxValue, 8.0);
        const CounterSeries twice = mergeCounterPerBucket(mergeCounterPerBucket(raw, 8), width);
        QCOMPARE(twice.ts, ts);
        QCOMPARE(twice.value, values);
    }

    // Rebucketing an overview on its own span changes nothing, ids included.
    void rebucketOnOwnSpanIsIdentity_data() {
        QTest::addColumn<Shape>("shape");
        QTest::addColumn<int>("buckets");
        QTest::newRow("2 ranks") << Shape{2} << 64;
        QTest::newRow("6 ranks, negative") << Shape{6, -3'000'000'000} << 64;
        QTest::newRow("epoch ns, default buckets") << Shape{3, 1'700'000'000'000'000'000} << 8192;
    }
    void rebucketOnOwnSpanIsIdentity() {
        QFETCH(Shape, shape);
        QFETCH(int, buckets);
        const TimelineModel o = makeOverview(TimelineBuilder::fromTrace(makeTrace(shape)), buckets);
        TimelineModel again = o;
        rebucketOverview(again, buckets);
        QCOMPARE(again.rows.size(), o.rows.size());
        for (std::size_t r = 0; r < o.rows.size(); ++r)
            for (std::size_t l = 0; l < o.rows[r].lanes.size(); ++l) {
                const EventTrack &a = again.rows[r].lanes[l], &b = o.rows[r].lanes[l];
                QCOMPARE(a.size(), b.size());
                for (std::size_t i = 0; i < a.size(); ++i) {
                    QCOMPARE(a.start(i), b.start(i));
                    QCOMPARE(a.end(i), b.end(i));
                    QCOMPARE(a.name(i), b.name(i));
                    QCOMPARE(a.style(i), b.style(i));
                    QCOMPARE(a.kind(i), b.kind(i));
                }
            }
    }

    // Only parts without rows: nothing to show, an empty model.
    void onlyEmptyParts() {
        const TimelineModel m = mergedOverview(makeTrace(Shape{2}), Parts{{}, {}}, 64);
        QVERIFY(m.rows.empty());
        QVERIFY(m.groups.empty());
        QCOMPARE(m.runStart, Ns(0));
        QCOMPARE(m.runEnd, Ns(0));
    }
};

QTEST_GUILESS_MAIN(TestOverviewMerge)
#include "tst_overviewmerge.moc"
