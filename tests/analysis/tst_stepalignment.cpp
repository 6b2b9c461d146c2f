// StepAlignment: hand-made steps (insertions, deletions, reordering, two streams, empty steps) with the
// expected matches, shifts and time decomposition worked out by hand; then the real H200 fixture
// (resources/demo, eager versus torch.compile, step 2) through StepDiffRequest, against counts taken from
// the fixture files independently.
#include "TestPaths.h"

#include "core/InputError.h"
#include "ingest/IngestPipeline.h"
#include "metrics/StepAlignment.h"
#include "requests/StepDiffRequest.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <regex>

using namespace cnp;
using Events = std::vector<StepGpuEvent>;
Q_DECLARE_METATYPE(Events)

namespace {

StepGpuEvent ev(const char* name, Ns start, Ns duration, std::int64_t stream = 7) {
    StepGpuEvent e;
    e.name = name;
    e.start = start;
    e.end = start + duration;
    e.stream = stream;
    return e;
}

// The lane as text: "=a" matched, "+x" added, "-b" removed, in item order.
QString laneText(const StepAlignment& s, const AlignedStream& l) {
    QStringList out;
    for (const auto& i : l.items) {
        const char mark = i.kind == AlignKind::Matched ? '=' : i.kind == AlignKind::Added ? '+' : '-';
        out << QString(QChar(mark)) + QString::fromStdString(s.name(i));
    }
    return out.join(' ');
}

QString lanesText(const StepAlignment& s) {
    QStringList out;
    for (const auto& l : s.streams)
        out << QStringLiteral("%1>%2: ").arg(l.streamA).arg(l.streamB) + laneText(s, l);
    return out.join(" | ");
}

// The length of the longest common subsequence of two name sequences: O(N·M) dynamic programme.
std::size_t lcsLength(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

template <class Pred> std::vector<std::string> namesWhere(const Events& v, Pred keep) {
    std::vector<std::string> out;
    for (const auto& e : v)
        if (keep(e.name))
            out.push_back(e.name);
    return out;
}

bool isGemm(const std::string& n) {
    static const std::regex re("gemm|cutlass|sm90_xmma|nvjet");
    return std::regex_search(n, re);
}
bool isTriton(const std::string& n) {
    return n.rfind("triton_", 0) == 0;
}
bool isElementwise(const std::string& n) {
    return n.find("elementwise_kernel") != std::string::npos;
}

} // namespace

class TestStepAlignment : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string ws_;

private slots:
    void lanes_data() {
        QTest::addColumn<Events>("a");
        QTest::addColumn<Events>("b");
        QTest::addColumn<QString>("expected");
        QTest::newRow("both empty") << Events{} << Events{} << QString();
        QTest::newRow("A empty") << Events{} << Events{ev("x", 5, 1)} << QStringLiteral("-1>7: +x");
        QTest::newRow("B empty") << Events{ev("x", 5, 1)} << Events{} << QStringLiteral("7>-1: -x");
        QTest::newRow("same") << Events{ev("a", 0, 1), ev("b", 2, 1)}
                              << Events{ev("a", 10, 1), ev("b", 13, 1)} << QStringLiteral("7>7: =a =b");
        QTest::newRow("insertion") << Events{ev("a", 0, 1), ev("b", 2, 1), ev("c", 4, 1)}
                                   << Events{ev("a", 0, 1), ev("x", 2, 1), ev("b", 4, 1), ev("c", 6, 1)}
                                   << QStringLiteral("7>7: =a +x =b =c");
        QTest::newRow("deletion") << Events{ev("a", 0, 1), ev("b", 2, 1), ev("c", 4, 1)}
                                  << Events{ev("a", 0, 1), ev("c", 2, 1)} << QStringLiteral("7>7: =a -b =c");
        // Between two matches the removed and added items are ordered by their offsets from the step start.
        QTest::newRow("replacement") << Events{ev("a", 0, 1), ev("e1", 2, 1), ev("e2", 4, 1), ev("g", 6, 1)}
                                     << Events{ev("a", 0, 1), ev("t", 3, 2), ev("g", 6, 1)}
                                     << QStringLiteral("7>7: =a -e1 +t -e2 =g");
        // Given out of order: sorted by start first.
        QTest::newRow("unsorted input")
            << Events{ev("b", 5, 1), ev("a", 0, 1)} << Events{ev("a", 0, 1), ev("b", 5, 1)}
            << QStringLiteral("7>7: =a =b");
        // Stream 7 is in both (paired by id); 13 of A and 20 of B by order of first use; 30 of B is alone.
        QTest::newRow("streams") << Events{ev("a", 0, 1), ev("c", 1, 1, 13), ev("b", 2, 1)}
                                 << Events{ev("d", 5, 1, 30), ev("c", 1, 1, 20), ev("a", 2, 1), ev("b", 3, 1)}
                                 << QStringLiteral("7>7: =a =b | 13>20: =c | -1>30: +d");
    }
    void lanes() {
        QFETCH(Events, a);
        QFETCH(Events, b);
        QFETCH(QString, expected);
        const auto s = StepAlignment::align(a, b);
        QCOMPARE(lanesText(s), expected);
        std::int32_t matched = 0, added = 0, removed = 0;
        for (const auto& l : s.streams)
            matched += l.matched, added += l.added, removed += l.removed;
        QCOMPARE(s.totals.matched, matched);
        QCOMPARE(s.totals.matched * 2 + s.totals.added + s.totals.removed,
                 static_cast<std::int32_t>(a.size() + b.size()));
    }

