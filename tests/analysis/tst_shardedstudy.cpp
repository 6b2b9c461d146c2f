// A study (store/StudyFolder.h) stores a run as one file would: the same events in the same order, steps,
// summary rows (the all-rank kernel rows included), overview and run row, whatever its number of shards;
// and every reader of events (loadRun, RunEventReader, EventLookup, KernelOccurrenceQueries,
// runTimeOrigin), reclassification and removal find them in the shards. The reference is the same parts
// streamed into a single-file workspace (tests/analysis/StreamedRunFacts.h).
#include "StreamedRunFacts.h"

#include "requests/SummaryRequests.h"
#include "store/EventLookup.h"
#include "store/KernelOccurrenceQueries.h"
#include "store/RunAppender.h"
#include "store/RunEventReader.h"
#include "store/RunTimeOrigin.h"
#include "store/StudyFolder.h"
#include "store/WorkspaceTransactions.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::testing;

namespace {

std::vector<TraceData> sixRanks() {
    std::vector<TraceData> parts;
    for (int r = 0; r < 6; ++r)
        parts.push_back(rankPart(r, profilerSteps(3)));
    return parts;
}

// Every GPU span RunEventReader gives, with its name.
QStringList spans(const Workspace& ws, RunId id) {
    QStringList out;
    const RunEventReader reader(ws, id);
    reader.forEachGpuSpan(EventKind::Kernel, [&](const RunEventReader::GpuSpan& e) {
        out << QStringLiteral("r%1 %2-%3 %4 %5")
                   .arg(e.rank)
                   .arg(e.start)
                   .arg(e.end)
                   .arg(QString::fromStdString(ws.stringById(e.nameId)),
                        QString::fromStdString(ws.stringById(e.extra)));
    });
    reader.forEachCpuSpan(EventKind::ApiCall, [&](const RunEventReader::CpuSpan& e) {
        out << QStringLiteral("api r%1 %2 %3")
                   .arg(e.rank)
                   .arg(e.start)
                   .arg(QString::fromStdString(ws.stringById(e.nameId)));
    });
    return out;
}

std::int64_t shardKernels(Workspace& study) {
    std::int64_t n = 0;
    for (int k = 0; k < study.shardCount(); ++k)
        n += queryInt(study.shard(k).db(), "SELECT COUNT(*) FROM kernels");
    return n;
}

} // namespace

class TestShardedStudy : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string studyPath(const QString& name, int shards) {
        const std::string path = dir_.filePath(name + ".cnpstudy").toStdString();
        StudyFolder::create(path, shards);
        return path;
    }

