// orphanTotals(): the run-wide sum of the per-rank orphan figures (by hand).
#include "metrics/OrphanTotals.h"

#include <QtTest>

using namespace cnp;

namespace {
RankSummary rank(std::int32_t id, std::int64_t count, Ns busy) {
    RankSummary r;
    r.rank = id;
    r.orphans.count = count;
    r.orphans.busyNs = busy;
    return r;
}
} // namespace

class TestOrphanTotals : public QObject {
    Q_OBJECT
private slots:
    void totals_data() {
        QTest::addColumn<std::vector<RankSummary>>("ranks");
        QTest::addColumn<qint64>("count");
        QTest::addColumn<qint64>("busy");
        QTest::addColumn<int>("ranksWithAny");
        QTest::newRow("none") << std::vector<RankSummary>{} << 0LL << 0LL << 0;
        QTest::newRow("clean rank") << std::vector<RankSummary>{rank(0, 0, 0)} << 0LL << 0LL << 0;
        // 3 + 0 + 2 activities; 500 + 0 + 250 ns.
        QTest::newRow("two of three")
            << std::vector<RankSummary>{rank(0, 3, 500), rank(1, 0, 0), rank(2, 2, 250)} << 5LL << 750LL << 2;
    }
    void totals() {
        QFETCH(std::vector<RankSummary>, ranks);
        QFETCH(qint64, count);
        QFETCH(qint64, busy);
        QFETCH(int, ranksWithAny);
        const OrphanTotals t = orphanTotals(ranks);
        QCOMPARE(t.count, count);
        QCOMPARE(t.busyNs, busy);
        QCOMPARE(t.ranksWithAny, ranksWithAny);
        QCOMPARE(t.ranks, std::int32_t(ranks.size()));
    }
};

QTEST_APPLESS_MAIN(TestOrphanTotals)
#include "tst_orphantotals.moc"
