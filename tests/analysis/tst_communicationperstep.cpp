// Exposed versus overlapped communication per step (metrics/CommunicationPerStep.h): hand-made step
// summaries, means over the ranks with GPU work computed by hand.
#include "metrics/CommunicationPerStep.h"

#include <QtTest>

using namespace cnp;

namespace {

StepSummary step(std::int32_t rank, std::int32_t index, Ns exposed, Ns overlapped, bool gpu = true) {
    StepSummary s;
    s.rank = rank;
    s.index = index;
    s.cpuStart = 0;
    s.cpuEnd = 100;
    s.gpuStart = gpu ? 0 : -1;
    s.gpuEnd = gpu ? 100 : -1;
    s.breakdown.communication = exposed;
    s.breakdown.overlap = overlapped;
    return s;
}

} // namespace

class TestCommunicationPerStep : public QObject {
    Q_OBJECT

private slots:
    // Step 0: ranks 0 and 1 expose 10 and 21 (mean 15, rounded down), overlap 30 and 50 (mean 40): share
    // 40 / 55. Step 1: rank 1 has no GPU work, so only rank 0 counts; no communication: no share.
    // Step 2: no rank with GPU work: left out.
    void meansOverRanksWithGpuWork() {
        const auto out = communicationPerStep({step(0, 0, 10, 30), step(1, 0, 21, 50), step(0, 1, 0, 0),
                                               step(1, 1, 99, 99, false), step(0, 2, 5, 5, false)});
        QCOMPARE(out.size(), std::size_t(2));
        QCOMPARE(out[0].step, 0);
        QCOMPARE(out[0].ranks, 2);
        QCOMPARE(out[0].exposedNs, Ns(15));
        QCOMPARE(out[0].overlappedNs, Ns(40));
        QCOMPARE(*out[0].overlapShare(), 40.0 / 55.0);
        QCOMPARE(out[1].step, 1);
        QCOMPARE(out[1].ranks, 1);
        QVERIFY(!out[1].overlapShare());
        QVERIFY(communicationPerStep({}).empty());
    }
};

QTEST_GUILESS_MAIN(TestCommunicationPerStep)
#include "tst_communicationperstep.moc"
