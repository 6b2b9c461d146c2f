// Workspace store: schema creation, insert/load round trip, run editing, atomicity, refusal of bad files.
#include "TestTraces.h"

#include "core/InputError.h"
#include "ingest/IngestPipeline.h"
#include "store/Tables.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace cnp;

class TestWorkspace : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

    static RunId insert(Workspace& ws, TraceData t) {
        normaliseTrace(t);
        Transaction tx(ws.db());
        const auto id = ws.insertRun(t);
        tx.commit();
        return id;
    }

private slots:
    void createsCurrentSchemaVersion() {
        Workspace ws(path("a.cnpdb"), Workspace::Mode::CreateIfMissing);
        QCOMPARE(ws.schemaVersion(), 4);
        // Event tables carry no secondary index: a run's rows are an id range (run_rows).
        QCOMPARE(queryInt(ws.db(),
                          "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name IN "
                          "('kernels','memcpys','memsets','api_calls','cpu_ranges','gpu_annotations',"
                          "'flows','counters')"),
                 std::int64_t(0));
        Statement st(ws.db(), "PRAGMA journal_mode");
        QVERIFY(st.step());
        QCOMPARE(QString::fromStdString(st.text(0)), QStringLiteral("wal"));
        QVERIFY(ws.runs().empty());
    }

    // run_attributes: set, overwrite, read back per run, erase; removing the run removes its attributes.
    void runAttributesBelongToTheirRun() {
        Workspace ws(path("attr.cnpdb"), Workspace::Mode::CreateIfMissing);
        auto a = testing::tinyTrace();
        a.info.name = "a";
        auto b = testing::tinyTrace();
        b.info.name = "b";
        const auto idA = insert(ws, a);
        const auto idB = insert(ws, b);
        ws.setRunAttribute(idA, "log.throughput", "1200.5");
        ws.setRunAttribute(idA, "log.throughput", "1300");
        ws.setRunAttribute(idA, "plan.config", "Base");
        ws.setRunAttribute(idB, "plan.config", "Base+ACCL");
        QCOMPARE(ws.runAttribute(idA, "log.throughput").value_or(""), std::string("1300"));
        QCOMPARE(ws.runAttributes(idA).size(), std::size_t(2));
        QCOMPARE(ws.runAttribute(idB, "plan.config").value_or(""), std::string("Base+ACCL"));
        QVERIFY(!ws.runAttribute(idB, "log.throughput"));
        ws.eraseRunAttribute(idA, "plan.config");
        QCOMPARE(ws.runAttributes(idA).size(), std::size_t(1));
        ws.removeRun("a");
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM run_attributes WHERE run_id = " +
                                       std::to_string(idA.value())),
                 std::int64_t(0));
        QCOMPARE(ws.runAttributes(idB).size(), std::size_t(1));
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

    // Every column of `runs` gets a distinct value; each is checked by column NAME in SQL (a list written
    // here, independent of store/Tables.h) and through runs() member by member. A bind or read that
    // addresses the wrong column fails here; the list must name every column.
    void runsRowRoundTripsEveryColumn() {
        Workspace ws(path("runsrow.cnpdb"), Workspace::Mode::CreateIfMissing);
        auto t = testing::tinyTrace();
        RunInfo& i = t.info;
        i.name = "run-a", i.config = "cfg-b", i.repeat = 3, i.sourceFormat = "fmt-c";
        i.sourceFiles = {"f-d"}, i.host = "host-e", i.worldSize = 5, i.gpuModels = {"gpu-f"};
        i.driverVersion = "drv-g", i.cudaVersion = "cuda-h", i.cuptiVersion = "cupti-i";
        i.containerImage = "img-j", i.env = {{"K", "v-k"}}, i.synthetic = true;
        i.skipped = {};
        i.skipped.add(17, "reason-l");
        i.skipped.add(99, "later");
        i.tokensPerStep = 19.5, i.flopsPerStep = 23.25, i.peakFlops = 29.125;
        const auto id = insert(ws, t);
        const std::vector<std::pair<std::string, QVariant>> expected = {
            {"id", QVariant::fromValue<qint64>(id.value())},
            {"name", "run-a"},
            {"config", "cfg-b"},
            {"repeat", 3},
            {"source_format", "fmt-c"},
            {"source_files", R"(["f-d"])"},
            {"host", "host-e"},
            {"world_size", 5},
            {"gpu_models", R"(["gpu-f"])"},
            {"driver_version", "drv-g"},
            {"cuda_version", "cuda-h"},
            {"cupti_version", "cupti-i"},
            {"container_image", "img-j"},
            {"env", R"({"K":"v-k"})"},
            {"synthetic", 1},
            {"skipped_events", 2},
            {"first_skip_offset", 17},
            {"first_skip_reason", "reason-l"},
            {"tokens_per_step", 19.5},
            {"flops_per_step", 23.25},
            {"peak_flops", 29.125},
            {"created_at", QVariant()}, // the insert time: checked for shape below
            {"kernel_count", 2},
            {"event_count", QVariant::fromValue<qint64>(static_cast<qint64>(t.eventCount()))}};
        QCOMPARE(expected.size(), schema::kRuns.columns.size());
        for (const auto& [column, value] : expected) {
            QVERIFY2(schema::kRuns.has(column), column.c_str());
            Statement st(ws.db(), "SELECT " + column + " FROM runs WHERE id = ?");
            st.bind(1, id);
            QVERIFY(st.step());
            if (!value.isValid())
                QCOMPARE(st.text(0).size(), std::size_t(20)); // 2026-01-02T03:04:05Z
            else if (value.typeId() == QMetaType::QString)
                QCOMPARE(QString::fromStdString(st.text(0)), value.toString());
            else if (value.typeId() == QMetaType::Double)
                QCOMPARE(st.f64(0), value.toDouble());
            else
                QCOMPARE(st.i64(0), value.toLongLong());
        }
        const auto runs = ws.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        const RunRecord& r = runs[0];
        QCOMPARE(r.id, id);
        QCOMPARE(r.info.name, std::string("run-a"));
        QCOMPARE(r.info.config, std::string("cfg-b"));
        QCOMPARE(r.info.repeat, 3);
        QCOMPARE(r.info.sourceFormat, std::string("fmt-c"));
        QCOMPARE(r.info.sourceFiles, std::vector<std::string>{"f-d"});
        QCOMPARE(r.info.host, std::string("host-e"));
        QCOMPARE(r.info.worldSize, 5);
        QCOMPARE(r.info.gpuModels, std::vector<std::string>{"gpu-f"});
        QCOMPARE(r.info.driverVersion, std::string("drv-g"));
        QCOMPARE(r.info.cudaVersion, std::string("cuda-h"));
        QCOMPARE(r.info.cuptiVersion, std::string("cupti-i"));
        QCOMPARE(r.info.containerImage, std::string("img-j"));
        QCOMPARE(r.info.env.size(), std::size_t(1));
        QCOMPARE(r.info.env[0].second, std::string("v-k"));
        QVERIFY(r.info.synthetic);
        QCOMPARE(r.info.skipped.count, std::int64_t(2));
        QCOMPARE(r.info.skipped.firstOffset, std::int64_t(17));
        QCOMPARE(r.info.skipped.firstReason, std::string("reason-l"));
        QCOMPARE(r.info.tokensPerStep, 19.5);
        QCOMPARE(r.info.flopsPerStep, 23.25);
        QCOMPARE(r.info.peakFlops, 29.125);
        QCOMPARE(r.createdAt.size(), std::size_t(20));
        QCOMPARE(r.rankCount, 1);
        QCOMPARE(r.kernelCount, std::int64_t(2));
        QCOMPARE(r.eventCount, static_cast<std::int64_t>(t.eventCount()));
    }

    // Runs inserted unsorted and interleaved by rank: each table's rows of a run are one id range,
    // sorted by (rank, sort key), and lowerBoundId equals a brute-force search.
    void eventRowsAreSortedRangesPerRun_data() {
        QTest::addColumn<int>("kernelsPerRank");
        QTest::newRow("empty") << 0;
        QTest::newRow("one") << 1;
        QTest::newRow("batch-1") << 15;
        QTest::newRow("batch") << 16;
        QTest::newRow("several batches + tail") << 53;
    }
    void eventRowsAreSortedRangesPerRun() {
        QFETCH(int, kernelsPerRank);
        const std::string file = path(("ranges" + std::to_string(kernelsPerRank) + ".cnpdb").c_str());
        Workspace ws(file, Workspace::Mode::CreateIfMissing);
        std::vector<RunId> ids;
        for (int run = 0; run < 3; ++run) {
            TraceData t;
            t.info.name = "r" + std::to_string(run);
            const auto nm = t.strings.intern("k");
            for (int i = 0; i < kernelsPerRank; ++i)
                for (int rank = 2; rank >= 0; --rank) { // unsorted: ranks interleaved, descending
                    KernelEvent k{};
                    k.rank = rank;
                    k.start = 1000 * ((i * 7) % (kernelsPerRank + 1)) + rank; // duplicates when i repeats
                    k.end = k.start + 10;
                    k.correlation = i;
                    k.name = k.category = nm;
                    t.kernels.push_back(k);
                    Flow f;
                    f.rank = rank;
                    f.correlation = kernelsPerRank - i;
                    f.cpuTs = k.start - 5;
                    f.gpuTs = k.start;
                    t.flows.push_back(f);
                }
            Transaction tx(ws.db());
            ids.push_back(ws.insertRun(t)); // not normalised on purpose
            tx.commit();
        }
        std::int64_t expectFirst = 1;
        for (RunId id : ids) {
            const IdRange r = ws.eventRows(id, "kernels");
            QCOMPARE(r.size(), std::int64_t(3 * kernelsPerRank));
            if (r.empty())
                continue;
            QCOMPARE(r.first, expectFirst);
            expectFirst = r.last + 1;
            QCOMPARE(queryInt(ws.db(),
                              "SELECT COUNT(*) FROM kernels WHERE run_id = " + std::to_string(id.value())),
                     r.size());
            // Sorted by (rank, start_ns) within the range.
            std::vector<std::pair<int, std::int64_t>> keys;
            Statement st(ws.db(), "SELECT rank, start_ns FROM kernels WHERE id BETWEEN ? AND ? ORDER BY id");
            st.bind(1, r.first).bind(2, r.last);
            while (st.step())
                keys.emplace_back(st.i32(0), st.i64(1));
            QVERIFY(std::is_sorted(keys.begin(), keys.end()));
            // lowerBoundId against brute force, for keys present, absent, below and above.
            for (int rank = -1; rank <= 3; ++rank)
                for (std::int64_t key :
                     {std::int64_t(-1), std::int64_t(0), std::int64_t(1), std::int64_t(1000),
                      std::int64_t(2001), std::int64_t(7002), std::int64_t(1) << 40}) {
                    const auto it = std::lower_bound(keys.begin(), keys.end(), std::make_pair(rank, key));
                    QCOMPARE(ws.lowerBoundId("kernels", r, rank, key), r.first + (it - keys.begin()));
                }
            // Flows: by (rank, correlation).
            const IdRange f = ws.eventRows(id, "flows");
            std::vector<std::pair<int, std::int64_t>> fk;
            Statement fs(ws.db(), "SELECT rank, correlation FROM flows WHERE id BETWEEN ? AND ? ORDER BY id");
            fs.bind(1, f.first).bind(2, f.last);
            while (fs.step())
                fk.emplace_back(fs.i32(0), fs.i64(1));
            QCOMPARE(std::int64_t(fk.size()), f.size());
            QVERIFY(std::is_sorted(fk.begin(), fk.end()));
        }
        // Removing the middle run deletes exactly its rows and its ranges; the others stay intact.
        ws.removeRun("r1");
        QVERIFY(ws.eventRows(ids[1], "kernels").empty());
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM kernels"), std::int64_t(6 * kernelsPerRank));
        QCOMPARE(queryInt(ws.db(),
                          "SELECT COUNT(*) FROM run_rows WHERE run_id = " + std::to_string(ids[1].value())),
                 std::int64_t(0));
        const auto back = ws.loadRun(ids[2]);
        QCOMPARE(back.kernels.size(), std::size_t(3 * kernelsPerRank));
        QVERIFY(std::is_sorted(back.flows.begin(), back.flows.end(), [](const Flow& a, const Flow& b) {
            return a.rank != b.rank ? a.rank < b.rank : a.cpuTs < b.cpuTs;
        }));
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
