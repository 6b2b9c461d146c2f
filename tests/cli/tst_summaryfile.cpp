// `cnp ingest-shard --summary-out` (store/SummaryFile.h, docs/schema.md "Summary files"): the summary file
// beside a shard holds everything but the event rows (bar the communication kernels the clock fit reads),
// and a study assembled from summary files answers
// every command that reads summaries as the study assembled from the shards themselves: the JSON of runs,
// ablation, stats (each run), diff and insights, compared whole. Three configurations of 4 ranks (2 nodes x
// 2 GPUs), each run ingested as 2 blocks of its folder (--block K/2, as the ingest pods of a cluster do).
// The summary file holds no other event row and is smaller than its shard; an existing summary file, or one
// named as OUT, is refused with nothing written.
#include "CliRunner.h"
#include "SameCliAnswers.h"
#include "ingest/StudyAssembler.h"
#include "store/EventShardLink.h"
#include "store/Workspace.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace cnp::testing;

namespace {

// `SELECT count(*) FROM <table>` of the SQLite file `path`; -1 when it cannot be read.
qint64 rowCount(const QString& path, const QByteArray& table) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return -1;
    }
    sqlite3_stmt* st = nullptr;
    qint64 n = -1;
    const QByteArray sql = QByteArray("SELECT count(*) FROM ") + table;
    if (sqlite3_prepare_v2(db, sql.constData(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestSummaryFile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString traces_, fromShards_, fromSummaries_;
    QStringList runs_, shards_, summaries_;

    // A workspace holding a local ingest of the first configuration (run id 1), then the second one's run
    // (id 2) added from its two summary files under its own name; "" on failure.
    QString linkedWorkspace(const QString& name) {
        const QString ws = dir_.filePath(name);
        const CliResult in = runCli({"ingest", ws, traces_ + "/" + runs_[0], "--run", "here", "--quiet"});
        if (in.exitCode != 0)
            return {};
        cnp::Workspace w(ws.toStdString(), cnp::Workspace::Mode::ReadWrite);
        cnp::addRunFromSummaries(w, {summaries_[2].toStdString(), summaries_[3].toStdString()},
                                 runs_[1].toStdString());
        return ws;
    }

    // Links a copy of `file` as shard `k` of run id 2 of `ws`; the error's text, "" when linked.
    QString linkShard(const QString& ws, int k, const QString& file) {
        const QString incoming = dir_.filePath("incoming.cnpdb");
        QFile::remove(incoming);
        if (!QFile::copy(file, incoming))
            return "cannot copy " + file;
        try {
            cnp::Workspace w(ws.toStdString(), cnp::Workspace::Mode::ReadWrite);
            cnp::linkFetchedShard(w, cnp::RunId(2), k, incoming.toStdString());
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
        return QFileInfo::exists(incoming) ? "the incoming file stayed" : "";
    }

    QString runAttribute(const QString& ws, const std::string& key) {
        cnp::Workspace w(ws.toStdString(), cnp::Workspace::Mode::ReadOnly);
        return QString::fromStdString(w.runAttribute(cnp::RunId(2), key).value_or(""));
    }

    // `cnp ARGS` ("WS" and "OUT" replaced) writes the same file for the study of the shards as for `ws`.
    void verifySameFile(const QStringList& args, const QString& ws) {
        QByteArray outputs[2];
        int i = 0;
        for (const QString& from : {fromShards_, ws}) {
            const QString out = dir_.filePath(QString("same-%1.json").arg(i));
            QStringList a = args;
            a.replaceInStrings(QRegularExpression("^WS$"), from)
                .replaceInStrings(QRegularExpression("^OUT$"), out);
            const CliResult r = runCli(a);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            outputs[i++] = f.readAll();
        }
        QVERIFY(outputs[0].size() > 1000);
        QVERIFY2(outputs[0] == outputs[1], qPrintable(args.join(' ')));
    }

private slots:
    void initTestCase() {
        traces_ = dir_.filePath("traces");
        const CliResult synth =
            runCli({"synth", "--out", traces_, "--nodes", "2", "--gpus-per-node", "2", "--steps", "3",
                    "--layers", "1", "--configs", "Base,Base+ACCL,AC2+ACCL", "--quiet"});
        QVERIFY2(synth.exitCode == 0, synth.err.constData());
        runs_ = QDir(traces_).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QCOMPARE(runs_.size(), 3);
        for (int r = 0; r < runs_.size(); ++r)
            for (int k = 0; k < 2; ++k) {
                const QString shard = dir_.filePath(QString("shards/s%1-%2.cnpdb").arg(r).arg(k));
                const QString summary =
                    dir_.filePath(QString("summaries/s%1-%2.summary.cnpdb").arg(r).arg(k));
                QVERIFY(QDir().mkpath(QFileInfo(summary).path()));
                // OUT's folder (shards/) does not exist: ingest-shard makes it, as a pod's first block does.
                const CliResult c =
                    runCli({"ingest-shard", shard, traces_ + "/" + runs_[r], "--block",
                            QString("%1/2").arg(k), "--run", runs_[r], "--run-id", QString::number(r + 1),
                            "--config", runs_[r].section('-', 1, -2), "--summary-out", summary, "--quiet"});
                QVERIFY2(c.exitCode == 0, c.err.constData());
                shards_ << shard;
                summaries_ << summary;
            }
        fromShards_ = dir_.filePath("shards.cnpstudy");
        fromSummaries_ = dir_.filePath("summaries.cnpstudy");
        for (const auto& [study, files] :
             {std::pair{fromShards_, shards_}, std::pair{fromSummaries_, summaries_}}) {
            const CliResult a = runCli(QStringList{"study", "assemble", study} + files);
            QVERIFY2(a.exitCode == 0, a.err.constData());
            QVERIFY2(a.out.contains("3 runs, 12 ranks"), a.out.constData());
        }
    }

    // No event row but the clock fit's kernels, fewer bytes than the shard (these small runs are mostly
    // summaries and overview); the rest as the shard has it.
    void summaryFileHoldsNoEvents_data() {
        QTest::addColumn<int>("k");
        for (int k = 0; k < 6; ++k)
            QTest::newRow(qPrintable(QString("shard %1").arg(k))) << k;
    }
    void summaryFileHoldsNoEvents() {
        QFETCH(int, k);
        for (const char* table :
             {"memcpys", "memsets", "api_calls", "cpu_ranges", "gpu_annotations", "flows", "counters"})
            QCOMPARE(rowCount(summaries_[k], table), qint64(0));
        // Only the clock fit's kernels: communication ones, of the lowest 3 ranks of each host (a block of
        // this run is one host of 2 ranks: both), numbered as one range.
        const QByteArray comm =
            "kernels WHERE category_id = (SELECT id FROM strings WHERE value = 'communication')";
        QVERIFY(rowCount(summaries_[k], comm) > 0);
        QCOMPARE(rowCount(summaries_[k], "kernels"), rowCount(summaries_[k], comm));
        QCOMPARE(rowCount(summaries_[k], "kernels"), rowCount(shards_[k], comm));
        QVERIFY(rowCount(shards_[k], "kernels") > 2 * rowCount(shards_[k], comm));
        QCOMPARE(rowCount(summaries_[k], "run_rows"), qint64(1));
        QCOMPARE(rowCount(summaries_[k], "run_rows WHERE table_name = 'kernels' AND last_id - first_id + 1 = "
                                         "(SELECT count(*) FROM kernels)"),
                 qint64(1));
        for (const char* table : {"runs", "ranks", "steps", "shard_part", "summary_rank", "strings"}) {
            QVERIFY(rowCount(summaries_[k], table) > 0);
            QCOMPARE(rowCount(summaries_[k], table), rowCount(shards_[k], table));
        }
        QVERIFY2(QFileInfo(summaries_[k]).size() < QFileInfo(shards_[k]).size(),
                 qPrintable(QString("%1 of %2 bytes")
                                .arg(QFileInfo(summaries_[k]).size())
                                .arg(QFileInfo(shards_[k]).size())));
        QCOMPARE(QFileInfo(summaries_[k] + "-wal").size(), 0); // closed: nothing left in a write-ahead log
    }

    void sameAnswers_data() {
        QTest::addColumn<QStringList>("args"); // the study is inserted after the command
        QTest::newRow("runs") << QStringList{"runs", "--json"};
        QTest::newRow("ablation") << QStringList{"ablation", "--json"};
        QTest::newRow("stats Base") << QStringList{"stats", "--run", "01-Base-r0", "--json"};
        QTest::newRow("stats Base+ACCL") << QStringList{"stats", "--run", "02-Base+ACCL-r0", "--json"};
        QTest::newRow("stats AC2+ACCL top 3")
            << QStringList{"stats", "--run", "03-AC2+ACCL-r0", "--top", "3", "--json"};
        QTest::newRow("diff") << QStringList{"diff", "01-Base-r0", "03-AC2+ACCL-r0", "--json"};
        QTest::newRow("insights") << QStringList{"insights", "--run", "02-Base+ACCL-r0", "--json"};
    }
    void sameAnswers() {
        QFETCH(QStringList, args);
        cnp::testing::verifySameCliAnswers(args, fromShards_, fromSummaries_);
    }

    // A run added to a workspace from summary files (as the Kubernetes backend adds a run ingested on the
    // cluster) answers what reads summaries; what reads events is refused, saying where they are, instead
    // of finding none.
    void aRunFromSummariesRefusesEventReads() {
        const QString ws = dir_.filePath("added.cnpdb");
        const CliResult in = runCli({"ingest", ws, traces_ + "/" + runs_[0], "--run", "here", "--quiet"});
        QVERIFY2(in.exitCode == 0, in.err.constData());
        {
            cnp::Workspace w(ws.toStdString(), cnp::Workspace::Mode::ReadWrite);
            cnp::addRunFromSummaries(w, {summaries_[2].toStdString(), summaries_[3].toStdString()},
                                     "cluster");
        }
        const CliResult stats = runCli({"stats", ws, "--run", "cluster", "--json"});
        QVERIFY2(stats.exitCode == 0, stats.err.constData());
        for (const char* command : {"collectives", "stragglers"}) {
            const CliResult c = runCli({command, ws, "--run", "cluster"});
            QCOMPARE(c.exitCode, 2);
            QVERIFY2(c.err.contains("run 'cluster' holds its summaries only: the events of shard 0 (ranks "
                                    "0-1) stayed with its shards (summary files s1-0.summary.cnpdb, "
                                    "s1-1.summary.cnpdb)"),
                     c.err.constData());
        }
        const CliResult here = runCli({"collectives", ws, "--run", "here"});
        QVERIFY2(here.exitCode == 0, here.err.constData());
    }

    // Events on demand (store/EventShardLink.h): the shards of a run added from summary files, linked in
    // one at a time, answer what reads events as the study assembled from the same shards does: a rank's
    // Chrome export once its shard is linked (the other rank's still refused, naming its shard), then
    // collectives and stragglers once both are. The workspace numbers its strings in order of use (a
    // local ingest came first), so every string id of the shards is rebound.
    void fetchedShardsAreLinked() {
        const QString ws = linkedWorkspace("linked.cnpdb");
        QVERIFY(!ws.isEmpty());
        const QString run = runs_[1];
        QVERIFY(linkShard(ws, 1, shards_[3]).isEmpty());
        for (const char* rank : {"2", "3"})
            verifySameFile({"export", "WS", "--run", run, "--rank", rank, "--out", "OUT"}, ws);
        const CliResult before =
            runCli({"export", ws, "--run", run, "--rank", "1", "--out", dir_.filePath("r1.json")});
        QCOMPARE(before.exitCode, 2);
        QVERIFY2(before.err.contains("the events of shard 0 (ranks 0-1) stayed with its shards"),
                 before.err.constData());
        QVERIFY(!before.err.contains("shard 1 ("));
        QVERIFY(linkShard(ws, 0, shards_[2]).isEmpty());
        QCOMPARE(runAttribute(ws, "events.fetched"), QString("0,1"));
        for (const char* command : {"collectives", "stragglers"})
            cnp::testing::verifySameCliAnswers({command, "--run", run, "--json"}, fromShards_, ws);
        verifySameFile({"export", "WS", "--run", run, "--out", "OUT"}, ws);
        // Removing the run removes the shards fetched for it.
        QVERIFY(QFileInfo::exists(ws + ".events/run-2/shard-0.cnpdb"));
        const CliResult removed = runCli({"edit", ws, "--remove", run});
        QVERIFY2(removed.exitCode == 0, removed.err.constData());
        QVERIFY(!QFileInfo::exists(ws + ".events/run-2"));
    }

    // What is not the run's shard K is refused, naming the file, and the workspace is as it was.
    void linkRefuses_data() {
        QTest::addColumn<int>("shard");
        QTest::addColumn<int>(
            "file"); // index into shards_ (-1: the summary file of shard 1, -2: no workspace)
        QTest::addColumn<QString>("message");
        QTest::newRow("another shard's ranks")
            << 1 << 2 << "is not shard 1 of run '" + runs_[1] + "': its ranks are not 2-3";
        QTest::newRow("another run") << 1 << 1
                                     << "is not shard 1 of run '" + runs_[1] +
                                            "': it holds 1 run(s), not only run id 2";
        QTest::newRow("the summary file") << 1 << -1 << "it is a summary file, whose events were left out";
        QTest::newRow("not a workspace") << 0 << -2 << "not";
        QTest::newRow("no such shard") << 2 << 2 << "records no shard 2 of its events";
    }
    void linkRefuses() {
        QFETCH(int, shard);
        QFETCH(int, file);
        QFETCH(QString, message);
        const QString ws = linkedWorkspace(QString("refused-%1.cnpdb").arg(QTest::currentDataTag()));
        QVERIFY(!ws.isEmpty());
        QString source = file >= 0 ? shards_[file] : summaries_[3];
        if (file == -2) {
            source = dir_.filePath("garbage.cnpdb");
            QFile f(source);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(8192, 'x'));
        }
        const QString error = linkShard(ws, shard, source);
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY2(error.contains("incoming.cnpdb") || shard == 2, qPrintable(error));
        QCOMPARE(runAttribute(ws, "events.fetched"), QString());
        QVERIFY(!QFileInfo::exists(ws + ".events/run-2/shard-" + QString::number(shard) + ".cnpdb"));
    }

    // A worker the cluster retried (`--again`, as the ingest pods run): a shard and summary file an earlier
    // attempt finished are kept as they are; what an attempt killed half-way left (a cut shard, a summary
    // file's .part) is removed and the pair written again, as a first attempt writes it.
    void againKeepsAFinishedPairAndRedoesAKilledOne() {
        QTemporaryDir dir;
        const QString out = dir.filePath("shard-0.cnpdb"), summary = dir.filePath("shard-0.summary.cnpdb");
        const QStringList args = {"ingest-shard",
                                  out,
                                  traces_ + "/" + runs_[0],
                                  "--block",
                                  "0/2",
                                  "--run",
                                  runs_[0],
                                  "--run-id",
                                  "1",
                                  "--config",
                                  runs_[0].section('-', 1, -2),
                                  "--summary-out",
                                  summary,
                                  "--again"};
        QVERIFY(QFile::copy(shards_[0], out) && QFile::copy(summaries_[0], summary));
        const QByteArray shardBytes = fileBytes(out), summaryBytes = fileBytes(summary);
        CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("were written by an earlier attempt; kept"), r.out.constData());
        QCOMPARE(fileBytes(out), shardBytes);
        QCOMPARE(fileBytes(summary), summaryBytes);
        // Killed half-way: the shard cut short, no summary file but its .part.
        QVERIFY(QFile::remove(summary));
        QFile cut(out);
        QVERIFY(cut.resize(65536));
        QFile part(summary + ".part");
        QVERIFY(part.open(QIODevice::WriteOnly) && part.write(QByteArray(4096, 'x')) == 4096);
        part.close();
        r = runCli(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!QFileInfo::exists(summary + ".part"));
        for (const char* table :
             {"runs", "ranks", "steps", "kernels", "summary_rank", "strings", "shard_part"})
            QCOMPARE(rowCount(summary, table), rowCount(summaries_[0], table));
        QCOMPARE(rowCount(out, "kernels"), rowCount(shards_[0], "kernels"));
        // --again needs the summary file that marks a finished pair.
        r = runCli(args.mid(0, args.size() - 3) + QStringList{"--again"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--again needs --summary-out"), r.err.constData());
    }

    void refused_data() {
        QTest::addColumn<QString>("summary"); // "existing" or "same"
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("an existing summary file")
            << "existing" << 2 << "exists; a summary file is written once";
        QTest::newRow("the summary file named as OUT") << "same" << 1 << "--summary-out is one new file";
    }
    void refused() {
        QFETCH(QString, summary);
        QFETCH(int, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString out = dir.filePath("x.cnpdb");
        const QString path = summary == "existing" ? summaries_[0] : out;
        const QByteArray before =
            QFile(path).exists() ? QFileInfo(path).lastModified().toString().toUtf8() : "";
        const CliResult r = runCli({"ingest-shard", out, traces_ + "/" + runs_[0], "--run", runs_[0],
                                    "--summary-out", path, "--quiet"});
        QCOMPARE(r.exitCode, code);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(!QFileInfo::exists(out));
        if (summary == "existing")
            QCOMPARE(QFileInfo(path).lastModified().toString().toUtf8(), before);
    }
};

QTEST_GUILESS_MAIN(TestSummaryFile)
#include "tst_summaryfile.moc"
