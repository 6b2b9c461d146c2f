// loadOverview validates every stored overview blob before the view uses it: a corrupt or crafted one
// (cycles among groups, indexes out of range, unsorted lanes, counts larger than the blob) reads as
// "no overview" (the view then loads the full events) instead of crashing or hanging the GUI.
#include "TestTraces.h"

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

} // namespace

Q_DECLARE_METATYPE(Mutation)

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

    // Blob-level damage, written with plain SQL over a valid blob.
    void damagedBlobRefused_data() {
        QTest::addColumn<QString>("update");
        QTest::newRow("truncated") << "substr(data, 1, length(data) - 3)";
        QTest::newRow("trailing bytes") << "data || x'00'";
        // The name count follows runStart, runEnd and the run name ("tiny": 4 + 4 bytes) at byte 24.
        QTest::newRow("name count 2^32 - 1") << "substr(data, 1, 24) || x'ffffffff' || substr(data, 29)";
        QTest::newRow("empty") << "x''";
        QTest::newRow("not a blob") << "'text'";
    }
    void damagedBlobRefused() {
        QFETCH(QString, update);
        storeOverview(*ws_, validModel(runId_));
        execSql(ws_->db(), "UPDATE timeline_overview SET data = " + update.toStdString());
        QVERIFY(!loadOverview(*ws_, runId_));
    }
};

QTEST_GUILESS_MAIN(TestTimelineOverview)
#include "tst_timelineoverview.moc"
