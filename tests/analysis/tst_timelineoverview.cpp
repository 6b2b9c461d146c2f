// loadOverview validates every stored overview blob before the view uses it: a corrupt or crafted one
// (cycles among groups, indexes out of range, unsorted lanes, counts larger than the blob) reads as
// "no overview" (the view then loads the full events) instead of crashing or hanging the GUI.
#include "TestTraces.h"
#include "core/PackedBytes.h"
#include "store/OverviewBlobs.h"
#include "store/Sqlite.h"

#include "store/Workspace.h"
#include "timeline/TimelineOverview.h"

#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace cnp;
using namespace cnp::timeline;

namespace {

// Two ranks' groups (rank -> GPU section), one stream row with two events: all indexes in range.
TimelineModel validModel(RunId runId) {
    TimelineModel m;
    m.runId = runId;
    m.runName = "tiny";
    m.runStart = 0;
    m.runEnd = 300;
    m.names = {"", "gemm", "nccl"};
    m.styles = {"gemm", "communication"};
    m.groups = {{"Rank 0", -1, 0, 0, false}, {"GPU 0", 0, 1, 0, false}};
    m.steps = {StepRange{0, 1, 1, 0, 100, 0, 100}};
    TimelineRow r;
    r.label = "Stream 7";
    r.group = 1;
    EventTrack lane;
    lane.append(0, 100, 1, 0, EventKind::Kernel);
    lane.append(150, 250, 2, 1, EventKind::Kernel);
    lane.finish();
    r.lanes.push_back(std::move(lane));
    m.rows.push_back(std::move(r));
    return m;
}

EventTrack laneOf(std::initializer_list<std::tuple<Ns, Ns, std::uint32_t, std::uint8_t>> events) {
    EventTrack lane;
    for (const auto& [s, e, name, style] : events)
        lane.append(s, e, name, style, EventKind::Kernel);
    lane.finish();
    return lane;
}

using Mutation = std::function<void(TimelineModel&)>;
using Spans = std::vector<std::pair<Ns, Ns>>;

// One row, one lane holding `events` (name id k + 1 for event k, style 0), over [runStart, runEnd].
TimelineModel oneLane(Ns runStart, Ns runEnd, const Spans& events) {
    TimelineModel m;
    m.runStart = runStart;
    m.runEnd = runEnd;
    m.names = {""};
    m.styles = {""};
    TimelineRow r;
    r.lanes.emplace_back();
    for (const auto& [s, e] : events) {
        r.lanes[0].append(s, e, static_cast<std::uint32_t>(m.names.size()), 0, EventKind::Kernel);
        m.names.push_back("e" + std::to_string(m.names.size()));
    }
    r.lanes[0].finish();
    m.rows.push_back(std::move(r));
    return m;
}

} // namespace

Q_DECLARE_METATYPE(Mutation)
Q_DECLARE_METATYPE(Spans)

class TestTimelineOverview : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<Workspace> ws_;
    RunId runId_;

