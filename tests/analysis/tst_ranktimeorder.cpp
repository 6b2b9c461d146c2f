// RankTimeOrder: one rank's rows, or one rank's rows in a time window, in (rank, time) order, whether the
// table is sorted already (a view over it) or not (a permutation). Expected rows listed by hand.
#include "metrics/RankTimeOrder.h"

#include <QtTest>

using namespace cnp;

namespace {
struct StartOf {
    Ns operator()(const ApiCall& a) const { return a.start; }
};

ApiCall call(std::int32_t rank, Ns start, std::int64_t correlation) {
    ApiCall a{};
    a.rank = rank;
    a.start = start;
    a.end = start + 1;
    a.correlation = correlation;
    return a;
}

// Correlation ids of the rows visited, in visiting order.
QList<qint64> visitIn(const std::vector<ApiCall>& rows, std::int32_t rank, Ns from, Ns to) {
    QList<qint64> ids;
    RankTimeOrder<ApiCall, StartOf>(rows, {}).forEachIn(rank, from, to,
                                                        [&](const ApiCall& a) { ids << a.correlation; });
    return ids;
}
} // namespace

class TestRankTimeOrder : public QObject {
    Q_OBJECT
private slots:
    void window_data() {
        QTest::addColumn<bool>("shuffled");
        QTest::addColumn<int>("rank");
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<QList<qint64>>("expected");
        // Rows (rank, start, id): (0,10,1) (0,20,2) (0,20,3) (0,30,4) (1,5,5) (1,25,6) (2,40,7).
        for (bool shuffled : {false, true}) {
            const char* tag = shuffled ? "shuffled " : "sorted ";
            QTest::newRow(QByteArray(tag) + "rank 0 all")
                << shuffled << 0 << qint64(0) << qint64(100) << QList<qint64>{1, 2, 3, 4};
            QTest::newRow(QByteArray(tag) + "bounds inclusive")
                << shuffled << 0 << qint64(20) << qint64(30) << QList<qint64>{2, 3, 4};
            QTest::newRow(QByteArray(tag) + "inside one rank")
                << shuffled << 1 << qint64(6) << qint64(25) << QList<qint64>{6};
            QTest::newRow(QByteArray(tag) + "never into the next rank")
                << shuffled << 1 << qint64(0) << qint64(1000) << QList<qint64>{5, 6};
            QTest::newRow(QByteArray(tag) + "empty window")
                << shuffled << 0 << qint64(11) << qint64(19) << QList<qint64>{};
            QTest::newRow(QByteArray(tag) + "absent rank")
                << shuffled << 3 << qint64(0) << qint64(1000) << QList<qint64>{};
        }
    }
    void window() {
        QFETCH(bool, shuffled);
        QFETCH(int, rank);
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(QList<qint64>, expected);
        std::vector<ApiCall> rows = {call(0, 10, 1), call(0, 20, 2), call(0, 20, 3), call(0, 30, 4),
                                     call(1, 5, 5),  call(1, 25, 6), call(2, 40, 7)};
        if (shuffled) // equal keys (ids 2 and 3) keep their table order: the permutation is stable
            rows = {call(2, 40, 7), call(0, 30, 4), call(1, 25, 6), call(0, 20, 2),
                    call(1, 5, 5),  call(0, 10, 1), call(0, 20, 3)};
        QCOMPARE(visitIn(rows, rank, from, to), expected);
    }

    void wholeRank() {
        const std::vector<ApiCall> rows = {call(1, 7, 9), call(0, 3, 8), call(1, -5, 10)};
        QList<qint64> ids;
        RankTimeOrder<ApiCall, StartOf>(rows, {}).forEachOfRank(
            1, [&](const ApiCall& a) { ids << a.correlation; });
        QCOMPARE(ids, (QList<qint64>{10, 9})); // negative times included
    }
};

QTEST_APPLESS_MAIN(TestRankTimeOrder)
#include "tst_ranktimeorder.moc"
