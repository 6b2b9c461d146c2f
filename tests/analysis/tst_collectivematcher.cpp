// Collectives matched across ranks (metrics/CollectiveMatcher.h, docs/metrics.md "Collectives"): hand-made
// kernels with hand-computed arrivals, waits, transfers and bandwidths.
#include "metrics/CollectiveMatcher.h"

#include <QtTest>

using namespace cnp;

namespace {

CollectiveKernel kernel(std::int64_t stream, Ns start, Ns end, std::uint32_t name = 0,
                        std::int64_t bytes = 0) {
    CollectiveKernel k;
    k.stream = stream;
    k.start = start;
    k.end = end;
    k.nameIndex = name;
    k.bytes = bytes;
    return k;
}

RankCollectives rank(std::int32_t r, std::vector<CollectiveKernel> kernels) {
    return {r, std::move(kernels)};
}

const CallMember& member(const CollectiveMatch& m, const CollectiveCall& c, std::int32_t rank) {
    for (std::size_t i = c.firstMember; i < c.firstMember + c.memberCount; ++i)
        if (m.members[i].rank == rank)
            return m.members[i];
    throw std::runtime_error("no member");
}

} // namespace

class TestCollectiveMatcher : public QObject {
    Q_OBJECT

private slots:
    void operationOfKernelName_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("op");
        QTest::newRow("nccl all-reduce")
            << "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
            << int(CollectiveOp::AllReduce);
        QTest::newRow("dev reduce-scatter") << "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevComm*)"
                                            << int(CollectiveOp::ReduceScatter);
        QTest::newRow("dev all-gather")
            << "ncclDevKernel_AllGather_RING_LL(ncclDevComm*)" << int(CollectiveOp::AllGather);
        QTest::newRow("send/recv") << "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)"
                                   << int(CollectiveOp::SendRecv);
        QTest::newRow("broadcast") << "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*)"
                                   << int(CollectiveOp::Broadcast);
        QTest::newRow("reduce") << "ncclDevKernel_Reduce_Sum_f32_RING_LL" << int(CollectiveOp::Reduce);
        QTest::newRow("pytorch all_to_all") << "nccl:all_to_all" << int(CollectiveOp::AllToAll);
        QTest::newRow("not a collective") << "ampere_sgemm_32x128_nn" << int(CollectiveOp::Unknown);
    }
    void operationOfKernelName() {
        QFETCH(QString, name);
        QFETCH(int, op);
        QCOMPARE(int(collectiveOpOfKernel(name.toStdString())), op);
    }

    void busBandwidthFactors_data() {
        QTest::addColumn<int>("op");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<double>("factor");
        QTest::newRow("all-reduce 8") << int(CollectiveOp::AllReduce) << 8 << 1.75;
        QTest::newRow("all-reduce 2") << int(CollectiveOp::AllReduce) << 2 << 1.0;
        QTest::newRow("all-gather 8") << int(CollectiveOp::AllGather) << 8 << 0.875;
        QTest::newRow("reduce-scatter 4") << int(CollectiveOp::ReduceScatter) << 4 << 0.75;
        QTest::newRow("all-to-all 16") << int(CollectiveOp::AllToAll) << 16 << 0.9375;
        QTest::newRow("broadcast 8") << int(CollectiveOp::Broadcast) << 8 << 1.0;
        QTest::newRow("reduce 8") << int(CollectiveOp::Reduce) << 8 << 1.0;
        QTest::newRow("send/recv 2") << int(CollectiveOp::SendRecv) << 2 << 1.0;
    }
    void busBandwidthFactors() {
        QFETCH(int, op);
        QFETCH(int, ranks);
        QFETCH(double, factor);
        const auto f = busBandwidthFactor(static_cast<CollectiveOp>(op), ranks);
        QVERIFY(f.has_value());
        QCOMPARE(*f, factor);
        QVERIFY(!busBandwidthFactor(CollectiveOp::Unknown, 8));
        QVERIFY(!busBandwidthFactor(CollectiveOp::AllReduce, 0));
    }

    // Three ranks, one all-reduce of 1,000,000 bytes. Arrivals 100, 300, 600 (rank 2 last); departures
    // 1000, 1010, 1000. Waits 500, 300, 0 (total 800; the call's wait 600 - 100 = 500); transfers 400, 410,
    // 400 (median 400); median arrival 300. algbw = 1e6 B / 400 ns = 2500 GB/s; busbw = 2500 x 2(3-1)/3.
    void oneCallTimedByHand() {
        CollectiveInput in;
        in.names = {"ncclKernel_AllReduce_RING_LL_Sum_float"};
        in.ranks = {rank(0, {kernel(5, 100, 1000, 0, 1'000'000)}),
                    rank(1, {kernel(5, 300, 1010, 0, 1'000'000)}),
                    rank(2, {kernel(5, 600, 1000, 0, 1'000'000)})};
        in.steps = {{2, {{0, 500}, {500, 2000}}}};
        const CollectiveMatch m = matchCollectives(in);
        QCOMPARE(m.ranks, 3);
        QCOMPARE(m.calls.size(), std::size_t(1));
        const CollectiveCall& c = m.calls.front();
        QCOMPARE(int(c.op), int(CollectiveOp::AllReduce));
        QCOMPARE(m.nameOf(c), std::string_view("ncclKernel_AllReduce_RING_LL_Sum_float"));
        QCOMPARE(c.memberCount, std::size_t(3));
        QCOMPARE(c.firstArrival, Ns(100));
        QCOMPARE(c.lastArrival, Ns(600));
        QCOMPARE(c.lastRank, 2);
        QCOMPARE(c.medianArrival, Ns(300));
        QCOMPARE(c.waitNs, Ns(500));
        QCOMPARE(c.totalWaitNs, Ns(800));
        QCOMPARE(c.transferNs, Ns(400));
        QCOMPARE(c.step, 1); // rank 2's second step holds 600
        QCOMPARE(member(m, c, 0).waitNs, Ns(500));
        QCOMPARE(member(m, c, 1).waitNs, Ns(300));
        QCOMPARE(member(m, c, 1).transferNs, Ns(410));
        QCOMPARE(member(m, c, 2).waitNs, Ns(0));
        QCOMPARE(*c.algBwGBs, 2500.0);
        QCOMPARE(*c.busBwGBs, 2500.0 * 4.0 / 3.0);
        const auto steps = collectiveStepTotals(m);
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(steps.front().step, 1);
        QCOMPARE(steps.front().waitNs, Ns(500));
        QCOMPARE(steps.front().transferNs, Ns(400));
    }

    // Kernels are paired by their order on each stream, whatever order they come in; two ranks give the
    // mean of the two middle transfers. Stream 1: rank 0 at 10 and 200, rank 1 at 50 and 180 (given late
    // first). Call 0: last 50 (rank 1), transfers 100 - 50 = 50 and 101 - 50 = 51 -> 50 (50.5 rounded down).
    // Call 1: last 200 (rank 0), waits 0 and 20.
    void pairedByOrderPerStream() {
        CollectiveInput in;
        in.names = {"ncclDevKernel_AllGather_RING_LL"};
        in.ranks = {rank(1, {kernel(1, 180, 300), kernel(1, 50, 101)}),
                    rank(0, {kernel(1, 10, 100), kernel(1, 200, 300)})};
        const CollectiveMatch m = matchCollectives(in);
        QCOMPARE(m.calls.size(), std::size_t(2));
        QCOMPARE(m.calls[0].sequence, 0);
        QCOMPARE(m.calls[0].lastRank, 1);
        QCOMPARE(m.calls[0].waitNs, Ns(40));
        QCOMPARE(m.calls[0].transferNs, Ns(50));
        QCOMPARE(m.calls[1].lastRank, 0);
        QCOMPARE(member(m, m.calls[1], 1).waitNs, Ns(20));
        QCOMPARE(m.calls[1].transferNs, Ns(100));
        QVERIFY(!m.calls[0].algBwGBs); // no bytes: no bandwidth
        QCOMPARE(m.calls[0].step, -1); // no steps given
        QCOMPARE(m.unmatchedKernels, std::int64_t(0));
    }

    // A rank that left before the last arrival (clock error) has transfer 0, never negative.
    void departureBeforeLastArrivalIsZeroTransfer() {
        CollectiveInput in;
        in.names = {"ncclKernel_Broadcast"};
        in.ranks = {rank(0, {kernel(3, 0, 90)}), rank(1, {kernel(3, 100, 150)}),
                    rank(2, {kernel(3, 20, 150)})};
        const CollectiveMatch m = matchCollectives(in);
        const CollectiveCall& c = m.calls.front();
        QCOMPARE(member(m, c, 0).transferNs, Ns(0));
        QCOMPARE(c.transferNs, Ns(50)); // transfers 0, 50, 50
    }

    // Streams are communicators of their own; uneven counts match up to the shortest member.
    void unevenStreamsCounted() {
        CollectiveInput in;
        in.names = {"ncclKernel_AllReduce", "ncclKernel_SendRecv"};
        in.ranks = {rank(0, {kernel(1, 0, 10), kernel(1, 20, 30), kernel(2, 5, 9, 1)}),
                    rank(1, {kernel(1, 1, 10), kernel(2, 6, 9, 1)}), rank(2, {})};
        const CollectiveMatch m = matchCollectives(in);
        QCOMPARE(m.ranks, 2);
        QCOMPARE(m.calls.size(), std::size_t(2)); // stream 1: one call; stream 2: one call
        QCOMPARE(m.calls[0].stream, std::int64_t(1));
        QCOMPARE(int(m.calls[1].op), int(CollectiveOp::SendRecv));
        QCOMPARE(m.unmatchedKernels, std::int64_t(1));
        QCOMPARE(m.unevenStreams, std::vector<std::int64_t>{1});
    }

    // With arguments, the process group is the communicator: kernels on different streams of the same
    // group pair by their order in it, and busbw takes the group's size. Group "pg" (names[1]): rank 0 on
    // stream 5 at 0 and 100, rank 1 on stream 9 at 10 and 90. A kernel without a group stays on its stream.
    // Call 1: arrivals 100 and 90, last 100 (rank 0); ends 150, 170: transfers 50, 70 -> 60. 4096 bytes of
    // an all-reduce in a group of 4 (two ranks traced): algbw 4096 / 60, busbw x 2(4-1)/4 = 1.5.
    void pairedByProcessGroup() {
        CollectiveInput in;
        in.names = {"ncclDevKernel_AllReduce_Sum_f32", "pg", "allreduce", "ncclDevKernel_Generic"};
        auto inGroup = [](std::int64_t stream, Ns start, Ns end, std::uint32_t name) {
            CollectiveKernel k = kernel(stream, start, end, name, 4096);
            k.group = 2; // names[1] + 1
            k.argOp = 3; // "allreduce"
            k.groupSize = 4;
            return k;
        };
        in.ranks = {rank(0, {inGroup(5, 100, 150, 0), inGroup(5, 0, 40, 0), kernel(5, 60, 70)}),
                    rank(1, {inGroup(9, 90, 170, 3), inGroup(9, 10, 40, 3), kernel(5, 61, 70)})};
        const CollectiveMatch m = matchCollectives(in);
        QCOMPARE(m.calls.size(), std::size_t(3));
        QCOMPARE(m.callsByGroup, std::int64_t(2));
        // Stream-keyed calls first (group 0), then the group's.
        QCOMPARE(m.calls[0].group, 0u);
        QCOMPARE(m.calls[0].stream, std::int64_t(5));
        QCOMPARE(m.groupOf(m.calls[0]), std::string_view());
        const CollectiveCall& c = m.calls[2];
        QCOMPARE(m.groupOf(c), std::string_view("pg"));
        QCOMPARE(c.sequence, 1);
        QCOMPARE(c.lastRank, 0);
        QCOMPARE(c.stream, std::int64_t(5)); // the last-arriving rank's stream
        QCOMPARE(c.transferNs, Ns(60));
        QCOMPARE(c.groupSize, 4);
        QCOMPARE(int(c.op), int(CollectiveOp::AllReduce));
        QCOMPARE(*c.algBwGBs, 4096.0 / 60.0);
        QCOMPARE(*c.busBwGBs, 4096.0 / 60.0 * 1.5);
        // Rank 1's kernel name says nothing; the argument's collective name gives the operation.
        QCOMPARE(int(m.calls[1].op), int(CollectiveOp::AllReduce));
    }

    void nameOutOfRangeIsEmpty() {
        CollectiveInput in;
        in.ranks = {rank(0, {kernel(1, 0, 10, 7)})};
        const CollectiveMatch m = matchCollectives(in);
        QCOMPARE(m.calls.size(), std::size_t(1));
        QCOMPARE(m.nameOf(m.calls.front()), std::string_view());
        QCOMPARE(int(m.calls.front().op), int(CollectiveOp::Unknown));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveMatcher)
#include "tst_collectivematcher.moc"
