// Timeline data side: time <-> pixel mapping, lane assignment, draw lists ("nothing disappears",
// <= 2 primitives per column) and hit-testing at every zoom level, checked against brute force.
#include "timeline/EventTrack.h"
#include "timeline/TimeAxis.h"
#include "timeline/TimelineBuilder.h"

#include <QtTest>

#include <algorithm>
#include <limits>
#include <random>

using namespace cnp;
using namespace cnp::timeline;

namespace {

struct Ev {
    Ns s, e;
};

// Random non-overlapping events: gaps and durations spread over five orders of magnitude, some
// zero-length, so every zoom level sees both wide and sub-pixel events.
std::vector<Ev> randomLane(std::mt19937_64& rng, int n, Ns origin) {
    std::vector<Ev> ev;
    Ns t = origin;
    std::uniform_int_distribution<int> mag(0, 5);
    for (int i = 0; i < n; ++i) {
        auto draw = [&]() {
            Ns p = 1;
            for (int k = mag(rng); k > 0; --k)
                p *= 10;
            return static_cast<Ns>(rng() % static_cast<std::uint64_t>(p));
        };
        t += draw();
        const Ns d = (rng() % 10 == 0) ? 0 : draw();
        ev.push_back({t, t + d});
        t += std::max<Ns>(d, 1);
    }
    return ev;
}

EventTrack trackOf(const std::vector<Ev>& ev) {
    EventTrack tr;
    for (std::size_t i = 0; i < ev.size(); ++i)
        tr.append(ev[i].s, ev[i].e, 0, static_cast<std::uint8_t>(i % 3), EventKind::Kernel);
    tr.finish();
    return tr;
}

// Columns [c0, c1] of the view touched by event e (both clipped), or false when e is not in view.
bool columnsOf(const TimeAxis& ax, const Ev& e, std::int64_t& c0, std::int64_t& c1) {
    const Ns eff = std::max(e.e, e.s + 1);
    if (eff <= ax.start() || e.s >= ax.end())
        return false;
    c0 = std::max<std::int64_t>(0, ax.column(e.s));
    c1 = std::min<std::int64_t>(ax.width() - 1, ax.column(eff - 1));
    return true;
}

__extension__ typedef __int128 i128;

// Reference time <-> pixel mapping, always in 128 bits: column = floor((t - start) * width / span),
// firstTimeOfColumn = start + ceil(c * span / width).
i128 floorDivRef(i128 a, i128 b) {
    i128 q = a / b;
    if (a % b != 0 && (a < 0) != (b < 0))
        --q;
    return q;
}
std::int64_t columnRef(const TimeAxis& ax, Ns t) {
    return static_cast<std::int64_t>(
        floorDivRef((static_cast<i128>(t) - ax.start()) * ax.width(), ax.span()));
}
Ns firstTimeRef(const TimeAxis& ax, std::int64_t c) {
    // In 128 bits up to the end: ceil(c * span / width) alone may exceed int64 when the sum does not.
    return static_cast<Ns>(static_cast<i128>(ax.start()) -
                           floorDivRef(-(static_cast<i128>(c) * ax.span()), ax.width()));
}
// Whether TimeAxis can take its 64-bit path for t, respectively for column c.
bool columnFits64(const TimeAxis& ax, Ns t) {
    std::int64_t d, p;
    return !__builtin_sub_overflow(t, ax.start(), &d) &&
           !__builtin_mul_overflow(d, static_cast<std::int64_t>(ax.width()), &p);
}
bool firstTimeFits64(const TimeAxis& ax, std::int64_t c) {
    std::int64_t p;
    return !__builtin_mul_overflow(c, ax.span(), &p);
}

// The dominant style as documented, by brute force: every event votes end - start + 1 for its style
// when j - i < 32; else the aligned blocks of the largest level (16^(L+1) events, L + 1 < levels,
// 2 * 16^(L+2) <= j - i) inside [i, j) vote busy + 1 for the dominant style of their sub-blocks,
// recursively. Ties: the style voted for first. At most 32 distinct styles are counted.
std::uint8_t votesBest(const std::vector<std::pair<std::uint8_t, Ns>>& votes) {
    std::vector<std::pair<std::uint8_t, Ns>> acc;
    for (auto [s, w] : votes) {
        auto it =
            std::find_if(acc.begin(), acc.end(), [style = s](const auto& a) { return a.first == style; });
        if (it != acc.end())
            it->second += w;
        else if (acc.size() < 32)
            acc.push_back({s, w});
    }
    std::uint8_t best = acc.empty() ? 0 : acc[0].first;
    Ns w = -1;
    for (auto [s, sw] : acc)
        if (sw > w) {
            w = sw;
            best = s;
        }
    return best;
}
// Dominant style of the aligned block [b * 16^(level+1), (b + 1) * 16^(level+1)) as finish() builds it.
std::uint8_t blockStyleRef(const std::vector<Ev>& ev, const std::vector<std::uint8_t>& style, int level,
                           std::size_t b) {
    std::size_t block = 16;
    for (int l = 0; l < level; ++l)
        block *= 16;
    const std::size_t sub = block / 16;
    std::vector<std::pair<std::uint8_t, Ns>> votes;
    for (std::size_t c = 0; c < 16; ++c) {
        const std::size_t lo = b * block + c * sub;
        Ns busy = 0;
        for (std::size_t k = lo; k < lo + sub; ++k)
            busy += ev[k].e - ev[k].s;
        votes.push_back({level == 0 ? style[lo] : blockStyleRef(ev, style, level - 1, lo / sub), busy});
    }
    return votesBest(votes);
}
std::uint8_t dominantStyleRef(const std::vector<Ev>& ev, const std::vector<std::uint8_t>& style,
                              std::size_t i, std::size_t j) {
    if (j <= i)
        return 0;
    std::vector<std::pair<std::uint8_t, Ns>> votes;
    if (j - i < 32 || ev.size() < 16) {
        for (std::size_t k = i; k < j; ++k)
            votes.push_back({style[k], ev[k].e - ev[k].s + 1});
        return votesBest(votes);
    }
    int levels = 0;
    for (std::size_t block = 16; ev.size() >= block; block *= 16)
        ++levels;
    int level = 0;
    std::size_t block = 16;
    while (level + 1 < levels && 2 * block * 16 <= j - i) {
        ++level;
        block *= 16;
    }
    for (std::size_t b = (i + block - 1) / block; b < j / block && (b + 1) * block <= ev.size(); ++b) {
        Ns busy = 0;
        for (std::size_t k = b * block; k < (b + 1) * block; ++k)
            busy += ev[k].e - ev[k].s;
        votes.push_back({blockStyleRef(ev, style, level, b), busy + 1});
    }
    return votesBest(votes);
}

// The draw list as specified, walked the straightforward way: for each event, its columns by the
// 128-bit reference mapping; narrow events grouped by the column they start in, found by a binary
// search over the whole lane. Spans must equal EventTrack::buildSpans exactly.
std::vector<DrawSpan> buildSpansRef(const EventTrack& tr, const TimeAxis& ax) {
    std::vector<DrawSpan> out;
    const std::int64_t width = ax.width();
    std::size_t i = tr.firstEndingAfter(ax.start());
    const std::size_t hi = tr.firstStartingAtOrAfter(ax.end());
    auto clampCol = [width](std::int64_t c) {
        return static_cast<std::int32_t>(std::clamp<std::int64_t>(c, 0, width - 1));
    };
    while (i < hi) {
        const std::int32_t c0 = clampCol(columnRef(ax, tr.start(i)));
        const std::int32_t c1 = clampCol(columnRef(ax, tr.effectiveEnd(i) - 1));
        if (c1 - c0 >= 2) {
            out.push_back({c0, c1, static_cast<std::uint32_t>(i), 1, tr.style(i), 4, false});
            ++i;
            continue;
        }
        std::size_t k =
            c0 + 1 >= width ? hi : std::min(hi, tr.firstStartingAtOrAfter(firstTimeRef(ax, c0 + 1)));
        k = std::max(k, i + 1);
        std::size_t groupEnd = k;
        if (k - 1 > i &&
            clampCol(columnRef(ax, tr.effectiveEnd(k - 1) - 1)) - clampCol(columnRef(ax, tr.start(k - 1))) >=
                2)
            groupEnd = k - 1;
        const std::int32_t x1 = clampCol(columnRef(ax, tr.effectiveEnd(groupEnd - 1) - 1));
        if (groupEnd - i == 1) {
            out.push_back({c0, x1, static_cast<std::uint32_t>(i), 1, tr.style(i), 4, false});
        } else {
            const Ns spanNs = std::max<Ns>(1, firstTimeRef(ax, x1 + 1) - firstTimeRef(ax, c0));
            const Ns b = tr.busy(i, groupEnd);
            const auto cov = static_cast<std::uint8_t>(std::clamp<Ns>(1 + (4 * b) / spanNs, 1, 4));
            out.push_back({c0, x1, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(groupEnd - i),
                           tr.dominantStyle(i, groupEnd), cov, true});
        }
        i = groupEnd;
    }
    for (std::size_t s = 0; s + 1 < out.size(); ++s)
        if (out[s + 1].x0 == out[s].x1 && out[s].x1 > out[s].x0)
            --out[s].x1;
    return out;
}

// Random lane of n events whose gaps and durations are drawn from [0, 10^mag), mag in [0, maxMag]:
// small maxMag packs many events into each pixel column at every zoom level.
std::vector<Ev> denseLane(std::mt19937_64& rng, int n, Ns origin, int maxMag) {
    std::vector<Ev> ev;
    Ns t = origin;
    std::uniform_int_distribution<int> mag(0, maxMag);
    auto draw = [&]() {
        Ns p = 1;
        for (int k = mag(rng); k > 0; --k)
            p *= 10;
        return static_cast<Ns>(rng() % static_cast<std::uint64_t>(p));
    };
    for (int i = 0; i < n; ++i) {
        t += draw();
        const Ns d = (rng() % 8 == 0) ? 0 : draw();
        ev.push_back({t, t + d});
        t += std::max<Ns>(d, 1);
    }
    return ev;
}

} // namespace

