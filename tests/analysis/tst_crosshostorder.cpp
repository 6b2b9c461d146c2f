// No cross-host ordering claim finer than the clocks' error (metrics/CrossHostOrder.h): one call of four
// ranks on two hosts (0, 1 on "a"; 2, 3 on "b") with hand-set arrivals; the last arrival is only certain
// when every rank of the other host arrived more than the error before it.
#include "metrics/CrossHostOrder.h"

#include <QtTest>

using namespace cnp;

namespace {

// One call: rank r's kernel starts at arrivals[r] and ends at 1,000,000 ns.
CollectiveMatch oneCall(const QList<qlonglong>& arrivals) {
    CollectiveInput in;
    in.names = {"ncclDevKernel_AllReduce_Sum_f32_RING_LL"};
    for (int r = 0; r < arrivals.size(); ++r) {
        CollectiveKernel k;
        k.stream = 7;
        k.start = arrivals[r];
        k.end = 1'000'000;
        in.ranks.push_back({r, {k}});
    }
    return matchCollectives(std::move(in));
}

const std::vector<std::pair<std::int32_t, std::string>> kHosts = {{0, "a"}, {1, "a"}, {2, "b"}, {3, "b"}};

} // namespace

class TestCrossHostOrder : public QObject {
    Q_OBJECT

private slots:
    void lastArrivalCertainty_data() {
        QTest::addColumn<QList<qlonglong>>("arrivals"); // ns, ranks 0..3
        QTest::addColumn<qlonglong>("errorNs");
        QTest::addColumn<bool>("uncertain");
        // Rank 3 (host b) last at 500; host a's latest (rank 1) at 300: 200 ns apart.
        QTest::newRow("other host 200 ns before, error 100")
            << QList<qlonglong>{100, 300, 200, 500} << 100LL << false;
        QTest::newRow("other host 200 ns before, error 200")
            << QList<qlonglong>{100, 300, 200, 500} << 200LL << true;
        QTest::newRow("other host 200 ns before, error 5 us")
            << QList<qlonglong>{100, 300, 200, 500} << 5000LL << true;
        // Rank 3 last at 500, its own host's rank 2 at 499: one clock, the order stands; host a 400 before.
        QTest::newRow("same host just before") << QList<qlonglong>{100, 100, 499, 500} << 300LL << false;
        QTest::newRow("no error: any order certain") << QList<qlonglong>{100, 499, 200, 500} << 0LL << false;
    }
    void lastArrivalCertainty() {
        QFETCH(QList<qlonglong>, arrivals);
        QFETCH(qlonglong, errorNs);
        QFETCH(bool, uncertain);
        const CollectiveMatch m = oneCall(arrivals);
        QCOMPARE(m.calls.size(), std::size_t(1));
        QCOMPARE(m.calls[0].lastRank, 3);
        const auto flags = uncertainLastArrivals(m, kHosts, errorNs);
        QCOMPARE(flags.size(), std::size_t(1));
        QCOMPARE(flags[0] != 0, uncertain);
    }

    // A rank of unknown host is a host of its own: its arrival near the last one makes it uncertain.
    void rankWithoutHost() {
        const CollectiveMatch m = oneCall({100, 450, 200, 500});
        QCOMPARE(uncertainLastArrivals(m, {{2, "b"}, {3, "b"}}, 100)[0], std::uint8_t(1));
        QCOMPARE(uncertainLastArrivals(m, {{1, "b"}, {2, "b"}, {3, "b"}}, 100)[0], std::uint8_t(0));
    }
};

QTEST_GUILESS_MAIN(TestCrossHostOrder)
#include "tst_crosshostorder.moc"
