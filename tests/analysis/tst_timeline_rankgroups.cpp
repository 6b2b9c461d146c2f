// Timeline rank groups at cluster size (kExpandedRanks): beyond four ranks every rank
// group but the first starts collapsed, and each rank gets a pinned GPU-busy row (the union of its GPU
// activity) that stays in the layout while its group is collapsed. Up to four ranks nothing changes.
#include "timeline/TimelineBuilder.h"

#include <QtTest>

using namespace cnp;
using namespace cnp::timeline;

namespace {

// `ranks` ranks; rank r has kernels on stream 7 at [100, 200) and [250, 300), on stream 9 at [180, 260)
// and [400, 450), all shifted by 1000 r. Union per rank: [100, 300) and [400, 450) (+ 1000 r).
TraceData cluster(int ranks) {
    TraceData t;
    const StringId name = t.strings.intern("k"), category = t.strings.intern("gemm");
    const std::pair<Ns, Ns> spans[] = {{100, 200}, {250, 300}, {180, 260}, {400, 450}};
    for (int r = 0; r < ranks; ++r) {
        RankInfo info;
        info.rank = r;
        t.ranks.push_back(info);
        for (int i = 0; i < 4; ++i) {
            KernelEvent k;
            k.rank = r;
            k.stream = i == 0 || i == 1 ? 7 : 9;
            k.start = spans[i].first + 1000 * r;
            k.end = spans[i].second + 1000 * r;
            k.name = name;
            k.category = category;
            t.kernels.push_back(k);
        }
    }
    return t;
}

int busyRow(const TimelineModel& m, int rank) {
    for (int i = 0; i < static_cast<int>(m.rows.size()); ++i)
        if (m.rows[i].rank == rank && m.rows[i].kind == RowKind::GpuBusy)
            return i;
    return -1;
}

} // namespace

class TestTimelineRankGroups : public QObject {
    Q_OBJECT
private slots:
    void collapsedBeyondFewRanks_data() {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<bool>("cluster");
        QTest::newRow("4 ranks") << 4 << false;
        QTest::newRow("5 ranks") << 5 << true;
        QTest::newRow("16 ranks") << 16 << true;
    }
    void collapsedBeyondFewRanks() {
        QFETCH(int, ranks);
        QFETCH(bool, cluster);
        const TimelineModel m = TimelineBuilder::fromTrace(::cluster(ranks));
        for (const auto& g : m.groups)
            if (g.parent < 0)
                QCOMPARE(g.collapsed, cluster && g.rank != 0);
        for (int r = 0; r < ranks; ++r) {
            const int row = busyRow(m, r);
            QCOMPARE(row >= 0, cluster);
            if (!cluster)
                continue;
            // The union of both streams, by hand: [100, 300) and [400, 450).
            const auto& lane = m.rows[row].lanes.at(0);
            QCOMPARE(m.rows[row].lanes.size(), std::size_t(1));
            QCOMPARE(lane.size(), std::size_t(2));
            QCOMPARE(lane.start(0), 100 + 1000 * r);
            QCOMPARE(lane.end(0), 300 + 1000 * r);
            QCOMPARE(lane.start(1), 400 + 1000 * r);
            QCOMPARE(lane.end(1), 450 + 1000 * r);
            QVERIFY(m.isRowVisible(row)); // pinned: visible although its rank is collapsed
        }
    }

    // A collapsed rank shows its header and its GPU-busy row only; the stream rows are left out.
    void layoutOfCollapsedRank() {
        const TimelineModel m = TimelineBuilder::fromTrace(cluster(6));
        int rowsOfRank3 = 0, streamRowsOfRank3 = 0;
        for (const auto& item : m.layout(10, 12)) {
            if (item.isGroup || m.rows[item.index].rank != 3)
                continue;
            ++rowsOfRank3;
            streamRowsOfRank3 += m.rows[item.index].kind == RowKind::GpuStream;
        }
        QCOMPARE(rowsOfRank3, 1);
        QCOMPARE(streamRowsOfRank3, 0);
    }
};

QTEST_GUILESS_MAIN(TestTimelineRankGroups)
#include "tst_timeline_rankgroups.moc"