private slots:
    void initTestCase() {
        ws_ = std::make_unique<Workspace>(dir_.filePath("ov.cnpdb").toStdString(),
                                          Workspace::Mode::CreateIfMissing);
        Transaction tx(ws_->db());
        runId_ = ws_->insertRun(cnp::testing::tinyTrace());
        tx.commit();
    }

    void validRoundTrips() {
        storeOverview(*ws_, validModel(runId_));
        const auto o = loadOverview(*ws_, runId_);
        QVERIFY(o);
        QCOMPARE(o->groups.size(), std::size_t(2));
        QCOMPARE(o->rows.size(), std::size_t(1));
        QCOMPARE(o->rows[0].lanes[0].size(), std::size_t(2));
        QCOMPARE(o->rows[0].lanes[0].end(1), Ns(250));
        QCOMPARE(o->names[o->rows[0].lanes[0].name(1)], std::string("nccl"));
    }

    // Every row kind a model can hold survives the round trip (a cluster run's GPU-busy rows were
    // once refused as "out of range", so every multi-rank run lost its first-paint overview).
    void everyRowKindRoundTrips_data() {
        QTest::addColumn<int>("kind");
        for (int k = 0; k <= static_cast<int>(kLastRowKind); ++k)
            QTest::newRow(qPrintable(QStringLiteral("kind %1").arg(k))) << k;
    }
    void everyRowKindRoundTrips() {
        QFETCH(int, kind);
        TimelineModel m = validModel(runId_);
        m.rows[0].kind = static_cast<RowKind>(kind);
        storeOverview(*ws_, m);
        const auto o = loadOverview(*ws_, runId_);
        QVERIFY(o);
        QCOMPARE(static_cast<int>(o->rows[0].kind), kind);
        QCOMPARE(o->rows[0].lanes[0].size(), std::size_t(2));
    }

    // Buckets lie on the absolute clock, width the smallest power of two >= span / buckets (rounded up), not
    // on [runStart, runStart + span / buckets, ...) as before: grids of different spans then nest, which
    // merging per-rank overviews relies on (OverviewMerge.h). Each case groups differently on the old grid.
    void makeOverviewAlignsBucketsToTheClock_data() {
        QTest::addColumn<Ns>("runStart");
        QTest::addColumn<Ns>("runEnd");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<Spans>("events");
        QTest::addColumn<Spans>("merged");
        QTest::addColumn<std::vector<std::uint32_t>>("names");
        // Span 20 / 4 = 5 -> width 8: buckets [-16, -8), [-8, 0), [0, 8), [8, 16). The zero-length event at 5
        // ends its bucket's merged event at its effective end, 6. (Old grid, width 5 from -10: -10 and -7
        // together, 5 and 9 together.)
        QTest::newRow("across zero") << Ns(-10) << Ns(10) << 4
                                     << Spans{{-10, -9}, {-7, -5}, {-2, -1}, {0, 2}, {5, 5}, {9, 10}}
                                     << Spans{{-10, -9}, {-7, -1}, {0, 6}, {9, 10}}
                                     << std::vector<std::uint32_t>{1, 2, 4, 6};
        // Span 995 / 8 = 124.4 -> width 128; 1.7e18 is a multiple of 2^17, so buckets start at base + 128 k.
        // (Old grid, width 124 from base + 5: 5 and 128 together.)
        constexpr Ns base = 1'700'000'000'000'000'000;
        QTest::newRow("epoch ns") << base + 5 << base + 1000 << 8
                                  << Spans{{base + 5, base + 100},
                                           {base + 128, base + 140},
                                           {base + 200, base + 255},
                                           {base + 256, base + 300},
                                           {base + 999, base + 1000}}
                                  << Spans{{base + 5, base + 100},
                                           {base + 128, base + 255},
                                           {base + 256, base + 300},
                                           {base + 999, base + 1000}}
                                  << std::vector<std::uint32_t>{1, 3, 4, 5};
        // Span 1000 / 4 = 250 -> width 256; -1e9 is a multiple of 2^9. Equal lengths: the first one's name.
        // (Old grid, width 250 from neg - 100: -100, -20 and 0 together.)
        constexpr Ns neg = -1'000'000'000;
        QTest::newRow("negative")
            << neg - 100 << neg + 900 << 4
            << Spans{{neg - 100, neg - 90},  {neg - 20, neg - 10},   {neg, neg + 10},
                     {neg + 255, neg + 256}, {neg + 256, neg + 300}, {neg + 800, neg + 900}}
            << Spans{{neg - 100, neg - 10}, {neg, neg + 256}, {neg + 256, neg + 300}, {neg + 800, neg + 900}}
            << std::vector<std::uint32_t>{1, 3, 5, 6};
    }
    void makeOverviewAlignsBucketsToTheClock() {
        QFETCH(Ns, runStart);
        QFETCH(Ns, runEnd);
        QFETCH(int, buckets);
        QFETCH(Spans, events);
        QFETCH(Spans, merged);
        QFETCH(std::vector<std::uint32_t>, names);
        const TimelineModel o = makeOverview(oneLane(runStart, runEnd, events), buckets);
        const EventTrack& lane = o.rows[0].lanes[0];
        Spans got;
        std::vector<std::uint32_t> gotNames;
        for (std::size_t i = 0; i < lane.size(); ++i) {
            got.emplace_back(lane.start(i), lane.end(i));
            gotNames.push_back(lane.name(i));
        }
        QCOMPARE(got, merged);
        QCOMPARE(gotNames, names);
    }

    void inconsistentModelRefused_data() {
        QTest::addColumn<Mutation>("mutate");
        QTest::newRow("group parent cycle") << Mutation([](TimelineModel& m) { m.groups[0].parent = 1; });
        QTest::newRow("group is its own parent")
            << Mutation([](TimelineModel& m) { m.groups[1].parent = 1; });
        QTest::newRow("group parent out of range")
            << Mutation([](TimelineModel& m) { m.groups[1].parent = 7; });
        QTest::newRow("group depth inconsistent")
            << Mutation([](TimelineModel& m) { m.groups[1].depth = 9; });
        QTest::newRow("row group out of range") << Mutation([](TimelineModel& m) { m.rows[0].group = 2; });
        QTest::newRow("row kind out of range")
            << Mutation([](TimelineModel& m) { m.rows[0].kind = static_cast<RowKind>(200); });
        QTest::newRow("event style out of range") << Mutation([](TimelineModel& m) {
            m.rows[0].lanes[0] = laneOf({{0, 100, 1, 2}});
        });
        QTest::newRow("event name out of range") << Mutation([](TimelineModel& m) {
            m.rows[0].lanes[0] = laneOf({{0, 100, 3, 0}});
        });
        QTest::newRow("lane unsorted") << Mutation([](TimelineModel& m) {
            m.rows[0].lanes[0] = laneOf({{150, 250, 1, 0}, {0, 100, 1, 0}});
        });
        QTest::newRow("lane overlapping") << Mutation([](TimelineModel& m) {
            m.rows[0].lanes[0] = laneOf({{0, 200, 1, 0}, {150, 250, 1, 0}});
        });
        QTest::newRow("counter samples unsorted") << Mutation([](TimelineModel& m) {
            m.rows[0].counter = CounterSeries{{20, 10}, {1.0, 2.0}, 1, 2};
        });
        QTest::newRow("step name out of range") << Mutation([](TimelineModel& m) { m.steps[0].name = 3; });
        QTest::newRow("no name table") << Mutation([](TimelineModel& m) {
            m.names.clear();
            m.rows.clear();
            m.steps.clear();
        });
        QTest::newRow("span reversed") << Mutation([](TimelineModel& m) { m.runStart = 400; });
    }
    void inconsistentModelRefused() {
        QFETCH(Mutation, mutate);
        TimelineModel m = validModel(runId_);
        mutate(m);
        storeOverview(*ws_, m);
        QVERIFY(hasOverview(*ws_, runId_));
        QVERIFY(!loadOverview(*ws_, runId_));
    }

    // Blob-level damage, written with plain SQL over a valid blob: of format 1 (the raw encoding, as
    // workspaces written before format 2 hold it) and of format 2 (compressed).
    void damagedBlobRefused_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("update");
        QTest::newRow("raw: truncated") << 1 << "substr(data, 1, length(data) - 3)";
        QTest::newRow("raw: trailing bytes") << 1 << "data || x'00'";
        // The name count follows runStart, runEnd and the run name ("tiny": 4 + 4 bytes) at byte 24.
        QTest::newRow("raw: name count 2^32 - 1")
            << 1 << "substr(data, 1, 24) || x'ffffffff' || substr(data, 29)";
        QTest::newRow("raw: empty") << 1 << "x''";
        QTest::newRow("raw: not a blob") << 1 << "'text'";
        QTest::newRow("truncated") << 2 << "substr(data, 1, length(data) - 3)";
        QTest::newRow("trailing bytes") << 2 << "data || x'00'";
        QTest::newRow("raw length 2^40") << 2 << "x'0000000000010000' || substr(data, 9)";
        QTest::newRow("raw length one short") << 2 << "x'01' || substr(data, 2)";
        QTest::newRow("empty") << 2 << "x''";
        QTest::newRow("not a blob") << 2 << "'text'";
    }
    void damagedBlobRefused() {
        QFETCH(int, format);
        QFETCH(QString, update);
        const TimelineModel m = validModel(runId_);
        if (format == 1)
            writeOverviewBlob(*ws_, runId_, 1, inflateWithLength(encodeOverview(m), 1 << 20, "", ""));
        else
            storeOverview(*ws_, m);
        QVERIFY(loadOverview(*ws_, runId_)); // whole, it loads
        execSql(ws_->db(), "UPDATE timeline_overview SET data = " + update.toStdString());
        QVERIFY(!loadOverview(*ws_, runId_));
    }

    // A workspace written before format 2 keeps its overview raw (format 1): it loads as it did.
    void rawFormatStillLoads() {
        const TimelineModel m = validModel(runId_);
        writeOverviewBlob(*ws_, runId_, 1, inflateWithLength(encodeOverview(m), 1 << 20, "", ""));
        QVERIFY(hasOverview(*ws_, runId_));
        const auto back = loadOverview(*ws_, runId_);
        QVERIFY(back);
        QCOMPARE(back->eventCount(), m.eventCount());
        QCOMPARE(back->rows.size(), m.rows.size());
        QVERIFY(readsOverviewFormat(1) && readsOverviewFormat(2) && !readsOverviewFormat(3));
    }
};

QTEST_GUILESS_MAIN(TestTimelineOverview)
#include "tst_timelineoverview.moc"
