// Planted problems recovered (docs/synth.md, "Planted problems"; docs/metrics.md, "Stragglers"): a
// synthetic study with a slow data loader on one rank, a GPU 8 % slower on another and one slow link is
// generated, ingested through the real pipeline, matched and scored; every planted rank is named with its
// cause and no other rank is given one; host clock offsets of 100 µs to 5 ms are recovered from the
// collectives within 10 µs, with drift. The plants off leave the generated files byte-identical.
#include "core/RunAttributeKeys.h"
#include "ingest/IngestPipeline.h"
#include "requests/ClockAlignmentRequest.h"
#include "requests/CollectivesRequest.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"
#include "synth/StudyGenerator.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>

using namespace cnp;
using namespace cnp::synth;

namespace {

constexpr int kSlowLoader = 1, kSlowGpu = 4, kSlowLink = 6;

// The study file's parameters without the random per-step straggler, so only the plants slow a rank.
const SynthParams& quietStudy() {
    static const SynthParams p = [] {
        SynthParams s = SynthParams::fromFile(SynthParams::studyPath("acs-llama3-8b"));
        s.host.stragglerProbability = 0;
        return s;
    }();
    return p;
}

StudyOptions options(const QString& out, const SynthPlants& plants) {
    StudyOptions o;
    o.outDir = out.toStdString();
    o.nodes = 2;
    o.gpusPerNode = 4;
    o.steps = 4;
    o.layers = 4;
    o.seed = 5;
    o.seedSet = true;
    o.configs = {"Base"};
    o.plants = plants;
    return resolveOptions(quietStudy(), o);
}

QByteArray folderDigest(const std::string& folder) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    const QDir dir(QString::fromStdString(folder));
    for (const auto& f : dir.entryList(QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(f));
        if (file.open(QIODevice::ReadOnly))
            h.addData(file.readAll());
    }
    return h.result();
}

const RankStraggling& rankOf(const StragglerReport& r, int rank) {
    for (const auto& s : r.ranks)
        if (s.rank == rank)
            return s;
    throw std::runtime_error("no rank " + std::to_string(rank));
}

} // namespace

class TestStragglers : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    StragglersResult planted;

