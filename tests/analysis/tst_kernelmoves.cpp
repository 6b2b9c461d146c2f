// KernelMoves (docs/metrics.md, "Regression gate", "What moved"): a configuration's runs' kernel statistics
// reduced to time per rank-step (by hand), the kernels that moved most between two releases with their
// share of the step-time change, the summary JSON's optional "kernels" (round trip, and a summary without
// it still reads), and a history of hand-built releases whose candidate makes one named kernel 2 ms per
// step slower: `cnp check`'s comparison (checkHistoryRelease) names it first.
#include "core/InputError.h"
#include "history/HistoryGate.h"
#include "history/HistoryManifest.h"
#include "history/ReleaseSummaryJson.h"
#include "metrics/KernelMoves.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace cnp;

namespace {

KernelStatRow row(const std::string& name, Ns total) {
    KernelStatRow r;
    r.name = name;
    r.totalNs = total;
    r.count = 1;
    return r;
}

// One configuration, one run of 20 steps around `stepMs` (+-0.2 %), and three kernels per step.
ConfigReleaseSummary config(double stepMs, double slowKernelMs) {
    ConfigReleaseSummary c;
    c.config = "Base";
    c.worldSize = 2;
    c.runs = {"Base-r0"};
    const auto level = static_cast<Ns>(stepMs * 1e6);
    std::vector<Ns> steps;
    for (int i = 0; i < 20; ++i)
        steps.push_back(level + level / 500 * ((i * 7) % 5 - 2));
    c.stepTimesByRun = {steps};
    c.medianStepNs = level;
    c.throughputUnit = "steps/s";
    c.throughput = 1e9 / static_cast<double>(level);
    c.kernels = {{"ampere_sgemm_128x64_nn", 40e6},
                 {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 30e6},
                 {"flash_fwd_kernel", slowKernelMs * 1e6},
                 {"elementwise_kernel", 5e6}};
    return c;
}

} // namespace

class TestKernelMoves : public QObject {
    Q_OBJECT
private slots:
    void perStepTimes();
    void movesAndShares();
    void olderSummaryHasNoKernels();
    void jsonRoundTripAndBounds();
    void slowerKernelNamedFirst();
};

void TestKernelMoves::perStepTimes() {
    // Run 1: 2 ranks x 10 steps = 20 rank-steps; run 2: 2 ranks x 5 steps = 10. gemm: 600 + 300 ms over
    // 30 rank-steps = 30 ms per step; nccl only in run 1: 150 ms / 30 = 5 ms; tiny: 3 ms / 30 = 0.1 ms.
    const std::vector<KernelStatRow> run1{row("gemm", 600'000'000), row("nccl", 150'000'000)};
    const std::vector<KernelStatRow> run2{row("gemm", 300'000'000), row("tiny", 3'000'000)};
    const auto k = kernelsPerStep({{&run1, 20}, {&run2, 10}}, 2);
    QCOMPARE(k.size(), std::size_t{2}); // the top 2 only
    QCOMPARE(k[0].name, std::string("gemm"));
    QCOMPARE(k[0].nsPerStep, 30e6);
    QCOMPARE(k[1].name, std::string("nccl"));
    QCOMPARE(k[1].nsPerStep, 5e6);
    // A run without steps counts one per rank, never divides by 0.
    const auto none = kernelsPerStep({{&run2, 0}}, 5);
    QCOMPARE(none.front().nsPerStep, 300e6);
}