class TestTimelineTrack : public QObject {
    Q_OBJECT
private slots:
    void columnMapping_data() {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("span");
        QTest::addColumn<int>("width");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("column");
        // By hand: column = floor((t - start) * width / span).
        QTest::newRow("origin") << qint64(1000) << qint64(1000) << 100 << qint64(1000) << qint64(0);
        QTest::newRow("last ns of col 0") << qint64(1000) << qint64(1000) << 100 << qint64(1009) << qint64(0);
        QTest::newRow("first ns of col 1")
            << qint64(1000) << qint64(1000) << 100 << qint64(1010) << qint64(1);
        QTest::newRow("right edge") << qint64(1000) << qint64(1000) << 100 << qint64(2000) << qint64(100);
        QTest::newRow("before") << qint64(1000) << qint64(1000) << 100 << qint64(999) << qint64(-1);
        QTest::newRow("3 ns over 7 px") << qint64(0) << qint64(16) << 7 << qint64(3) << qint64(1); // 21/16
        QTest::newRow("epoch ns, 1920 px") << qint64(1764460800000000000) << qint64(10000000) << 1920
                                           << qint64(1764460800005000000) << qint64(960);
    }
    void columnMapping() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(int, width);
        QFETCH(qint64, t);
        QFETCH(qint64, column);
        const TimeAxis ax(start, span, width);
        QCOMPARE(ax.column(t), column);
        // Exact inverse at column borders.
        const Ns f = ax.firstTimeOfColumn(column);
        QCOMPARE(ax.column(f), column);
        QCOMPARE(ax.column(f - 1), column - 1);
        QVERIFY(std::abs(ax.x(t) - static_cast<double>(t - start) * width / span) < 1e-9);
    }

    // The 64-bit fast path and the 128-bit path of TimeAxis against the 128-bit reference, on rows
    // chosen on both sides of the int64 overflow boundary of (t - start) * width and c * span, and
    // with negative offsets and columns (floor / ceil must round toward -inf / +inf).
    void columnMappingPaths_data() {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("span");
        QTest::addColumn<int>("width");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<bool>("fits64"); // expected path for column(t)
        const qint64 maxI = std::numeric_limits<qint64>::max(), minI = std::numeric_limits<qint64>::min();
        const qint64 epoch = 1764460800000000000;
        QTest::newRow("small") << qint64(1000) << qint64(1000) << 100 << qint64(1234) << true;
        QTest::newRow("negative offset, not a multiple")
            << qint64(1000) << qint64(1000) << 100 << qint64(995) << true;
        QTest::newRow("negative offset, a multiple")
            << qint64(1000) << qint64(1000) << 100 << qint64(990) << true;
        QTest::newRow("epoch, negative offset")
            << epoch << qint64(10000000) << 1920 << qint64(epoch - 123456789) << true;
        QTest::newRow("epoch, 7 px") << epoch << qint64(16) << 7 << qint64(epoch + 3) << true;
        QTest::newRow("width 1") << qint64(-5) << qint64(17) << 1 << qint64(40) << true;
        QTest::newRow("product just fits")
            << qint64(0) << qint64(1000000007) << 1920 << qint64(maxI / 1920) << true;
        QTest::newRow("product just overflows")
            << qint64(0) << qint64(1000000007) << 1920 << qint64(maxI / 1920 + 1) << false;
        QTest::newRow("negative product just fits")
            << qint64(0) << qint64(1000000007) << 1920 << qint64(minI / 1920) << true;
        QTest::newRow("negative product just overflows")
            << qint64(0) << qint64(1000000007) << 1920 << qint64(minI / 1920 - 1) << false;
        QTest::newRow("epoch start, far before")
            << epoch << qint64(1000000000) << 1920 << qint64(-epoch) << false; // t - start ~ -3.5e18
        QTest::newRow("span ~ int64, 7 px")
            << qint64(0) << qint64(4000000000000000000) << 7 << qint64(3900000000000000000) << false;
        QTest::newRow("span ~ int64, negative start")
            << qint64(-4000000000000000000) << qint64(8000000000000000000) << 3 << qint64(3999999999999999999)
            << false;
        QTest::newRow("span ~ int64, 1 px") << qint64(-4000000000000000000) << qint64(8000000000000000000)
                                            << 1 << qint64(3999999999999999999) << true;
    }
    void columnMappingPaths() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(int, width);
        QFETCH(qint64, t);
        QFETCH(bool, fits64);
        const TimeAxis ax(start, span, width);
        QCOMPARE(columnFits64(ax, t), fits64);
        const std::int64_t c = ax.column(t);
        QCOMPARE(c, columnRef(ax, t));
        for (std::int64_t d = -2; d <= 2; ++d)
            QCOMPARE(ax.column(t + d), columnRef(ax, t + d));
        // Columns around c, and their negatives: both paths of firstTimeOfColumn where c * span overflows.
        for (std::int64_t cc : {c - 1, c, c + 1, -c - 1, -c, std::int64_t(0), std::int64_t(width)}) {
            const i128 r =
                static_cast<i128>(ax.start()) - floorDivRef(-(static_cast<i128>(cc) * ax.span()), width);
            if (r > std::numeric_limits<Ns>::max() || r < std::numeric_limits<Ns>::min())
                continue; // the time itself is not representable
            const Ns f = ax.firstTimeOfColumn(cc);
            QCOMPARE(f, firstTimeRef(ax, cc));
            // Exact inverse at column borders (where f - 1 - start and f - start stay representable).
            const i128 d = static_cast<i128>(f) - ax.start();
            if (d - 1 >= std::numeric_limits<Ns>::min() && d <= std::numeric_limits<Ns>::max() &&
                f > std::numeric_limits<Ns>::min()) {
                QCOMPARE(ax.column(f), cc);
                QCOMPARE(ax.column(f - 1), cc - 1);
            }
        }
    }
    // Random axes and times over many magnitudes, so both paths are taken often; every result equals
    // the 128-bit reference.
    void columnMappingRandom() {
        std::mt19937_64 rng(99);
        auto magnitude = [&](int maxBits) {
            const int bits = static_cast<int>(rng() % static_cast<std::uint64_t>(maxBits + 1));
            return bits == 0 ? std::int64_t(0) : static_cast<std::int64_t>(rng() >> (64 - bits));
        };
        int wide = 0, narrow = 0, wideFirst = 0;
        for (int k = 0; k < 200000; ++k) {
            const Ns start = (rng() & 1 ? 1 : -1) * magnitude(61);
            const Ns span = std::max<Ns>(1, magnitude(61));
            const int width = 1 + static_cast<int>(rng() % (k % 2 ? 4096 : 8));
            const TimeAxis ax(start, span, width);
            const Ns off = (rng() & 1 ? 1 : -1) * magnitude(61);
            const Ns t = start + off; // |start|, |off| < 2^61: no int64 overflow
            (columnFits64(ax, t) ? narrow : wide) += 1;
            QCOMPARE(ax.column(t), columnRef(ax, t));
            const std::int64_t c = (rng() & 1 ? 1 : -1) * static_cast<std::int64_t>(rng() % 5000);
            const i128 r =
                static_cast<i128>(ax.start()) - floorDivRef(-(static_cast<i128>(c) * ax.span()), width);
            if (r <= std::numeric_limits<Ns>::max() && r >= std::numeric_limits<Ns>::min()) {
                wideFirst += firstTimeFits64(ax, c) ? 0 : 1;
                QCOMPARE(ax.firstTimeOfColumn(c), firstTimeRef(ax, c));
            }
        }
        QVERIFY(wide > 1000 && narrow > 1000 && wideFirst > 1000); // both paths were exercised
    }

    void zoomKeepsCursorTime() {
        TimeAxis ax(1764460800000000000, 1000000000, 1920);
        const Ns before = ax.timeAt(480);
        ax.zoomAt(480, 0.5);
        QCOMPARE(ax.span(), Ns(500000000));
        QVERIFY(std::llabs(ax.timeAt(480) - before) <= 1);
        ax.zoomAt(0, 1e-12); // clamped to the deepest zoom
        QCOMPARE(ax.span(), TimeAxis::kMinSpanNs);
        ax.panPixels(1920);
        QCOMPARE(ax.span(), TimeAxis::kMinSpanNs);
    }

    void laneAssignment() {
        // CPU ranges, by hand: [0,100) holds [10,50) which holds [20,30); [60,90) is a sibling of
        // [10,50); [95,120) overlaps [0,100) partially and so goes one lane down.
        TimelineBuilder b;
        const auto st = b.internStyle("cpu_op");
        const std::pair<Ns, Ns> ev[] = {{60, 90}, {0, 100}, {20, 30}, {10, 50}, {95, 120}};
        for (auto [s, e] : ev)
            b.addCpuEvent(0, 1, 7, EventKind::CpuRange, s, e, 0, st);
        const TimelineModel m = b.build();
        QCOMPARE(m.rows.size(), std::size_t(1));
        const auto& lanes = m.rows[0].lanes;
        QCOMPARE(lanes.size(), std::size_t(3));
        QCOMPARE(lanes[0].size(), std::size_t(1));
        QCOMPARE(lanes[0].start(0), Ns(0));
        QCOMPARE(lanes[1].size(), std::size_t(3));
        QCOMPARE(lanes[1].start(0), Ns(10));
        QCOMPARE(lanes[1].start(1), Ns(60));
        QCOMPARE(lanes[1].start(2), Ns(95));
        QCOMPARE(lanes[2].size(), std::size_t(1));
        QCOMPARE(lanes[2].start(0), Ns(20));
        QCOMPARE(m.runStart, Ns(0));
        QCOMPARE(m.runEnd, Ns(120));
        QCOMPARE(m.rows[0].label, std::string("Thread 7 (pid 1)"));
    }

    void nothingDisappears_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("width");
        for (int seed = 1; seed <= 6; ++seed)
            for (int width : {1, 7, 640, 1920})
                QTest::newRow(qPrintable(QString("seed %1, %2 px").arg(seed).arg(width))) << seed << width;
    }
    void nothingDisappears() {
        QFETCH(int, seed);
        QFETCH(int, width);
        std::mt19937_64 rng(seed);
        const std::vector<Ev> ev = randomLane(rng, 3000, 1764460800000000000);
        const EventTrack tr = trackOf(ev);
        const Ns lo = ev.front().s, hi = ev.back().e + 1;
        // Every power-of-two zoom level from the whole lane down to the deepest, at random offsets.
        for (Ns span = hi - lo; span >= TimeAxis::kMinSpanNs; span /= 2) {
            for (int rep = 0; rep < 3; ++rep) {
                const Ns start =
                    lo - span / 4 + static_cast<Ns>(rng() % static_cast<std::uint64_t>(hi - lo + span / 2));
                const TimeAxis ax(start, span, width);
                std::vector<DrawSpan> spans;
                tr.buildSpans(ax, spans);
                std::vector<int> perColumn(width, 0);
                for (const auto& s : spans) {
                    QVERIFY(s.x0 >= 0 && s.x1 < width && s.x0 <= s.x1);
                    for (int c = s.x0; c <= s.x1; ++c)
                        ++perColumn[c];
                }
                std::vector<bool> holds(width, false);
                for (const Ev& e : ev) {
                    std::int64_t c0, c1;
                    if (columnsOf(ax, e, c0, c1))
                        for (auto c = c0; c <= c1; ++c)
                            holds[c] = true;
                }
                for (int c = 0; c < width; ++c) {
                    if (holds[c] && perColumn[c] == 0)
                        QFAIL(qPrintable(QString("column %1 holds an event but nothing is drawn (span %2 ns)")
                                             .arg(c)
                                             .arg(span)));
                    QVERIFY2(holds[c] || perColumn[c] == 0, "a column without events is painted");
                    QVERIFY2(perColumn[c] <= 2, "more than 2 primitives in a column");
                }
            }
        }
    }

    void hitTestEveryZoomLevel() {
        std::mt19937_64 rng(42);
        const std::vector<Ev> ev = randomLane(rng, 500, 1000);
        const EventTrack tr = trackOf(ev);
        const Ns lo = ev.front().s, hi = ev.back().e + 1;
        const int width = 300;
        for (Ns span = hi - lo; span >= TimeAxis::kMinSpanNs; span /= 2) {
            const Ns start = lo + static_cast<Ns>(rng() % static_cast<std::uint64_t>(hi - lo));
            const TimeAxis ax(start, span, width);
            for (int c = 0; c < width; ++c) {
                bool any = false;
                for (const Ev& e : ev) {
                    std::int64_t c0, c1;
                    if (columnsOf(ax, e, c0, c1) && c0 <= c && c <= c1)
                        any = true;
                }
                const std::int64_t hit = tr.hitTest(ax, c);
                QCOMPARE(hit >= 0, any);
                if (hit >= 0) {
                    std::int64_t c0, c1;
                    QVERIFY(columnsOf(ax, ev[hit], c0, c1) && c0 <= c && c <= c1);
                }
                // With an exact time inside an event, that event wins.
                const Ns mid = ax.firstTimeOfColumn(c);
                const std::int64_t exact = tr.hitTest(ax, c, mid);
                for (std::size_t k = 0; k < ev.size(); ++k)
                    if (ev[k].s <= mid && mid < std::max(ev[k].e, ev[k].s + 1))
                        QCOMPARE(exact, std::int64_t(k));
            }
        }
    }

    // gallopStartingAtOrAfter(from, hi, t) == min(hi, max(from, firstStartingAtOrAfter(t))) for every
    // from <= hi and times at, just before and just after every start, across lane sizes (around the
    // 16-event branch-free scan too).
    void gallopMatchesBinarySearch_data() {
        QTest::addColumn<int>("n");
        for (int n : {0, 1, 2, 15, 16, 17, 33, 1000})
            QTest::newRow(qPrintable(QString("%1 events").arg(n))) << n;
    }
    void gallopMatchesBinarySearch() {
        QFETCH(int, n);
        std::mt19937_64 rng(1234 + n);
        const std::vector<Ev> ev = denseLane(rng, n, -5000, 3);
        const EventTrack tr = trackOf(ev);
        std::vector<Ns> times = {std::numeric_limits<Ns>::min(), -1000000, std::numeric_limits<Ns>::max()};
        for (const Ev& e : ev)
            for (Ns d : {-1, 0, 1})
                times.push_back(e.s + d);
        // The first mismatch, or an empty string.
        auto check = [&](std::size_t from, std::size_t hi, Ns t) {
            const std::size_t want = std::min(hi, std::max(from, tr.firstStartingAtOrAfter(t)));
            const std::size_t got = tr.gallopStartingAtOrAfter(from, hi, t);
            return got == want ? QString()
                               : QString("from %1, hi %2, t %3: %4 instead of %5")
                                     .arg(from)
                                     .arg(hi)
                                     .arg(t)
                                     .arg(got)
                                     .arg(want);
        };
        QString bad;
        const std::size_t size = tr.size();
        if (size <= 40) { // exhaustive
            for (std::size_t from = 0; from <= size && bad.isEmpty(); ++from)
                for (std::size_t hi = from; hi <= size && bad.isEmpty(); ++hi)
                    for (std::size_t k = 0; k < times.size() && bad.isEmpty(); ++k)
                        bad = check(from, hi, times[k]);
        } else {
            for (std::size_t k = 0; k < times.size() && bad.isEmpty(); ++k)
                for (std::size_t from : {std::size_t(0), std::size_t(1), size / 2, size - 17, size - 1, size})
                    if (bad.isEmpty())
                        bad = check(from, size, times[k]);
            for (int k = 0; k < 200000 && bad.isEmpty(); ++k) {
                const std::size_t from = rng() % (size + 1);
                const std::size_t hi = from + rng() % (size - from + 1);
                bad = check(from, hi, times[rng() % times.size()]);
            }
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
    }

    // dominantStyle against its documented definition by brute force, exact (< 32 events) and by
    // blocks, with few styles in runs (many ties) or up to 40 distinct ones (odd lane sizes).
    void dominantStyleMatchesDefinition() {
        std::mt19937_64 rng(77);
        for (int n : {1, 2, 17, 31, 32, 33, 300, 301, 5000, 5001}) {
            const std::vector<Ev> ev = denseLane(rng, n, 0, 4);
            std::vector<std::uint8_t> style(ev.size());
            EventTrack tr;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                // Few styles in runs (ties are frequent), or many.
                style[i] = static_cast<std::uint8_t>(n % 2 ? rng() % 40 : (i / 3) % 3);
                tr.append(ev[i].s, ev[i].e, 0, style[i], EventKind::Kernel);
            }
            tr.finish();
            for (int k = 0; k < 3000; ++k) {
                std::size_t i = rng() % (ev.size() + 1), j = rng() % (ev.size() + 1);
                if (k % 2)
                    j = std::min(ev.size(), i + rng() % 40); // mostly short ranges, around the threshold
                QCOMPARE(int(tr.dominantStyle(i, j)), int(dominantStyleRef(ev, style, i, j)));
            }
        }
    }

    // buildSpans equals the reference walk (binary search over the whole lane, 128-bit mapping) span
    // for span, for lane sizes 0, 1, 2, 17, 1000 and dense lanes (tens of events per column), at every
    // power-of-two zoom level from twice the lane down to the deepest, at random offsets, on several
    // widths (1 and 2 px exercise the view's last columns).
    void buildSpansMatchesReference_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("maxMag");
        QTest::addColumn<int>("width");
        for (int n : {0, 1, 2, 17, 1000})
            for (int width : {1, 2, 3, 640, 1920})
                QTest::newRow(qPrintable(QString("%1 events, %2 px").arg(n).arg(width))) << n << 5 << width;
        for (int width : {2, 7, 300, 1920})
            QTest::newRow(qPrintable(QString("dense, 20000 events, %1 px").arg(width)))
                << 20000 << 2 << width;
    }
    void buildSpansMatchesReference() {
        QFETCH(int, n);
        QFETCH(int, maxMag);
        QFETCH(int, width);
        std::mt19937_64 rng(n * 31 + width);
        const std::vector<Ev> ev = maxMag == 5 ? randomLane(rng, n, 1764460800000000000)
                                               : denseLane(rng, n, 1764460800000000000, maxMag);
        const EventTrack tr = trackOf(ev);
        const Ns lo = ev.empty() ? 1764460800000000000 : ev.front().s;
        const Ns hi = ev.empty() ? lo + 1000 : ev.back().e + 1;
        int compared = 0;
        for (Ns span = 2 * (hi - lo) + TimeAxis::kMinSpanNs; span >= TimeAxis::kMinSpanNs; span /= 2) {
            for (int rep = 0; rep < 4; ++rep) {
                const Ns start =
                    lo - span / 2 + static_cast<Ns>(rng() % static_cast<std::uint64_t>(hi - lo + span));
                const TimeAxis ax(start, span, width);
                std::vector<DrawSpan> got;
                tr.buildSpans(ax, got);
                const std::vector<DrawSpan> want = buildSpansRef(tr, ax);
                QCOMPARE(got.size(), want.size());
                for (std::size_t k = 0; k < got.size(); ++k) {
                    const DrawSpan &g = got[k], &w = want[k];
                    if (g.x0 != w.x0 || g.x1 != w.x1 || g.first != w.first || g.count != w.count ||
                        g.style != w.style || g.coverage != w.coverage || g.merged != w.merged)
                        QFAIL(qPrintable(
                            QString("span %1 differs (view %2 + %3 ns): got [%4, %5] first %6 count "
                                    "%7 style %8 cov %9, want [%10, %11] first %12 count %13 style "
                                    "%14 cov %15")
                                .arg(k)
                                .arg(start)
                                .arg(span)
                                .arg(g.x0)
                                .arg(g.x1)
                                .arg(g.first)
                                .arg(g.count)
                                .arg(int(g.style))
                                .arg(int(g.coverage))
                                .arg(w.x0)
                                .arg(w.x1)
                                .arg(w.first)
                                .arg(w.count)
                                .arg(int(w.style))
                                .arg(int(w.coverage))));
                }
                compared += static_cast<int>(got.size());
            }
        }
        QVERIFY(n == 0 || compared > 0);
    }

    void busyAndDominantStyle() {
        // 40 events of 10 ns every 20 ns; styles 0,1,2 cycling; event 5 is 100 ns long (style 2).
        EventTrack tr;
        Ns t = 0;
        for (int i = 0; i < 40; ++i) {
            const Ns d = i == 5 ? 100 : 10;
            tr.append(t, t + d, 0, static_cast<std::uint8_t>(i % 3), EventKind::Kernel);
            t += d + 10;
        }
        tr.finish();
        QCOMPARE(tr.busy(0, 40), Ns(39 * 10 + 100));
        QCOMPARE(tr.busy(5, 6), Ns(100));
        QCOMPARE(int(tr.dominantStyle(0, 10)), 2);
        QCOMPARE(int(tr.dominantStyle(6, 9)), 0); // styles 0,1,2 at 10 ns each: first wins
        QCOMPARE(tr.firstEndingAfter(15), std::size_t(1));
        QCOMPARE(tr.firstStartingAtOrAfter(15), std::size_t(1));
        QVERIFY(tr.memoryBytes() < 40 * 64);
    }
};

QTEST_GUILESS_MAIN(TestTimelineTrack)
#include "tst_timeline_track.moc"
