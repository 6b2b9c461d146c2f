// Collective efficiency per operation and message size (metrics/CollectiveEfficiency.h, docs/metrics.md
// "Collective efficiency"): hand-made calls with hand-computed buckets, medians and peak shares.
#include "metrics/CollectiveEfficiency.h"

#include <QtTest>

using namespace cnp;

namespace {

// A call of `op` with members on `ranks`, `bytes` and a busbw (none when 0).
void addCall(CollectiveMatch& m, CollectiveOp op, std::vector<std::int32_t> ranks, std::int64_t bytes,
             double busbw, Ns wait = 10, Ns transfer = 100) {
    CollectiveCall c;
    c.op = op;
    c.bytes = bytes;
    c.waitNs = wait;
    c.transferNs = transfer;
    if (busbw > 0)
        c.busBwGBs = busbw;
    c.firstMember = m.members.size();
    c.memberCount = ranks.size();
    for (const auto r : ranks) {
        CallMember mem;
        mem.rank = r;
        m.members.push_back(mem);
    }
    m.calls.push_back(c);
}

} // namespace

class TestCollectiveEfficiency : public QObject {
    Q_OBJECT

private slots:
    void buckets_data() {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<qint64>("bucket");
        QTest::newRow("1") << qint64(1) << qint64(1);
        QTest::newRow("3") << qint64(3) << qint64(1);
        QTest::newRow("4") << qint64(4) << qint64(4);
        QTest::newRow("1 KiB") << qint64(1024) << qint64(1024);
        QTest::newRow("4 KiB - 1") << qint64(4095) << qint64(1024);
        QTest::newRow("8196000 (all-reduce of 2049000 floats)") << qint64(8196000) << qint64(4194304);
        QTest::newRow("2^54") << (qint64(1) << 54) << (qint64(1) << 54);
        QTest::newRow("int64 max") << qint64(INT64_MAX) << (qint64(1) << 62);
    }
    void buckets() {
        QFETCH(qint64, bytes);
        QFETCH(qint64, bucket);
        QCOMPARE(sizeBucketOf(bytes), bucket);
    }

    // Ranks 0, 1 on host a, 2 on host b. All-reduces: two of 1 MiB on host a (busbw 100, 200 GB/s), one of
    // 1.5 MiB across hosts (busbw 20), one of unknown size; an all-gather of 100 bytes without busbw.
    // Peaks: intra 400, inter 40. 1 MiB bucket [1 MiB, 4 MiB): busbw 100, 200, 20 -> median 100; shares
    // 0.25, 0.5, 0.5 -> median 0.5; one call inter-node.
    void perOperationAndSize() {
        CollectiveMatch m;
        addCall(m, CollectiveOp::AllReduce, {0, 1}, 1 << 20, 100, 5, 50);
        addCall(m, CollectiveOp::AllReduce, {0, 1}, 1 << 20, 200, 7, 60);
        addCall(m, CollectiveOp::AllReduce, {0, 1, 2}, 3 << 19, 20, 1, 70);
        addCall(m, CollectiveOp::AllReduce, {0, 2}, 0, 0);
        addCall(m, CollectiveOp::AllGather, {1, 2}, 100, 0);
        const std::vector<std::pair<std::int32_t, std::string>> hosts = {{0, "a"}, {1, "a"}, {2, "b"}};
        const auto rows = collectiveEfficiency(m, hosts, FabricPeak{400, 40});
        QCOMPARE(rows.size(), std::size_t(3));
        const auto& unknown = rows[0];
        QCOMPARE(int(unknown.op), int(CollectiveOp::AllReduce));
        QCOMPARE(unknown.bucketMinBytes, std::int64_t(-1));
        QCOMPARE(unknown.calls, std::int64_t(1));
        QCOMPARE(unknown.interNodeCalls, std::int64_t(1));
        QVERIFY(!unknown.medianBusBwGBs);
        const auto& mib = rows[1];
        QCOMPARE(mib.bucketMinBytes, std::int64_t(1) << 20);
        QCOMPARE(mib.bucketMaxBytes, std::int64_t(1) << 22);
        QCOMPARE(mib.calls, std::int64_t(3));
        QCOMPARE(mib.interNodeCalls, std::int64_t(1));
        QCOMPARE(mib.waitNs, Ns(13));
        QCOMPARE(mib.transferNs, Ns(180));
        QCOMPARE(*mib.medianBusBwGBs, 100.0);
        QCOMPARE(*mib.medianPeakShare, 0.5);
        const auto& gather = rows[2];
        QCOMPARE(int(gather.op), int(CollectiveOp::AllGather));
        QCOMPARE(gather.bucketMinBytes, std::int64_t(64));
        QCOMPARE(gather.interNodeCalls, std::int64_t(1));
        QVERIFY(!gather.medianBusBwGBs);
        QVERIFY(!gather.medianPeakShare);
    }

    // Without a peak no share; an even count takes the mean of the middle two; a rank of unknown host is
    // a host of its own.
    void noPeakAndEvenCount() {
        CollectiveMatch m;
        addCall(m, CollectiveOp::Broadcast, {0, 1}, 5000, 10);
        addCall(m, CollectiveOp::Broadcast, {0, 1}, 5000, 30);
        const auto rows = collectiveEfficiency(m, {{0, "a"}}, FabricPeak{});
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(*rows[0].medianBusBwGBs, 20.0);
        QVERIFY(!rows[0].medianPeakShare);
        QCOMPARE(rows[0].interNodeCalls, std::int64_t(2));
        const auto intra = collectiveEfficiency(m, {{0, "a"}, {1, "a"}}, FabricPeak{40, 0});
        QCOMPARE(intra[0].interNodeCalls, std::int64_t(0));
        QCOMPARE(*intra[0].medianPeakShare, 0.5);
    }
};

QTEST_GUILESS_MAIN(TestCollectiveEfficiency)
#include "tst_collectiveefficiency.moc"
