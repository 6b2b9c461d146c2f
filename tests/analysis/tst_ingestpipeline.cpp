// The ingest pipeline: input expansion, nesting depth, rank assignment across files, atomicity.
#include "TestPaths.h"
#include "TestTraces.h"

#include "core/InputError.h"
#include "ingest/IngestPipeline.h"
#include "requests/SummaryRequests.h"
#include "store/Workspace.h"
#include "timeline/TimelineLoader.h"
#include "timeline/TimelineOverview.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace cnp;

class TestIngestPipeline : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    const std::string demoBase_ =
        (testpaths::sourceDir() + "/resources/demo/demo_base.json.gz").toStdString();

private slots:
    void depthFollowsNesting_data() {
        QTest::addColumn<QList<qint64>>("starts");
        QTest::addColumn<QList<qint64>>("ends");
        QTest::addColumn<QList<int>>("depths");
        // [0,100) encloses [10,50) which encloses [20,30); [50,60) touches [10,50) and is its sibling.
        QTest::newRow("nested and touching")
            << QList<qint64>{0, 10, 20, 50} << QList<qint64>{100, 50, 30, 60} << QList<int>{0, 1, 2, 1};
        // Same start: the longer range encloses the shorter one.
        QTest::newRow("same start") << QList<qint64>{0, 0} << QList<qint64>{10, 100} << QList<int>{1, 0};
        QTest::newRow("disjoint") << QList<qint64>{0, 10, 20} << QList<qint64>{5, 15, 25}
                                  << QList<int>{0, 0, 0};
    }
    void depthFollowsNesting() {
        QFETCH(QList<qint64>, starts);
        QFETCH(QList<qint64>, ends);
        QFETCH(QList<int>, depths);
        TraceData t;
        for (int i = 0; i < starts.size(); ++i) {
            CpuRange r;
            r.start = starts[i];
            r.end = ends[i];
            r.name = t.strings.intern("r" + std::to_string(i));
            t.cpuRanges.push_back(r);
        }
        normaliseTrace(t);
        // After sorting, find each range by its name and compare depth.
        for (const auto& r : t.cpuRanges) {
            const int i = std::stoi(t.strings.at(r.name).substr(1));
            QCOMPARE(r.depth, depths[i]);
        }
    }

    void depthIsPerThread() {
        TraceData t;
        for (int tid : {1, 2}) {
            CpuRange r;
            r.start = 0;
            r.end = 100;
            r.tid = tid;
            t.cpuRanges.push_back(r);
        }
        normaliseTrace(t);
        QCOMPARE(t.cpuRanges[0].depth, 0);
        QCOMPARE(t.cpuRanges[1].depth, 0);
    }

    void folderBecomesOneMultiRankRun() {
        // Two copies of the same single-rank trace: the second file's rank clashes and takes rank 1.
        QDir d(dir_.path());
        QVERIFY(d.mkpath("ranks"));
        QVERIFY(QFile::copy(QString::fromStdString(demoBase_), d.filePath("ranks/a.json.gz")));
        QVERIFY(QFile::copy(QString::fromStdString(demoBase_), d.filePath("ranks/b.json.gz")));
        QFile junk(d.filePath("ranks/notes.txt")); // not a trace file: ignored
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.close();
        Workspace ws(d.filePath("m.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {d.filePath("ranks").toStdString()};
        req.runName = "two";
        const auto res = ingest(ws, req);
        QCOMPARE(res.ranks, 2);
        QCOMPARE(res.files.size(), std::size_t(2));
        const auto run = ws.runOrThrow("two");
        QCOMPARE(run.rankCount, 2);
        QCOMPARE(run.kernelCount, std::int64_t(2 * 4165));
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(DISTINCT rank) FROM kernels"), std::int64_t(2));

        // The timeline overview written at ingest (from the in-memory trace, while the events were
        // inserted on the worker thread) equals one made from the run read back from the workspace.
        const auto stored = timeline::loadOverview(ws, run.id);
        QVERIFY(stored);
        const auto fromDb = timeline::makeOverview(timeline::loadTimeline(ws, run.id));
        QCOMPARE(stored->rows.size(), fromDb.rows.size());
        QCOMPARE(stored->eventCount(), fromDb.eventCount());
        QVERIFY(stored->eventCount() > 0);

        // The summaries computed in parallel with the insert equal a sequential rebuild from the stored run.
        auto digest = [&] {
            std::vector<std::int64_t> d;
            for (const char* t : {"summary_rank", "summary_step", "summary_exclusive", "summary_kernel",
                                  "summary_gap_pack"}) {
                d.push_back(queryInt(ws.db(), std::string("SELECT COUNT(*) FROM ") + t));
                d.push_back(queryInt(ws.db(), std::string("SELECT TOTAL(rank * 7 + run_id) FROM ") + t));
            }
            d.push_back(
                queryInt(ws.db(), "SELECT SUM(kernel_time_ns + compute_ns + idle_ns) FROM summary_rank"));
            d.push_back(queryInt(ws.db(), "SELECT SUM(exclusive_ns) FROM summary_exclusive"));
            d.push_back(queryInt(ws.db(), "SELECT SUM(total_ns * name_id) FROM summary_kernel"));
            return d;
        };
        const auto before = digest();
        {
            Transaction tx(ws.db());
            rebuildRunSummaries(ws, run.id);
            tx.commit();
        }
        QCOMPARE(digest(), before);
    }

    void badSecondFileLeavesWorkspaceUnchanged() {
        QDir d(dir_.path());
        QFile bad(d.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"traceEvents\": [");
        bad.close();
        Workspace ws(d.filePath("u.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {demoBase_, bad.fileName().toStdString()};
        QVERIFY_THROWS_EXCEPTION(InputError, ingest(ws, req));
        QVERIFY(ws.runs().empty());
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM kernels"), std::int64_t(0));
    }

    // Files read on 1, 2 or 3 threads make the same run: the event rows in the same order with the same
    // values, the same steps and summaries (three files: two ranks of trace_filter and the demo trace).
    void parallelReadersMakeTheSameRun() {
        Workspace ws(dir_.filePath("jobs.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        const std::string filter = (testpaths::dataDir() + "/hta/trace_filter").toStdString();
        std::map<int, std::vector<std::int64_t>> digests;
        for (int jobs : {1, 2, 3}) {
            IngestRequest req;
            req.inputs = {filter, demoBase_};
            req.runName = "jobs" + std::to_string(jobs);
            req.jobs = jobs;
            const RunId id = ingest(ws, req).runId;
            const std::string run = std::to_string(id.value());
            std::vector<std::int64_t>& d = digests[jobs];
            for (const char* t : {"kernels", "api_calls", "cpu_ranges", "flows"}) {
                const std::string table(t),
                    first = "(SELECT MIN(id) FROM " + table + " WHERE run_id = " + run + ")";
                d.push_back(queryInt(ws.db(), "SELECT COUNT(*) FROM " + table + " WHERE run_id = " + run));
                d.push_back(queryInt(ws.db(), "SELECT SUM((id - " + first + " + 1) * (rank + 3) * (" +
                                                  (table == "flows" ? "correlation" : "start_ns + name_id") +
                                                  " % 1000003)) FROM " + table + " WHERE run_id = " + run));
            }
            for (const char* t : {"steps", "summary_step", "summary_kernel", "summary_gap_pack"})
                d.push_back(
                    queryInt(ws.db(), std::string("SELECT COUNT(*) FROM ") + t + " WHERE run_id = " + run));
            d.push_back(queryInt(ws.db(), "SELECT SUM(total_ns * (rank + 2) * name_id) FROM summary_kernel "
                                          "WHERE run_id = " +
                                              run));
            d.push_back(queryInt(ws.db(), "SELECT SUM(kernel_time_ns * (rank + 2)) FROM summary_rank WHERE "
                                          "run_id = " +
                                              run));
        }
        QCOMPARE(digests[1].front(), queryInt(ws.db(), "SELECT kernel_count FROM runs WHERE name = 'jobs1'"));
        QVERIFY(digests[1].front() > 4165);
        QCOMPARE(digests[2], digests[1]);
        QCOMPARE(digests[3], digests[1]);
    }

    // Whatever the number of readers and whichever fails first in time, the error names the first bad
    // file in file order, and the workspace holds no run.
    void firstBadFileInOrderIsReported_data() {
        QTest::addColumn<int>("jobs");
        QTest::newRow("1 reader") << 1;
        QTest::newRow("4 readers") << 4;
    }
    void firstBadFileInOrderIsReported() {
        QFETCH(int, jobs);
        QDir d(dir_.path());
        for (const char* name : {"bad1.json", "bad2.json"}) {
            QFile bad(d.filePath(name));
            QVERIFY(bad.open(QIODevice::WriteOnly));
            bad.write(name[3] == '1' ? "{\"traceEvents\": [" : "{\"traceEvents\": 7}");
        }
        Workspace ws(d.filePath("bad" + QString::number(jobs) + ".cnpdb").toStdString(),
                     Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {demoBase_, d.filePath("bad1.json").toStdString(), demoBase_,
                      d.filePath("bad2.json").toStdString()};
        req.jobs = jobs;
        try {
            ingest(ws, req);
            QFAIL("bad files were accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), d.filePath("bad1.json"));
        }
        QVERIFY(ws.runs().empty());
    }

    // Two traces whose sources both name rank 1 (distributedInfo.rank) are two attempts or two jobs mixed
    // in one folder: refused, naming both files, and nothing is stored. Traces without a rank of their own
    // still take the next free rank (folderBecomesOneMultiRankRun).
    void twoFilesClaimingOneRankAreRefused() {
        QDir d(dir_.path());
        QVERIFY(d.mkpath("mixed"));
        const QString rank1 = testpaths::dataDir() + "/hta/trace_filter/sampled_rank-1.json.gz";
        QVERIFY(QFile::copy(rank1, d.filePath("mixed/attempt1-rank-1.json.gz")));
        QVERIFY(QFile::copy(rank1, d.filePath("mixed/attempt2-rank-1.json.gz")));
        Workspace ws(d.filePath("mixed.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {d.filePath("mixed").toStdString()};
        try {
            ingest(ws, req);
            QFAIL("two traces of rank 1 were accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), d.filePath("mixed/attempt2-rank-1.json.gz"));
            QVERIFY2(e.message().find("claims rank 1, as " +
                                      d.filePath("mixed/attempt1-rank-1.json.gz").toStdString()) == 0,
                     e.message().c_str());
        }
        QVERIFY(ws.runs().empty());
    }

    // Files whose names sort against their ranks are read in the order of the ranks their first bytes
    // state (Kineto distributedInfo), so the run is stored in one pass, the same as from well-named files.
    void rankHintsOrderTheFiles() {
        QDir d(dir_.path());
        QVERIFY(d.mkpath("hinted"));
        const QString src = testpaths::dataDir() + "/hta/trace_filter/";
        QCOMPARE(rankHintOf((src + "sampled_rank-0.json.gz").toStdString()), 0);
        QCOMPARE(rankHintOf((src + "sampled_rank-1.json.gz").toStdString()), 1);
        QCOMPARE(rankHintOf(demoBase_), -1); // a single-GPU trace without distributedInfo
        QVERIFY(QFile::copy(src + "sampled_rank-0.json.gz", d.filePath("hinted/b.json.gz")));
        QVERIFY(QFile::copy(src + "sampled_rank-1.json.gz", d.filePath("hinted/a.json.gz")));
        Workspace ws(d.filePath("hinted.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {d.filePath("hinted").toStdString()};
        req.runName = "hinted";
        const auto res = ingest(ws, req);
        for (const auto& n : res.notes)
            QVERIFY2(n.find("read 2 times") == std::string::npos, n.c_str());
        QCOMPARE(res.ranks, 2);
        const TraceData t = ws.loadRun(res.runId);
        QVERIFY(std::is_sorted(t.kernels.begin(), t.kernels.end(),
                               [](const KernelEvent& a, const KernelEvent& b) { return a.rank < b.rank; }));
        QCOMPARE(t.kernels.front().rank, 0);
        QCOMPARE(t.kernels.back().rank, 1);
    }

    void missingInputNamesThePath() {
        try {
            expandInputs({"/no/such/trace.json"});
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QStringLiteral("/no/such/trace.json"));
        }
    }

    void cancelledIngestLeavesNoRun() {
        Workspace ws(dir_.filePath("c.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::atomic<bool> cancel{false};
        int reports = 0;
        ProgressSink sink{[&](double) {
                              if (++reports == 2)
                                  cancel = true;
                          },
                          &cancel};
        IngestRequest req;
        req.inputs = {demoBase_};
        QVERIFY_THROWS_EXCEPTION(Cancelled, ingest(ws, req, sink));
        QVERIFY(ws.runs().empty());
    }
};

QTEST_APPLESS_MAIN(TestIngestPipeline)
#include "tst_ingestpipeline.moc"
