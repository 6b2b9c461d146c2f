// Stragglers with their causes (metrics/StragglerScorer.h, docs/metrics.md "Stragglers"): hand-made
// collectives and per-rank evidence with hand-computed lateness, ratios, excesses and causes.
#include "metrics/StragglerScorer.h"

#include <QtTest>

using namespace cnp;

namespace {

CollectiveKernel kernel(Ns start, Ns end) {
    CollectiveKernel k;
    k.stream = 1;
    k.start = start;
    k.end = end;
    return k;
}

// Four calls on ranks 0-2 (arrival, departure):
//   call 0: (0,150) (10,150) (50,150)          last 2, median arrival 10, lateness 40, transfers 100 100 100
//   call 1: (1000,1130) (1005,1130) (1030,1130) last 2, lateness 25, transfers 100 100 100
//   call 2: (2000,2140) (2040,2190) (2010,2140) last 1, lateness 30, transfers 100 150 100 (median 100)
//   call 3: (3000,3120) (3010,3170) (3020,3120) last 2, lateness 10, transfers 100 150 100
// Rank 1's transfer ratios 1, 1, 1.5, 1.5: median 1.25, excess 50 + 50.
CollectiveMatch fourCalls() {
    CollectiveInput in;
    in.names = {"ncclKernel_AllReduce"};
    in.ranks = {{0, {kernel(0, 150), kernel(1000, 1130), kernel(2000, 2140), kernel(3000, 3120)}},
                {1, {kernel(10, 150), kernel(1005, 1130), kernel(2040, 2190), kernel(3010, 3170)}},
                {2, {kernel(50, 150), kernel(1030, 1130), kernel(2010, 2140), kernel(3020, 3120)}}};
    return matchCollectives(in);
}

KernelStatRow stat(const std::string& name, const std::string& category, std::int64_t count, double median) {
    KernelStatRow k;
    k.name = name;
    k.category = category;
    k.count = count;
    k.medianNs = median;
    k.totalNs = static_cast<Ns>(static_cast<double>(count) * median);
    return k;
}

// Windows of 100,000 ns: the excess floor is 1 % = 1,000 ns.
//   rank 0: gemm 10 x 100, embed 10 x 10; 5,000 ns waiting on data      -> host idle (median 1,000)
//   rank 1: as rank 0 without the data wait                              -> (slow link from the calls)
//   rank 2: gemm 10 x 110, embed 10 x 11: every kernel 1.1x              -> slower GPU, compute 1,210
//   rank 3: as rank 1 plus attention 5 x 400 (2,000 ns no other rank ran) -> longer compute
// Compute 1100, 1100, 1210, 3100: median 1155. Rank 2's GPU excess 1210 - 1210 / 1.1 = 110, residual
// 1210 - 1155 - 110 < 0. Rank 3's residual 3100 - 1155 = 1945 >= 1000.
std::vector<RankEvidenceInput> evidence() {
    std::vector<RankEvidenceInput> e(4);
    for (int r = 0; r < 4; ++r) {
        e[r].rank = r;
        e[r].windowNs = 100'000;
        e[r].dataWaitNs = 1000;
        const double f = r == 2 ? 1.1 : 1.0;
        e[r].kernels = {stat("gemm", "compute", 10, 100 * f), stat("embed", "compute", 10, 10 * f),
                        stat("ncclKernel_AllReduce", "communication", 4, 5000)};
    }
    e[0].dataWaitNs = 2000;
    e[0].launchBoundNs = 3000;
    e[3].kernels.push_back(stat("attention", "compute", 5, 400));
    return e;
}

const RankStraggling& rankOf(const StragglerReport& r, int rank) {
    for (const auto& s : r.ranks)
        if (s.rank == rank)
            return s;
    throw std::runtime_error("no rank");
}

std::vector<int> causesOf(const RankStraggling& s) {
    std::vector<int> out;
    for (const auto c : s.causes)
        out.push_back(int(c));
    return out;
}

} // namespace

