// Exposed versus overlapped communication per kernel (metrics/CommunicationOverlap.h) and its sums per
// operation and message size (metrics/CollectiveEfficiency.h, docs/metrics.md "Collective efficiency"):
// hand-made compute and communication kernels overlapping by known amounts, first on the pure function,
// then through ingest and `computeCollectives` (the store's one scan of each rank's kernels).
#include "ingest/IngestPipeline.h"
#include "metrics/CommunicationOverlap.h"
#include "requests/CollectivesRequest.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

namespace {

using Intervals = std::vector<std::pair<Ns, Ns>>;

constexpr Ns kBase = 1'700'000'000'000'000'000; // an absolute start, ns

const CollectiveEfficiencyRow* rowOf(const CollectivesResult& r, CollectiveOp op) {
    for (const auto& e : r.efficiency)
        if (e.op == op)
            return &e;
    return nullptr;
}

} // namespace

class TestCommunicationOverlap : public QObject {
    Q_OBJECT

private slots:
    // One communication kernel [100, 200) against compute intervals; the expected overlap by hand.
    void overlapOfOneKernel_data() {
        QTest::addColumn<Intervals>("compute");
        QTest::addColumn<qlonglong>("overlapped");
        QTest::newRow("none") << Intervals{} << 0LL;
        QTest::newRow("before and after only") << Intervals{{0, 100}, {200, 300}} << 0LL;
        QTest::newRow("covers it") << Intervals{{50, 250}} << 100LL;
        QTest::newRow("inside it") << Intervals{{120, 130}, {150, 170}} << 30LL;
        QTest::newRow("straddles both ends") << Intervals{{90, 110}, {190, 400}} << 20LL;
        // Overlapping compute intervals (two streams) count once: [110, 160) is 50.
        QTest::newRow("overlapping compute") << Intervals{{110, 150}, {120, 160}, {130, 140}} << 50LL;
        QTest::newRow("unsorted, touching") << Intervals{{150, 180}, {120, 150}} << 60LL;
        QTest::newRow("reversed interval ignored") << Intervals{{180, 120}, {100, 101}} << 1LL;
    }
    void overlapOfOneKernel() {
        QFETCH(Intervals, compute);
        QFETCH(qlonglong, overlapped);
        RankCollectives rank;
        CollectiveKernel k;
        k.start = 100;
        k.end = 200;
        k.overlappedNs = 999; // recomputed, not added to
        rank.kernels = {k};
        setCommunicationOverlap(rank, compute);
        QCOMPARE(rank.kernels[0].overlappedNs, Ns(overlapped));
    }

    // Several kernels against one set of compute intervals: each its own part.
    void severalKernels() {
        RankCollectives rank;
        for (const auto& [s, e] : Intervals{{0, 10}, {40, 200}, {190, 195}, {500, 600}}) {
            CollectiveKernel k;
            k.start = s;
            k.end = e;
            rank.kernels.push_back(k);
        }
        setCommunicationOverlap(rank, {{5, 50}, {100, 192}, {550, 700}});
        // [0,10): 5; [40,200): 10 + 92; [190,195): 2; [500,600): 50.
        QCOMPARE(rank.kernels[0].overlappedNs, Ns(5));
        QCOMPARE(rank.kernels[1].overlappedNs, Ns(102));
        QCOMPARE(rank.kernels[2].overlappedNs, Ns(2));
        QCOMPARE(rank.kernels[3].overlappedNs, Ns(50));
    }

    // Two ranks ingested; per operation (sizes unknown: one bucket each) the members' kernel time, and of
    // it the part under their own rank's compute kernels (µs after kBase):
    //   rank 0: compute [0,100) and [150,300) on stream 7; all-reduce [50,200): overlapped 50 + 50 = 100;
    //           all-gather [400,500): 0.
    //   rank 1: compute [0,60) and [40,120) on stream 7, [460,470) on stream 9; all-reduce [100,200):
    //           overlapped 20; all-gather [450,500): 10. Rank 0's compute does not count for rank 1.
    //   all_reduce: kernel 150 + 100 = 250, overlapped 120, exposed 130;
    //   all_gather: kernel 100 + 50 = 150, overlapped 10, exposed 140.
    void perOperationThroughTheStore() {
        QTemporaryDir dir;
        Workspace ws(dir.filePath("ws.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        TraceData t;
        t.info.name = "overlap";
        for (int r = 0; r < 2; ++r) {
            RankInfo info;
            info.rank = r;
            info.rankClaimed = true;
            info.host = "node";
            t.ranks.push_back(info);
        }
        const StringId gemm = t.strings.intern("sm90_xmma_gemm_bf16");
        const StringId allReduce = t.strings.intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
        const StringId allGather = t.strings.intern("ncclDevKernel_AllGather_RING_LL");
        auto kernel = [&](int rank, Ns startUs, Ns endUs, std::int64_t stream, StringId name) {
            KernelEvent k;
            k.rank = rank;
            k.start = kBase + startUs * 1000;
            k.end = kBase + endUs * 1000;
            k.stream = stream;
            k.name = name;
            t.kernels.push_back(k);
        };
        kernel(0, 0, 100, 7, gemm);
        kernel(0, 150, 300, 7, gemm);
        kernel(0, 50, 200, 13, allReduce);
        kernel(0, 400, 500, 13, allGather);
        kernel(1, 0, 60, 7, gemm);
        kernel(1, 40, 120, 7, gemm);
        kernel(1, 460, 470, 9, gemm);
        kernel(1, 100, 200, 13, allReduce);
        kernel(1, 450, 500, 13, allGather);
        addTrace(ws, std::move(t));
        const CollectivesResult r = computeCollectives(ws, std::string("overlap"));
        QCOMPARE(r.match.calls.size(), std::size_t(2));
        const auto* ar = rowOf(r, CollectiveOp::AllReduce);
        const auto* ag = rowOf(r, CollectiveOp::AllGather);
        QVERIFY(ar && ag);
        QCOMPARE(ar->kernelNs, Ns(250'000));
        QCOMPARE(ar->overlappedNs, Ns(120'000));
        QCOMPARE(ar->exposedNs(), Ns(130'000));
        QCOMPARE(*ar->overlapShare(), 120.0 / 250.0);
        QCOMPARE(ag->kernelNs, Ns(150'000));
        QCOMPARE(ag->overlappedNs, Ns(10'000));
        QCOMPARE(ag->exposedNs(), Ns(140'000));
    }
};

QTEST_GUILESS_MAIN(TestCommunicationOverlap)
#include "tst_communicationoverlap.moc"