void TestKernelMoves::movesAndShares() {
    const std::vector<ReleaseKernel> base{{"a", 10e6}, {"b", 5e6}, {"c", 1e6}, {"gone", 2e6}};
    const std::vector<ReleaseKernel> cand{{"a", 12e6}, {"b", 4.5e6}, {"c", 1e6}, {"new", 0.5e6}};
    // Step time 100 ms -> 102 ms: a's +2 ms is 100 % of it, gone's -2 ms -100 %, b's -0.5 ms -25 %.
    const auto m = kernelMoves(base, cand, 100e6, 2e6, 3);
    QCOMPARE(m.size(), std::size_t{3});
    QCOMPARE(m[0].kernel, std::string("a")); // |+2| ties |-2|: name order
    QCOMPARE(m[0].deltaNs(), 2e6);
    QVERIFY(m[0].hasShare);
    QCOMPARE(m[0].share, 1.0);
    QCOMPARE(m[1].kernel, std::string("gone"));
    QCOMPARE(m[1].candidateNsPerStep, 0.0);
    QCOMPARE(m[1].share, -1.0);
    QCOMPARE(m[2].kernel, std::string("b"));
    QCOMPARE(m[2].share, -0.25);
    // c did not move: never listed, even with room.
    for (const auto& x : kernelMoves(base, cand, 100e6, 2e6, 10))
        QVERIFY(x.kernel != "c");
    // A step-time change under 0.1 % has no share.
    const auto flat = kernelMoves(base, cand, 100e6, 50'000, 1);
    QVERIFY(!flat.front().hasShare);
}

void TestKernelMoves::olderSummaryHasNoKernels() {
    QVERIFY(kernelMoves({}, {{"a", 1}}, 100, 10, 3).empty());
    QVERIFY(kernelMoves({{"a", 1}}, {}, 100, 10, 3).empty());
}

void TestKernelMoves::jsonRoundTripAndBounds() {
    ReleaseSummary s;
    s.configs = {config(100, 10)};
    const ReleaseSummary back = releaseSummaryFromJson(releaseSummaryToJson(s), "s.json");
    QCOMPARE(back.configs[0].kernels.size(), std::size_t{4});
    QCOMPARE(back.configs[0].kernels[2].name, std::string("flash_fwd_kernel"));
    QCOMPARE(back.configs[0].kernels[2].nsPerStep, 10e6);
    // Without "kernels" (a summary written before they were kept): reads, with none.
    std::string text = releaseSummaryToJson(s);
    const auto at = text.find(",\"kernels\":[");
    QVERIFY(at != std::string::npos);
    text.erase(at, text.find(']', at) - at + 1);
    QVERIFY(releaseSummaryFromJson(text, "old.json").configs[0].kernels.empty());
    // Too many kernels, a negative time, a name that is not a string: refused, naming the file.
    s.configs[0].kernels.assign(kMaxSummaryKernels + 1, {"k", 1});
    QVERIFY_THROWS_EXCEPTION(InputError, releaseSummaryFromJson(releaseSummaryToJson(s), "big.json"));
    s.configs[0].kernels = {{"k", -1}};
    try {
        releaseSummaryFromJson(releaseSummaryToJson(s), "neg.json");
        QFAIL("a negative time was accepted");
    } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find("neg.json") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("nsPerStep") != std::string::npos, e.what());
    }
    std::string bad = releaseSummaryToJson(s);
    bad.replace(bad.find("\"name\":\"k\""), 10, "\"name\":12 ");
    QVERIFY_THROWS_EXCEPTION(InputError, releaseSummaryFromJson(bad, "bad.json"));
}

void TestKernelMoves::slowerKernelNamedFirst() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    HistoryManifest h = HistoryManifest::openOrCreate(dir.filePath("h").toStdString());
    // Three releases at 100 ms with flash_fwd_kernel at 10 ms per step; the candidate at 103 ms with it
    // at 13 ms (the other kernels unchanged but for gemm's -0.5 ms).
    for (int i = 0; i < 4; ++i) {
        ReleaseSummary s;
        s.configs = {i < 3 ? config(100, 10) : config(103, 13)};
        if (i == 3)
            s.configs[0].kernels[0].nsPerStep = 39.5e6;
        HistoryEntry e;
        e.release = "r" + std::to_string(i);
        e.study = "/studies/r" + std::to_string(i) + ".cnpdb";
        h.add(e);
        writeReleaseSummary(s, h.summaryPath(h.entries().back()).string());
    }
    h.save();
    const auto check = checkHistoryRelease(HistoryManifest::open(dir.filePath("h").toStdString()), 3, 5,
                                           {*gateMetricFrom("step_time")}, GateOptions{});
    QCOMPARE(check.checks.size(), std::size_t{1});
    const auto& moved = check.checks[0].kernelsMoved;
    QCOMPARE(moved.size(), std::size_t{2});
    QCOMPARE(moved[0].kernel, std::string("flash_fwd_kernel"));
    QCOMPARE(moved[0].baselineNsPerStep, 10e6);
    QCOMPARE(moved[0].candidateNsPerStep, 13e6);
    QVERIFY(moved[0].hasShare);
    QVERIFY(std::abs(moved[0].share - 1.0) < 1e-12); // +3 ms of a +3 ms step-time change
    QCOMPARE(moved[1].kernel, std::string("ampere_sgemm_128x64_nn"));
    QVERIFY(std::abs(moved[1].share + 0.5 / 3) < 1e-12);
    QVERIFY(check.checks[0].outcome.verdict == GateVerdict::Regression); // +3 %, beyond the 2 % tolerance
}

QTEST_MAIN(TestKernelMoves)
#include "tst_kernelmoves.moc"