class TestStragglerScorer : public QObject {
    Q_OBJECT

private slots:
    void lastArrivalsCounted() {
        const StragglerReport r = scoreStragglers(fourCalls(), evidence());
        QCOMPARE(r.calls, std::int64_t(4));
        QCOMPARE(r.medianWindowNs, Ns(100'000));
        QCOMPARE(r.ranks.size(), std::size_t(4));
        // Most often last first, then by rank.
        QCOMPARE(r.ranks[0].rank, 2);
        QCOMPARE(r.ranks[1].rank, 1);
        QCOMPARE(r.ranks[2].rank, 0);
        QCOMPARE(r.ranks[3].rank, 3);
        const RankStraggling& two = rankOf(r, 2);
        QCOMPARE(two.lastCount, std::int64_t(3));
        QCOMPARE(two.calls, std::int64_t(4));
        QCOMPARE(two.lastShare, 0.75);
        QCOMPARE(two.latenessNs, Ns(40 + 25 + 10));
        QCOMPARE(two.waitNs, Ns(0 + 0 + 30 + 0));
        QCOMPARE(rankOf(r, 1).lastCount, std::int64_t(1));
        QCOMPARE(rankOf(r, 1).latenessNs, Ns(30));
        QCOMPARE(rankOf(r, 0).waitNs, Ns(50 + 30 + 40 + 20));
        QCOMPARE(rankOf(r, 3).calls, std::int64_t(0));
    }

    void evidenceMeasured() {
        const StragglerReport r = scoreStragglers(fourCalls(), evidence());
        QCOMPARE(rankOf(r, 1).transferRatio, 1.25);
        QCOMPARE(rankOf(r, 1).transferExcessNs, Ns(100));
        QCOMPARE(rankOf(r, 0).transferRatio, 1.0);
        QCOMPARE(rankOf(r, 2).gpuTimeRatio, 1.1);
        QCOMPARE(rankOf(r, 3).gpuTimeRatio, 1.0);
        QCOMPARE(rankOf(r, 2).computeNs, Ns(1210)); // communication kernels are not compute
        QCOMPARE(rankOf(r, 3).computeNs, Ns(3100));
        QCOMPARE(rankOf(r, 3).medianComputeNs, Ns(1155));
        QCOMPARE(rankOf(r, 0).hostIdleNs, Ns(5000));
        QCOMPARE(rankOf(r, 0).medianHostIdleNs, Ns(1000));
        const auto& slower = rankOf(r, 3).slowerKernels;
        QCOMPARE(slower.size(), std::size_t(1));
        QCOMPARE(slower.front().name, std::string("attention"));
        QCOMPARE(slower.front().excessNs, Ns(2000)); // the median rank spent 0 in it
        QCOMPARE(rankOf(r, 2).slowerKernels.front().name, std::string("gemm"));
        QCOMPARE(rankOf(r, 2).slowerKernels.front().excessNs, Ns(100));
    }

    void causesDecided_data() {
        QTest::addColumn<double>("slowerGpuRatio");
        QTest::addColumn<int>("rank");
        QTest::addColumn<std::vector<int>>("causes");
        QTest::newRow("host idle") << 1.04 << 0 << std::vector<int>{int(StragglerCause::HostIdle)};
        QTest::newRow("slow link") << 1.04 << 1 << std::vector<int>{int(StragglerCause::SlowLink)};
        QTest::newRow("slower GPU") << 1.04 << 2 << std::vector<int>{int(StragglerCause::SlowerGpu)};
        QTest::newRow("longer compute") << 1.04 << 3 << std::vector<int>{int(StragglerCause::LongerCompute)};
        // 1.1 under a 1.2 threshold is no slower GPU, and its 55 ns of extra compute is under the floor.
        QTest::newRow("GPU under threshold") << 1.2 << 2 << std::vector<int>{};
    }
    void causesDecided() {
        QFETCH(double, slowerGpuRatio);
        QFETCH(int, rank);
        QFETCH(std::vector<int>, causes);
        StragglerThresholds t;
        t.slowerGpuRatio = slowerGpuRatio;
        QCOMPARE(causesOf(rankOf(scoreStragglers(fourCalls(), evidence(), t), rank)), causes);
    }

    // Without evidence the calls still name the stragglers, and no cause is guessed.
    void callsAlone() {
        const StragglerReport r = scoreStragglers(fourCalls(), {});
        QCOMPARE(r.ranks.size(), std::size_t(3));
        QCOMPARE(r.ranks.front().rank, 2);
        QCOMPARE(causesOf(rankOf(r, 2)), std::vector<int>{});
        QCOMPARE(causesOf(rankOf(r, 1)), std::vector<int>{int(StragglerCause::SlowLink)});
    }

    void causeNames() {
        QCOMPARE(stragglerCauseName(StragglerCause::LongerCompute), std::string_view("longer-compute"));
        QCOMPARE(stragglerCauseName(StragglerCause::HostIdle), std::string_view("host-idle"));
        QCOMPARE(stragglerCauseName(StragglerCause::SlowerGpu), std::string_view("slower-gpu"));
        QCOMPARE(stragglerCauseName(StragglerCause::SlowLink), std::string_view("slow-link"));
    }
};

QTEST_GUILESS_MAIN(TestStragglerScorer)
#include "tst_stragglerscorer.moc"
