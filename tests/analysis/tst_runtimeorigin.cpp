// runTimeOrigin(): the run start every page counts from equals the timeline's runStart, whichever
// event table holds the run's earliest event (by hand below), and ignores other runs' events.
#include "store/RunTimeOrigin.h"
#include "store/Workspace.h"
#include "timeline/TimelineLoader.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

namespace {

// A kernel [5000, 6000), an API call [4000, 4100), a step CPU [3000, 7000) GPU [5000, 6000), a counter
// sample at 8000; `earliest` moves one of them (by table) to start at 100.
TraceData trace(const QString& earliest) {
    TraceData t;
    t.info.name = earliest.toStdString();
    t.info.config = "c";
    t.info.sourceFormat = "synthetic";
    t.ranks.push_back(RankInfo{});
    const Ns shift = 100;
    KernelEvent k;
    k.start = earliest == "kernels" ? shift : 5000;
    k.end = k.start + 1000;
    k.stream = 7;
    k.name = t.strings.intern("k");
    k.category = t.strings.intern("gemm");
    t.kernels.push_back(k);
    ApiCall a;
    a.start = earliest == "api_calls" ? shift : 4000;
    a.end = a.start + 100;
    a.tid = 1;
    a.name = t.strings.intern("cudaLaunchKernel");
    t.apiCalls.push_back(a);
    CounterSample c;
    c.ts = earliest == "counters" ? shift : 8000;
    c.value = 1;
    c.name = t.strings.intern("mem");
    t.counters.push_back(c);
    StepRange s;
    s.name = t.strings.intern("ProfilerStep#0");
    s.cpuStart = earliest == "steps (cpu, no gpu)" ? shift : 3000;
    s.cpuEnd = 7000;
    s.gpuStart = earliest == "steps (cpu, no gpu)" ? -1 : 5000;
    s.gpuEnd = earliest == "steps (cpu, no gpu)" ? -1 : 6000;
    t.steps.push_back(s);
    return t;
}

} // namespace

class TestRunTimeOrigin : public QObject {
    Q_OBJECT
private slots:
    void originIsTimelineRunStart_data() {
        QTest::addColumn<QString>("earliest");
        QTest::addColumn<qint64>("origin");
        QTest::newRow("api call") << "api_calls" << qint64(100);
        QTest::newRow("kernel") << "kernels" << qint64(100);
        QTest::newRow("counter sample") << "counters" << qint64(100);
        // A step without GPU work is drawn from its CPU start.
        QTest::newRow("CPU-only step") << "steps (cpu, no gpu)" << qint64(100);
        // Otherwise the API call at 4000 is first (the step's CPU start 3000 is not drawn).
        QTest::newRow("none moved") << "none" << qint64(4000);
    }
    void originIsTimelineRunStart() {
        QFETCH(QString, earliest);
        QFETCH(qint64, origin);
        QTemporaryDir dir;
        Workspace ws(dir.filePath("w.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        RunId other, run;
        {
            Transaction tx(ws.db());
            TraceData before = trace("kernels"); // another run, earlier events: must not count
            before.info.name = "other";
            other = ws.insertRun(before);
            run = ws.insertRun(trace(earliest));
            tx.commit();
        }
        QCOMPARE(runTimeOrigin(ws, run), Ns(origin));
        QCOMPARE(runTimeOrigin(ws, run), timeline::loadTimeline(ws, run, {}).runStart);
        QCOMPARE(runTimeOrigin(ws, other), Ns(100));
        QCOMPARE(runTimeOrigin(ws, RunId(999)), Ns(0));
    }
};

QTEST_APPLESS_MAIN(TestRunTimeOrigin)
#include "tst_runtimeorigin.moc"