private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        SynthPlants plants;
        plants.slowLoaderRank = kSlowLoader;
        plants.slowLoaderExtraNs = 20'000'000;
        plants.slowGpuRank = kSlowGpu;
        plants.slowGpuFactor = 1.08;
        plants.slowLinkRank = kSlowLink;
        plants.slowLinkFactor = 1.5;
        const auto runs = generateStudy(quietStudy(), options(tmp.filePath("planted"), plants));
        Workspace ws(tmp.filePath("planted.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest r;
        r.inputs = {runs.front().folder};
        r.runName = "planted";
        r.config = "Base";
        ingest(ws, r);
        planted = computeStragglers(ws, std::string("planted"));
        for (const auto& s : planted.report.ranks) {
            std::string causes;
            for (const auto c : s.causes)
                causes += std::string(stragglerCauseName(c)) + " ";
            qInfo("rank %d last %lld/%lld late %lld gpu %.4f idle %lld/%lld compute %lld/%lld transfer %.3f: "
                  "%s",
                  s.rank, static_cast<long long>(s.lastCount), static_cast<long long>(s.calls),
                  static_cast<long long>(s.latenessNs), s.gpuTimeRatio, static_cast<long long>(s.hostIdleNs),
                  static_cast<long long>(s.medianHostIdleNs), static_cast<long long>(s.computeNs),
                  static_cast<long long>(s.medianComputeNs), s.transferRatio, causes.c_str());
        }
    }

    // 4 layers: per step 4 + 4 all-gathers (forward, backward) and 4 reduce-scatters on one stream, on 8
    // ranks.
    void everyCallMatched() {
        const CollectiveMatch& m = planted.match;
        QCOMPARE(m.ranks, 8);
        QCOMPARE(m.calls.size(), std::size_t(4 * 12));
        QCOMPARE(m.unmatchedKernels, std::int64_t(0));
        std::map<CollectiveOp, int> ops;
        for (const auto& c : m.calls) {
            ++ops[c.op];
            QCOMPARE(c.memberCount, std::size_t(8));
            QVERIFY(c.step >= 0 && c.step < 4);
        }
        QCOMPARE(ops[CollectiveOp::AllGather], 32);
        QCOMPARE(ops[CollectiveOp::ReduceScatter], 16);
    }

    void plantedCauseRecovered_data() {
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("cause");
        QTest::newRow("slow data loader") << kSlowLoader << int(StragglerCause::HostIdle);
        QTest::newRow("GPU 8 % slower") << kSlowGpu << int(StragglerCause::SlowerGpu);
        QTest::newRow("slow link") << kSlowLink << int(StragglerCause::SlowLink);
    }
    void plantedCauseRecovered() {
        QFETCH(int, rank);
        QFETCH(int, cause);
        const RankStraggling& s = rankOf(planted.report, rank);
        QCOMPARE(s.causes.size(), std::size_t(1));
        QCOMPARE(int(s.causes.front()), cause);
        QVERIFY(s.lastCount > 0);
    }

    void slowGpuMeasured() {
        // The planted 8 % on top of the GPU's own speed factor (relative sd 1 %).
        const double ratio = rankOf(planted.report, kSlowGpu).gpuTimeRatio;
        QVERIFY2(ratio > 1.05 && ratio < 1.11, qPrintable(QString::number(ratio)));
    }

    void slowLinkMeasured() {
        const double ratio = rankOf(planted.report, kSlowLink).transferRatio;
        QVERIFY2(ratio > 1.45 && ratio < 1.55, qPrintable(QString::number(ratio)));
    }

    void noOtherRankBlamed() {
        for (const auto& s : planted.report.ranks)
            if (s.rank != kSlowLoader && s.rank != kSlowGpu && s.rank != kSlowLink)
                QVERIFY2(s.causes.empty(), qPrintable(QString("rank %1").arg(s.rank)));
    }

    void plantedRanksAreTheStragglers() {
        // Every planted rank arrives last more often than any other rank.
        std::int64_t others = 0;
        for (const auto& s : planted.report.ranks)
            if (s.rank != kSlowLoader && s.rank != kSlowGpu && s.rank != kSlowLink)
                others = std::max(others, s.lastCount);
        for (const int rank : {kSlowLoader, kSlowGpu, kSlowLink})
            QVERIFY2(rankOf(planted.report, rank).lastCount > others,
                     qPrintable(QString("rank %1").arg(rank)));
    }

    // Plants off (the default) and plants at their neutral values write the same bytes: the demo's numbers
    // do not move.
    void plantsOffChangeNothing() {
        SynthPlants neutral;
        neutral.slowLoaderRank = 2;
        neutral.slowGpuRank = 3;
        neutral.slowLinkRank = 5;
        neutral.nodeClockErrorNs = {0, 0};
        neutral.nodeClockDriftPpm = {0, 0};
        const auto a = generateStudy(quietStudy(), options(tmp.filePath("off"), {}));
        const auto b = generateStudy(quietStudy(), options(tmp.filePath("neutral"), neutral));
        QCOMPARE(folderDigest(a.front().folder), folderDigest(b.front().folder));
    }

    // Host clock offsets the clock pairs carry into the aligned times (an NTP error of 100 µs to 5 ms) and
    // oscillator drifts they cannot remove (one offset per process) are recovered from the collectives'
    // departures: the fit's offset + drift x (t - t0) is within 10 µs of the planted error + drift x (t -
    // start) at every point of the trace (both lines, so at its two ends), and its drift within 1 ppm.
    void hostClockOffsetsRecovered_data() {
        QTest::addColumn<qlonglong>("errorNs");
        QTest::addColumn<double>("driftPpm");
        QTest::addColumn<QString>("stored"); // the fit: "at ingest", "erased" or "damaged" (fitted now)
        QTest::newRow("100 us") << qlonglong(100'000) << 0.0 << "at ingest";
        QTest::newRow("1.3 ms, 3 ppm") << qlonglong(1'300'000) << 3.0 << "at ingest";
        QTest::newRow("-5 ms, -5 ppm") << qlonglong(-5'000'000) << -5.0 << "at ingest";
        QTest::newRow("5 ms, 8 ppm") << qlonglong(5'000'000) << 8.0 << "at ingest";
        QTest::newRow("250 us, -40 ppm") << qlonglong(250'000) << -40.0 << "at ingest";
        QTest::newRow("-40 ppm, none stored") << qlonglong(250'000) << -40.0 << "erased";
        QTest::newRow("5 ms, 8 ppm, damaged") << qlonglong(5'000'000) << 8.0 << "damaged";
    }
    void hostClockOffsetsRecovered() {
        QFETCH(qlonglong, errorNs);
        QFETCH(double, driftPpm);
        SynthPlants plants;
        plants.nodeClockErrorNs = {0, errorNs};
        plants.nodeClockDriftPpm = {0, driftPpm};
        const QString name = QStringLiteral("clock%1_%2_%3")
                                 .arg(errorNs)
                                 .arg(driftPpm)
                                 .arg(QTest::currentDataTag())
                                 .remove(' ')
                                 .remove(',');
        const auto runs = generateStudy(quietStudy(), options(tmp.filePath(name), plants));
        Workspace ws(tmp.filePath(name + ".cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest r;
        r.inputs = {runs.front().folder};
        r.runName = "clock";
        r.config = "Base";
        ingest(ws, r);
        QFETCH(QString, stored);
        const RunId run = ws.runOrThrow(std::string("clock")).id;
        if (stored == "erased") { // a workspace ingested before the fit was stored
            Transaction tx = writeTransaction(ws);
            ws.eraseRunAttribute(run, kClockAlignmentAttribute);
            tx.commit();
        } else if (stored == "damaged") {
            Transaction tx = writeTransaction(ws);
            ws.setRunAttribute(run, kClockAlignmentAttribute, "{\"hosts\":[");
            tx.commit();
        }
        const CollectivesResult c = computeCollectives(ws, std::string("clock"));
        QCOMPARE(c.clocksStored, stored == "at ingest");
        QCOMPARE(storedClockAlignment(ws, run).has_value(), stored == "at ingest");
        QCOMPARE(c.clocks.hosts.size(), std::size_t(2));
        const HostClockEstimate& other = c.clocks.hosts[1];
        // The trace: from the run's start (true time; node 0's clock is exact) to the last departure.
        const Ns start = quietStudy().clock.startRealtimeNs;
        Ns end = start;
        for (const auto& m : c.match.members)
            end = std::max(end, m.departure);
        auto planted = [&](Ns t) { return double(errorNs) + driftPpm * 1e-6 * double(t - start); };
        auto fitted = [&](Ns t) {
            return double(other.offsetNs) + other.driftPpm * 1e-6 * double(t - c.clocks.t0);
        };
        const double offAtStart = std::abs(fitted(start) - planted(start));
        const double offAtEnd = std::abs(fitted(end) - planted(end));
        qInfo("planted %lld ns %.1f ppm over %.3f s: recovered %lld ns at t0, %.3f ppm, residual %lld ns; "
              "off by %.0f ns at the start, %.0f ns at the end",
              errorNs, driftPpm, double(end - start) * 1e-9, static_cast<long long>(other.offsetNs),
              other.driftPpm, static_cast<long long>(other.residualNs), offAtStart, offAtEnd);
        QCOMPARE(other.ranks, 4);
        // The stored fit read 3 of each host's 4 ranks; every call has all of them.
        QCOMPARE(other.calls, std::int64_t(48));
        QVERIFY2(offAtStart <= 10'000, qPrintable(QString::number(offAtStart)));
        QVERIFY2(offAtEnd <= 10'000, qPrintable(QString::number(offAtEnd)));
        QVERIFY2(std::abs(other.driftPpm - driftPpm) < 1, qPrintable(QString::number(other.driftPpm)));
        QVERIFY(c.clocks.fittedErrorNs <= 10'000);
    }

    void plantOutOfRangeRefused() {
        SynthPlants bad;
        bad.slowGpuRank = 8;
        QVERIFY_THROWS_EXCEPTION(InputError, options(tmp.filePath("bad"), bad));
        bad.slowGpuRank = 0;
        bad.slowGpuFactor = 0.5;
        QVERIFY_THROWS_EXCEPTION(InputError, options(tmp.filePath("bad"), bad));
        bad.slowGpuFactor = 1;
        bad.nodeClockErrorNs = {0, 0, 0}; // 2 nodes
        QVERIFY_THROWS_EXCEPTION(InputError, options(tmp.filePath("bad"), bad));
        bad.nodeClockErrorNs = {};
        bad.nodeClockDriftPpm = {0, 0, 0};
        QVERIFY_THROWS_EXCEPTION(InputError, options(tmp.filePath("bad"), bad));
        bad.nodeClockDriftPpm = {0, 1001};
        QVERIFY_THROWS_EXCEPTION(InputError, options(tmp.filePath("bad"), bad));
    }
};

QTEST_GUILESS_MAIN(TestStragglers)
#include "tst_stragglers.moc"