    // A swap keeps one of the two in order; which one is the algorithm's choice, the counts are not.
    void reordering() {
        const auto s = StepAlignment::align({ev("a", 0, 1), ev("b", 2, 1), ev("c", 4, 1)},
                                            {ev("b", 0, 1), ev("a", 2, 1), ev("c", 4, 1)});
        QCOMPARE(s.totals.matched, 2);
        QCOMPARE(s.totals.added, 1);
        QCOMPARE(s.totals.removed, 1);
        QCOMPARE(s.streams.front().items.back().kind, AlignKind::Matched);
        QCOMPARE(QString::fromStdString(s.name(s.streams.front().items.back())), QStringLiteral("c"));
    }

    // A:  a [100,110)  b [110,120)  c [120,130)             span 30
    // B:  a [500,510)  x [510,515)  b [515,535)  c [535,545) span 45
    // b is 10 ns slower, x adds 5 ns, nothing is idle: 45 − 30 = 10 + 5 + 0. Shifts at a, b, c: 0, +5, +15.
    void timesByHand() {
        const auto s =
            StepAlignment::align({ev("a", 100, 10), ev("b", 110, 10), ev("c", 120, 10)},
                                 {ev("a", 500, 10), ev("x", 510, 5), ev("b", 515, 20), ev("c", 535, 10)});
        QCOMPARE(s.startA, Ns{100});
        QCOMPARE(s.startB, Ns{500});
        const auto& t = s.totals;
        QCOMPARE(t.spanA, Ns{30});
        QCOMPARE(t.spanB, Ns{45});
        QCOMPARE(t.slower, Ns{10});
        QCOMPARE(t.faster, Ns{0});
        QCOMPARE(t.addedTime, Ns{5});
        QCOMPARE(t.removedTime, Ns{0});
        QCOMPARE(t.idle, Ns{0});
        const auto& l = s.streams.front();
        QCOMPARE(l.shift.size(), std::size_t{3});
        QCOMPARE(l.shift[0].shift, Ns{0});
        QCOMPARE(l.shift[1].atA, Ns{10});
        QCOMPARE(l.shift[1].atB, Ns{15});
        QCOMPARE(l.shift[1].shift, Ns{5});
        QCOMPARE(l.shift[2].shift, Ns{15});
        QCOMPARE(l.endShift, Ns{15});
        QCOMPARE(l.busyA, Ns{30});
        QCOMPARE(l.busyB, Ns{45});
        // Jumps: c (+10: b's 10 ns), then b (+5: x), then a (0).
        const auto j = s.largestJumps(10);
        QCOMPARE(j.size(), std::size_t{3});
        QCOMPARE(j[0].item, 3);
        QCOMPARE(j[0].previous, 2);
        QCOMPARE(j[0].before, Ns{5});
        QCOMPARE(j[0].after, Ns{15});
        QCOMPARE(j[1].item, 2);
        QCOMPARE(j[1].added, 1);
        QCOMPARE(j[1].addedTime, Ns{5});
        QCOMPARE(j[2].item, 0);
        QCOMPARE(j[2].previous, -1);
        QCOMPARE(s.largestJumps(1).size(), std::size_t{1});
    }

    // A: a [0,10) r [10,14) gap b [20,30), span 30; B: a [0,10) b [12,18), span 18. −12 ns = b 4 ns faster,
    // r's 4 ns removed, 4 ns less idle.
    void idleGapAndRemoved() {
        const auto s = StepAlignment::align({ev("a", 0, 10), ev("r", 10, 4), ev("b", 20, 10)},
                                            {ev("a", 0, 10), ev("b", 12, 6)});
        const auto& t = s.totals;
        QCOMPARE(t.spanB - t.spanA, Ns{18 - 30});
        QCOMPARE(t.faster, Ns{-4});
        QCOMPARE(t.removedTime, Ns{4});
        QCOMPARE(t.idle, Ns{-12 + 4 + 4}); // −12 = −4 (b) − 4 (r) + idle
        QCOMPARE(s.streams.front().shift.back().shift, Ns{12 - 20});
    }

    void normalisedNames() {
        const Events a{ev("triton_poi_fused_add_3", 0, 1)}, b{ev("triton_poi_fused_add_7", 0, 1)};
        QCOMPARE(StepAlignment::align(a, b).totals.matched, 0);
        StepAlignmentOptions o;
        o.normalize = true;
        QCOMPARE(StepAlignment::align(a, b, o).totals.matched, 1);
    }

