// A run streamed part by part (ingest/RunStreamer) is the run a whole-run ingest stores: the same events
// in the same order, steps, summaries (the all-rank kernel rows included) and overview, whatever the
// number of readers, the order the parts come in, or a part whose step names decide otherwise than the run.
// Parts are hand-built one-rank traces; the reference is the same ranks merged and added as one part.
#include "StreamedRunFacts.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace cnp;
using namespace cnp::testing;

class TestRunStreamer : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void sameRunWhateverTheReaders_data() {
        QTest::addColumn<int>("jobs");
        QTest::newRow("1 reader") << 1;
        QTest::newRow("2 readers") << 2;
        QTest::newRow("5 readers") << 5;
    }
    void sameRunWhateverTheReaders() {
        QFETCH(int, jobs);
        Workspace ws(dir_.filePath("jobs" + QString::number(jobs) + ".cnpdb").toStdString(),
                     Workspace::Mode::CreateIfMissing);
        std::vector<TraceData> parts;
        for (int r = 0; r < 6; ++r)
            parts.push_back(rankPart(r, profilerSteps(3)));
        const StreamedRun s = stream(ws, parts, "streamed", jobs);
        QCOMPARE(s.passes, 1);
        QCOMPARE(s.ranks, 6);
        QCOMPARE(s.events, std::int64_t(6 * 3 * 5)); // per step: a range, 2 kernels and their 2 launches
        const RunId reference = whole(ws, parts, "whole");
        const QStringList got = describe(ws, s.runId), want = describe(ws, reference);
        QCOMPARE(got, want);
        QVERIFY(got.join('\n').contains("sk r-1 ampere_sgemm_128x64 n18"));
        QVERIFY(got.join('\n').contains("s r5 #5 ProfilerStep#5"));
    }

    // Parts whose ranks come out of order are read once to learn their ranks, then stored in rank order.
    void partsOutOfRankOrderAreStoredInRankOrder() {
        Workspace ws(dir_.filePath("order.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::vector<TraceData> parts;
        for (int r : {2, 0, 3, 1})
            parts.push_back(rankPart(r, profilerSteps(1)));
        std::atomic<int> loads{0};
        const StreamedRun s = stream(ws, parts, "shuffled", 2, &loads);
        QCOMPARE(s.passes, 2);
        QCOMPARE(loads.load(), 8);
        QCOMPARE(describe(ws, s.runId), describe(ws, whole(ws, parts, "whole")));
        const TraceData t = ws.loadRun(s.runId);
        QVERIFY(std::is_sorted(t.kernels.begin(), t.kernels.end(),
                               [](const KernelEvent& a, const KernelEvent& b) { return a.rank < b.rank; }));
    }

    // The whole run's rule (metrics/StepDetector.h): the first pattern that matches any rank is every
    // rank's. Rank 1 names its steps only "train_step": in the run, ProfilerStep# matches (rank 0), so rank 1
    // has no steps, though alone it would have had three.
    void stepPatternIsTheRunsNotThePartsOwn() {
        Workspace ws(dir_.filePath("pattern.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::vector<TraceData> parts{rankPart(0, profilerSteps(5)),
                                     rankPart(1, {"train_step", "train_step", "train_step"})};
        const StreamedRun s = stream(ws, parts, "pattern", 2);
        QCOMPARE(s.passes, 2);
        const QStringList got = describe(ws, s.runId);
        QCOMPARE(got, describe(ws, whole(ws, parts, "whole")));
        QVERIFY(got.join('\n').contains("s r0 #5 ProfilerStep#5"));
        QVERIFY(!got.join('\n').contains("s r1 "));
    }

    // One numbering per run: rank 1's numbers do not increase, so every rank's steps take their ordinals.
    void stepNumberingIsOnePerRun() {
        Workspace ws(dir_.filePath("numbers.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::vector<TraceData> parts{rankPart(0, profilerSteps(5)),
                                     rankPart(1, {"ProfilerStep#7", "ProfilerStep#3", "ProfilerStep#9"})};
        const StreamedRun s = stream(ws, parts, "numbers", 1);
        QCOMPARE(s.passes, 2);
        const QStringList got = describe(ws, s.runId);
        QCOMPARE(got, describe(ws, whole(ws, parts, "whole")));
        QVERIFY(got.join('\n').contains("s r0 #0 ProfilerStep#5"));
        QVERIFY(got.join('\n').contains("s r1 #1 ProfilerStep#3"));
    }

    // Progress never goes back, reaches 1 at the end, and moves while a part is still being read (the
    // import's own progress, before anything is stored).
    void progressRisesWhileReading() {
        Workspace ws(dir_.filePath("progress.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::vector<double> reports;
        std::mutex m;
        std::condition_variable seen;
        const ProgressSink sink{[&](double f) {
                                    std::lock_guard lock(m);
                                    reports.push_back(f);
                                    seen.notify_all();
                                },
                                nullptr};
        RunSource src;
        src.names = {"p0", "p1"};
        src.load = [&](std::size_t i, const ProgressSink& partSink) {
            partSink.report(0.5);
            // Part 0's read stays at half until the writer has reported it: half of part 0's read share
            // (kReadShare 0.5) of two parts, 0.125. The wait is bounded only so a broken build cannot hang.
            std::unique_lock lock(m);
            if (i == 0)
                seen.wait_for(lock, std::chrono::seconds(60), [&] {
                    return std::find(reports.begin(), reports.end(), 0.125) != reports.end();
                });
            return rankPart(static_cast<int>(i), profilerSteps(1));
        };
        streamRun(ws, src, "progress", 1, {}, sink);
        QVERIFY(!reports.empty());
        QVERIFY(std::is_sorted(reports.begin(), reports.end()));
        QCOMPARE(reports.back(), 1.0);
        QVERIFY(std::find(reports.begin(), reports.end(), 0.125) != reports.end());
    }

    // Readers take a further part only while the parts in flight hold at most kInFlightInputBytes of input:
    // parts that each fill it are read one at a time, the next only once the previous is stored, however
    // many readers there are.
    void inFlightInputIsBounded() {
        Workspace ws(dir_.filePath("inflight.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        RunSource src;
        src.names = {"p0", "p1", "p2", "p3"};
        src.inputBytes.assign(4, kInFlightInputBytes);
        std::atomic<int> loading{0}, mostAtOnce{0};
        src.load = [&](std::size_t i, const ProgressSink&) {
            const int now = ++loading;
            for (int seen = mostAtOnce; now > seen && !mostAtOnce.compare_exchange_weak(seen, now);)
                ;
            // Long enough that unbounded readers would overlap here; the bound does not depend on it.
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            TraceData t = rankPart(static_cast<int>(i), profilerSteps(1));
            --loading;
            return t;
        };
        const StreamedRun s = streamRun(ws, src, "inflight", 4, {});
        QCOMPARE(s.ranks, 4);
        QCOMPARE(mostAtOnce.load(), 1);
    }

    // A part that fails to load fails the run, whichever reader got there first; nothing is stored.
    void badPartLeavesTheWorkspaceAsItWas() {
        Workspace ws(dir_.filePath("bad.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        RunSource src;
        src.names = {"p0", "p1", "p2", "p3"};
        src.load = [](std::size_t i, const ProgressSink&) {
            if (i >= 2)
                throw InputError("p" + std::to_string(i), "corrupt");
            return rankPart(static_cast<int>(i), profilerSteps(1));
        };
        try {
            streamRun(ws, src, "bad", 3, {});
            QFAIL("a bad part was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QStringLiteral("p2"));
        }
        QVERIFY(ws.runs().empty());
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM kernels"), std::int64_t(0));
    }
};

QTEST_APPLESS_MAIN(TestRunStreamer)
#include "tst_runstreamer.moc"