private slots:
    void sameRunWhateverTheShards_data() {
        QTest::addColumn<int>("shards");
        QTest::addColumn<int>("jobs");
        QTest::newRow("1 shard") << 1 << 1;
        QTest::newRow("2 shards, 2 readers") << 2 << 2;
        QTest::newRow("4 shards (uneven), 3 readers") << 4 << 3;
        QTest::newRow("8 shards (more than ranks)") << 8 << 2;
    }
    void sameRunWhateverTheShards() {
        QFETCH(int, shards);
        QFETCH(int, jobs);
        const auto parts = sixRanks();
        Workspace single(dir_.filePath("single" + QString::number(shards) + ".cnpdb").toStdString(),
                         Workspace::Mode::CreateIfMissing);
        const RunId ref = stream(single, parts, "run", 1).runId;
        Workspace study(studyPath("s" + QString::number(shards), shards), Workspace::Mode::ReadWrite);
        QCOMPARE(study.shardCount(), shards);
        const StreamedRun s = stream(study, parts, "run", jobs);
        QCOMPARE(s.ranks, 6);
        QCOMPARE(s.events, std::int64_t(6 * 3 * 5));
        QCOMPARE(describe(study, s.runId), describe(single, ref));
        QCOMPARE(spans(study, s.runId), spans(single, ref));
        QCOMPARE(runTimeOrigin(study, s.runId), runTimeOrigin(single, ref));
        // The index holds no event row; the shards hold them all, part k in shard k mod shards.
        QCOMPARE(queryInt(study.db(), "SELECT COUNT(*) FROM kernels"), std::int64_t(0));
        QCOMPARE(shardKernels(study), std::int64_t(6 * 3 * 2));
        QCOMPARE(queryInt(study.shard(0).db(), "SELECT COUNT(DISTINCT rank) FROM kernels"),
                 std::int64_t(shards >= 6 ? 1 : (6 + shards - 1) / shards));
        // The same file opened read-only reads the same.
        Workspace readOnly(study.path(), Workspace::Mode::ReadOnly);
        QCOMPARE(describe(readOnly, s.runId), describe(single, ref));
    }

    // Point lookups go to the shard of the rank; occurrences over all ranks come in the single file's order.
    void lookupsFindTheRanksShard() {
        const auto parts = sixRanks();
        Workspace single(dir_.filePath("lookup.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        const RunId ref = stream(single, parts, "run", 1).runId;
        Workspace study(studyPath("lookup", 4), Workspace::Mode::ReadWrite);
        const RunId id = stream(study, parts, "run", 2).runId;
        for (int rank = 0; rank < 6; ++rank) {
            const Ns t0 = 1000 + rank * 7; // step 1's kernels (rankPart)
            const auto k = EventLookup(study, id).kernelAt(rank, t0 + 100, 0, 0, t0 + 400 + rank);
            const auto want = EventLookup(single, ref).kernelAt(rank, t0 + 100, 0, 0, t0 + 400 + rank);
            QVERIFY2(k && want, qPrintable(QStringLiteral("rank %1").arg(rank)));
            QCOMPARE(k->correlation, want->correlation);
            QCOMPARE(k->correlation, std::int64_t(11));
            const auto api = EventLookup(study, id).apiCallOf(rank, 11, std::nullopt);
            QVERIFY(api);
            QCOMPARE(study.stringById(api->nameId),
                     single.stringById(EventLookup(single, ref).apiCallOf(rank, 11, std::nullopt)->nameId));
        }
        QVERIFY(!EventLookup(study, id).kernelAt(9, 1100, 0, 0, 1400)); // no shard holds rank 9
        auto starts = [](const std::vector<KernelOccurrence>& v) {
            QStringList out;
            for (const auto& o : v)
                out << QStringLiteral("r%1@%2").arg(o.rank).arg(o.start);
            return out;
        };
        for (const std::size_t limit : {std::size_t(4), std::size_t(100)}) {
            const auto got = KernelOccurrenceQueries(study).occurrences(id, "ampere_sgemm_128x64", -1, limit);
            QCOMPARE(got.size(), std::min<std::size_t>(limit, 18));
            QCOMPARE(starts(got), starts(KernelOccurrenceQueries(single).occurrences(
                                      ref, "ampere_sgemm_128x64", -1, limit)));
        }
        QCOMPARE(starts(KernelOccurrenceQueries(study).occurrences(id, "ampere_sgemm_128x64", 3, 10)),
                 starts(KernelOccurrenceQueries(single).occurrences(ref, "ampere_sgemm_128x64", 3, 10)));
    }

    // Reclassification rewrites the categories in the shards (with the index's string ids) and the summaries
    // in the index, as in one file.
    void reclassifyRewritesTheShards() {
        const auto parts = sixRanks();
        Workspace single(dir_.filePath("reclass.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        const RunId ref = stream(single, parts, "run", 1).runId;
        Workspace study(studyPath("reclass", 3), Workspace::Mode::ReadWrite);
        const RunId id = stream(study, parts, "run", 2).runId;
        const std::string rules =
            R"({"version": 1, "rules": [{"pattern": "sgemm", "category": "my-matmul"}], "fallback": "other"})";
        for (Workspace* ws : {&single, &study}) {
            auto tx = writeTransaction(*ws);
            ws->setMeta("category_rules", rules);
            rebuildRunSummaries(*ws, ws == &single ? ref : id);
            tx.commit();
        }
        const QStringList got = describe(study, id);
        QCOMPARE(got, describe(single, ref));
        QVERIFY(got.join('\n').contains("ampere_sgemm_128x64 my-matmul"));
        QCOMPARE(spans(study, id), spans(single, ref));
    }

    // Removing a run removes its rows from every shard; the next run's id may be the same and finds none
    // of them. A failed ingest leaves index and shards as they were.
    void removeAndFailedIngestLeaveNothing() {
        const auto parts = sixRanks();
        Workspace study(studyPath("remove", 2), Workspace::Mode::ReadWrite);
        const RunId id = stream(study, parts, "a", 2).runId;
        study.removeRun(id);
        QCOMPARE(shardKernels(study), std::int64_t(0));
        QCOMPARE(queryInt(study.shard(1).db(), "SELECT COUNT(*) FROM runs"), std::int64_t(0));
        RunSource bad;
        bad.names = {"good", "bad"};
        bad.load = [&](std::size_t i, const ProgressSink&) -> TraceData {
            if (i == 1)
                throw InputError("bad.json", "not a trace");
            return parts[0];
        };
        QVERIFY_THROWS_EXCEPTION(InputError, streamRun(study, bad, "b", 2, {}));
        QCOMPARE(shardKernels(study), std::int64_t(0));
        QCOMPARE(queryInt(study.db(), "SELECT COUNT(*) FROM runs"), std::int64_t(0));
        const RunId again = stream(study, parts, "c", 1).runId;
        QCOMPARE(shardKernels(study), std::int64_t(36));
        QCOMPARE(study.loadRun(again).kernels.size(), std::size_t(36));
    }

    // What an ingest interrupted between the shards' commits and the index's leaves (a shard run the index
    // does not have) is removed by the next ingest, whose run then gets the same id.
    void orphanShardRunsAreRemoved() {
        const auto parts = sixRanks();
        const std::string path = studyPath("orphan", 2);
        {
            Workspace study(path, Workspace::Mode::ReadWrite);
            Workspace& shard = study.shard(1);
            auto tx = writeTransaction(shard);
            RunAppender orphan(shard, "1:lost", RunId(1));
            orphan.append(parts[1]);
            orphan.finish(parts[1].info);
            tx.commit();
        }
        Workspace study(path, Workspace::Mode::ReadWrite);
        const RunId id = stream(study, parts, "kept", 2).runId;
        QCOMPARE(id, RunId(1));
        QCOMPARE(study.loadRun(id).kernels.size(), std::size_t(36)); // not 42: the orphan's rows are gone
        QCOMPARE(queryInt(study.shard(1).db(), "SELECT COUNT(*) FROM runs"), std::int64_t(1));
    }

    // A shard writer's intermediate commit (RunAppender::commitSoFar) records the id ranges so far, so
    // when the ingest then fails (its transaction rolled back), the committed rows are a shard run the
    // index does not know, and removing orphans removes every one of its event rows.
    void rowsCommittedOnTheWayAreRemovable() {
        const auto parts = sixRanks();
        Workspace study(studyPath("midway", 2), Workspace::Mode::ReadWrite);
        {
            auto tx = writeTransaction(study);
            RunAppender writer(study.shard(1), "1:cut", RunId(1));
            writer.append(parts[0]);
            writer.append(parts[1]);
            writer.commitSoFar();
            writer.append(parts[2]); // rolled back with the transaction
        }
        QCOMPARE(shardKernels(study), std::int64_t(12)); // two ranks of 6 kernels committed
        QCOMPARE(queryInt(study.shard(1).db(), "SELECT COUNT(*) FROM run_rows WHERE run_id = 1"),
                 queryInt(study.shard(1).db(), "SELECT COUNT(DISTINCT table_name) FROM run_rows"));
        auto tx = writeTransaction(study);
        study.removeOrphanShardRuns();
        tx.commit();
        QCOMPARE(shardKernels(study), std::int64_t(0));
        QCOMPARE(queryInt(study.shard(1).db(), "SELECT COUNT(*) FROM runs"), std::int64_t(0));
        QCOMPARE(queryInt(study.shard(1).db(), "SELECT COUNT(*) FROM run_rows"), std::int64_t(0));
    }

    // A shared study is untrusted: two shards claiming one rank of a run is refused, naming both.
    void twoShardsClaimingOneRankAreRefused() {
        const auto parts = sixRanks();
        const std::string path = studyPath("claim", 2);
        RunId id;
        {
            Workspace study(path, Workspace::Mode::ReadWrite);
            id = stream(study, parts, "run", 2).runId;
            Statement move(study.shard(1).db(), "UPDATE ranks SET rank = 0 WHERE rank = 1");
            move.exec();
        }
        Workspace study(path, Workspace::Mode::ReadOnly);
        try {
            study.loadRun(id);
            QFAIL("loaded a run whose rank 0 two shards claim");
        } catch (const InputError& e) {
            QVERIFY2(e.message().find("rank 0 of run id 1 is held by two shards") != std::string::npos &&
                         e.message().find("shard-0.cnpdb") != std::string::npos &&
                         e.message().find("shard-1.cnpdb") != std::string::npos,
                     e.message().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestShardedStudy)
#include "tst_shardedstudy.moc"