    // The real H200 runs, step 2 (ProfilerStep#2) of rank 0. Counted from the fixture files with a script
    // (the kernels, memcpys and memsets whose correlation id is that of a cuda_runtime / cuda_driver event
    // starting inside ProfilerStep#2): eager 1,419 activities (924 with "elementwise_kernel" in the name, 172
    // GEMMs, no triton kernel), compiled 620 (250 triton kernels, 18 elementwise, 172 GEMMs; the last layer's
    // backward runs 4 of its GEMMs in another order, so at most 168 GEMMs can match in order).
    void h200EagerVersusCompiled() {
        ingestDemo();
        Workspace ws(ws_, Workspace::Mode::ReadOnly);
        StepDiffChoice c;
        c.step = 2;
        const auto r = diffSteps(ws, std::string("base"), std::string("compile"), c);
        const auto& s = r.alignment;
        QCOMPARE(r.a.step, 2);
        QCOMPARE(s.a.size(), std::size_t{1419});
        QCOMPARE(s.b.size(), std::size_t{620});
        QCOMPARE(namesWhere(s.a, isElementwise).size(), std::size_t{924});
        QCOMPARE(namesWhere(s.b, isTriton).size(), std::size_t{250});
        QCOMPARE(namesWhere(s.a, isTriton).size(), std::size_t{0});
        QCOMPARE(s.streams.size(), std::size_t{1}); // stream 7 in both
        QVERIFY(s.streams.front().pairedById);
        // The alignment is a longest common subsequence of the whole name sequences (by the O(N·M)
        // programme).
        const auto every = [](const std::string&) { return true; };
        QCOMPARE(static_cast<std::size_t>(s.totals.matched),
                 lcsLength(namesWhere(s.a, every), namesWhere(s.b, every)));
        QCOMPARE(s.totals.matched, 349);

        std::int32_t addedTriton = 0, matchedGemm = 0, removedElementwise = 0, matchedElementwise = 0;
        for (const auto& i : s.streams.front().items) {
            const std::string& n = s.name(i);
            addedTriton += i.kind == AlignKind::Added && isTriton(n);
            matchedGemm += i.kind == AlignKind::Matched && isGemm(n);
            removedElementwise += i.kind == AlignKind::Removed && isElementwise(n);
            matchedElementwise += i.kind == AlignKind::Matched && isElementwise(n);
        }
        QCOMPARE(addedTriton, 250); // every fused kernel is added
        QCOMPARE(static_cast<std::size_t>(matchedGemm),
                 lcsLength(namesWhere(s.a, isGemm),
                           namesWhere(s.b, isGemm))); // GEMMs matched, as far as order allows
        QCOMPARE(matchedGemm, 168);
        QVERIFY(matchedElementwise <= 18); // at most one per compiled elementwise kernel
        QCOMPARE(removedElementwise, 924 - matchedElementwise);
        QVERIFY(removedElementwise >= 906);
        // The decomposition adds up and the compiled step is shorter.
        const auto& t = s.totals;
        QCOMPARE(t.spanB - t.spanA, t.slower + t.faster + t.addedTime - t.removedTime + t.idle);
        QVERIFY(t.spanB < t.spanA);
    }

    void medianAndErrors() {
        ingestDemo();
        Workspace ws(ws_, Workspace::Mode::ReadOnly);
        const auto r = diffSteps(ws, std::string("base"), std::string("compile"), StepDiffChoice{});
        QVERIFY(r.median);
        QCOMPARE(r.a.steps, 3);
        QVERIFY(r.a.step >= 1 && r.a.step <= 3);
        StepDiffChoice missing;
        missing.step = 9;
        try {
            diffSteps(ws, std::string("base"), std::string("compile"), missing);
            QFAIL("expected step 9 to be refused");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("has no step 9") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("1, 2, 3") != std::string::npos, e.what());
        }
        StepDiffChoice rank;
        rank.step = 1;
        rank.rank = 4;
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 diffSteps(ws, std::string("base"), std::string("compile"), rank));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 diffSteps(ws, std::string("base"), std::string("nope"), StepDiffChoice{}));
    }

private:
    void ingestDemo() {
        if (!ws_.empty())
            return;
        QVERIFY(dir_.isValid());
        ws_ = dir_.filePath("demo.cnpdb").toStdString();
        Workspace ws(ws_, Workspace::Mode::CreateIfMissing);
        for (const char* c : {"base", "compile"}) {
            IngestRequest req;
            req.inputs = {testpaths::sourceDir().toStdString() + "/resources/demo/demo_" + c + ".json.gz"};
            req.runName = c;
            req.config = c;
            ingest(ws, req);
        }
    }
};

QTEST_GUILESS_MAIN(TestStepAlignment)
#include "tst_stepalignment.moc"
