// Workspace store: schema creation, insert/load round trip, run editing, atomicity, refusal of bad files.
#include "TestTraces.h"

#include "core/InputError.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace cnp;

class TestWorkspace : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

    static std::int64_t insert(Workspace& ws, TraceData t) {
        normaliseTrace(t);
        Transaction tx(ws.db());
        const auto id = ws.insertRun(t);
        tx.commit();
        return id;
    }

private slots:
    void createsSchemaVersion1() {
        Workspace ws(path("a.cnpdb"), Workspace::Mode::CreateIfMissing);
        QCOMPARE(ws.schemaVersion(), 1);
        Statement st(ws.db(), "PRAGMA journal_mode");
        QVERIFY(st.step());
        QCOMPARE(QString::fromStdString(st.text(0)), QStringLiteral("wal"));
        QVERIFY(ws.runs().empty());
    }

    void roundTripKeepsEveryField() {
        Workspace ws(path("b.cnpdb"), Workspace::Mode::CreateIfMissing);
        auto t = testing::tinyTrace();
        t.info.env = {{"NCCL_SOCKET_IFNAME", "eth0"}};
        t.info.skipped.add(1234, "negative duration");
        t.kernels[0].category = t.strings.intern("gemm");
        const auto id = insert(ws, t);
        const auto back = ws.loadRun(id);
        QCOMPARE(back.kernels.size(), std::size_t(2));
        QCOMPARE(back.kernels[0].start, Ns(0));
        QCOMPARE(back.kernels[0].end, Ns(100));
        QCOMPARE(back.strings.at(back.kernels[0].name), std::string("ampere_sgemm_128x64"));
        QCOMPARE(back.strings.at(back.kernels[0].category), std::string("gemm"));
        QCOMPARE(back.kernels[1].correlation, std::int64_t(2));
        QCOMPARE(back.kernels[0].grid[0], 4);
        QCOMPARE(back.kernels[0].block[0], 128);
        QCOMPARE(back.kernels[0].registers, 32);
        QCOMPARE(back.memcpys.size(), std::size_t(1));
        QCOMPARE(back.memcpys[0].bytes, std::int64_t(4096));
        QCOMPARE(back.memcpys[0].kind, MemcpyKind::DtoH);
        QCOMPARE(back.memcpys[0].dstKind, MemoryKind::Pageable);
        QCOMPARE(back.apiCalls.size(), std::size_t(2));
        QCOMPARE(back.flows.size(), std::size_t(2));
        QCOMPARE(back.flows[1].gpuTs, Ns(150));
        QCOMPARE(back.cpuRanges.size(), std::size_t(2));
        // Depth: the step annotation encloses aten::mm.
        QCOMPARE(back.cpuRanges[0].depth, 0);
        QCOMPARE(back.cpuRanges[1].depth, 1);
        QCOMPARE(back.info.skipped.count, std::int64_t(1));
        QCOMPARE(back.info.skipped.firstOffset, std::int64_t(1234));
        QCOMPARE(back.info.env.size(), std::size_t(1));
        QCOMPARE(back.info.env[0].second, std::string("eth0"));
        QVERIFY(back.info.synthetic);
        const auto runs = ws.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].kernelCount, std::int64_t(2));
        QCOMPARE(runs[0].rankCount, 1);
    }

    void duplicateNameIsRefusedAndRollsBack() {
        Workspace ws(path("c.cnpdb"), Workspace::Mode::CreateIfMissing);
        insert(ws, testing::tinyTrace("r"));
        QVERIFY_THROWS_EXCEPTION(InputError, insert(ws, testing::tinyTrace("r")));
        QCOMPARE(ws.runs().size(), std::size_t(1));
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM kernels"), std::int64_t(2));
    }

    void cancelledInsertLeavesNoTrace() {
        Workspace ws(path("d.cnpdb"), Workspace::Mode::CreateIfMissing);
        insert(ws, testing::tinyTrace("keep"));
        auto big = testing::tinyTrace("big");
        for (int i = 0; i < 200000; ++i)
            big.kernels.push_back(big.kernels[0]);
        std::atomic<bool> cancel{true};
        ProgressSink sink{nullptr, &cancel};
        {
            Transaction tx(ws.db());
            QVERIFY_THROWS_EXCEPTION(Cancelled, ws.insertRun(big, sink));
        }
        QCOMPARE(ws.runs().size(), std::size_t(1));
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM kernels"), std::int64_t(2));
    }

    void editRuns_data() {
        QTest::addColumn<QString>("action");
        QTest::newRow("remove") << "remove";
        QTest::newRow("rename") << "rename";
        QTest::newRow("relabel") << "relabel";
    }
    void editRuns() {
        QFETCH(QString, action);
        Workspace ws(path(qPrintable("e-" + action + ".cnpdb")), Workspace::Mode::CreateIfMissing);
        insert(ws, testing::tinyTrace("one"));
        insert(ws, testing::tinyTrace("two"));
        if (action == "remove") {
            ws.removeRun("one");
            QCOMPARE(ws.runs().size(), std::size_t(1));
            QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM kernels"), std::int64_t(2));
            QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM ranks"), std::int64_t(1));
        } else if (action == "rename") {
            ws.renameRun("one", "uno");
            QVERIFY(ws.findRun("uno").has_value());
            QVERIFY(!ws.findRun("one").has_value());
            QVERIFY_THROWS_EXCEPTION(InputError, ws.renameRun("uno", "two"));
        } else {
            ws.relabelRun("two", "+CompilerOpt");
            QCOMPARE(ws.findRun("two")->info.config, std::string("+CompilerOpt"));
        }
        QVERIFY_THROWS_EXCEPTION(InputError, ws.removeRun("nope"));
    }

    void planOrderSortsRuns() {
        Workspace ws(path("f.cnpdb"), Workspace::Mode::CreateIfMissing);
        auto a = testing::tinyTrace("a");
        a.info.config = "+CompilerOpt";
        auto b = testing::tinyTrace("b");
        b.info.config = "Base";
        insert(ws, a);
        insert(ws, b);
        QCOMPARE(ws.runs().front().info.name, std::string("a")); // first ingested first
        ws.setPlanOrder({"Base", "+CompilerOpt"});
        QCOMPARE(ws.runs().front().info.name, std::string("b"));
        QCOMPARE(ws.planOrder(), (std::vector<std::string>{"Base", "+CompilerOpt"}));
    }

    void refusesWhatIsNotAWorkspace_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text") << QByteArray(
                                     "hello, not sqlite at all, but long enough to be read as a header......")
                              << "not a readable workspace";
        QTest::newRow("missing") << QByteArray() << "no such workspace";
    }
    void refusesWhatIsNotAWorkspace() {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        const auto p = path(qPrintable("bad-" + QString::fromLatin1(QTest::currentDataTag()) + ".cnpdb"));
        if (!content.isEmpty())
            std::ofstream(p) << content.toStdString();
        try {
            Workspace ws(p, Workspace::Mode::ReadOnly);
            QFAIL("opened a non-workspace");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(expected), e.what());
            QVERIFY(QString::fromStdString(e.what()).startsWith(QString::fromStdString(p)));
        }
    }

    void refusesNewerSchema() {
        const auto p = path("g.cnpdb");
        {
            Workspace ws(p, Workspace::Mode::CreateIfMissing);
            ws.setMeta("schema_version", "99");
        }
        QVERIFY_THROWS_EXCEPTION(InputError, Workspace(p, Workspace::Mode::ReadWrite));
    }

    void readerSeesCommittedRunsWhileWriterHoldsTransaction() {
        const auto p = path("h.cnpdb");
        Workspace writer(p, Workspace::Mode::CreateIfMissing);
        insert(writer, testing::tinyTrace("first"));
        Transaction tx(writer.db());
        auto t = testing::tinyTrace("second");
        normaliseTrace(t);
        writer.insertRun(t);
        Workspace reader(p, Workspace::Mode::ReadOnly); // WAL: no blocking, sees only committed data
        QCOMPARE(reader.runs().size(), std::size_t(1));
        tx.commit();
        QCOMPARE(reader.runs().size(), std::size_t(2));
    }
};

QTEST_APPLESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
