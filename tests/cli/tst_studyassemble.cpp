// A study assembled from shards written alone (cnp ingest-shard, then cnp study assemble; docs/schema.md
// "Studies of shards") answers every command as the same runs ingested into one workspace file: the JSON of
// runs, stats (its kernels and steps), ablation, collectives, stragglers, diff and insights, compared whole
// (only created_at may differ: when each copy was ingested). Three configurations of 8 ranks, each run split
// into 2, 3 and 4 shards of uneven rank blocks. Hostile shards (another run under the same id, truncated, a
// rank claimed twice, an ordinary workspace, a file named twice, another step decision) are refused naming
// the file, with no study written and the shard files unchanged.
#include "CliRunner.h"
#include "SameCliAnswers.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace cnp::testing;

namespace {

QByteArray fileHash(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return "missing: " + path.toUtf8();
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

// Each run's rank blocks: run k is split at these ranks (uneven on purpose).
const QList<QList<int>> kSplits = {{0, 3}, {0, 1, 5}, {0, 2, 4, 7}};
constexpr int kRanks = 8;

} // namespace

class TestStudyAssemble : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString traces_, single_, study_;
    QStringList runs_, shards_;

    // Rank files of `run` from `first` to `end` - 1 (cnp synth names them rank-N.cnpt, N zero-padded or
    // not: matched by the number).
    QStringList rankFiles(const QString& run, int first, int end) const {
        QStringList out;
        const QDir d(traces_ + "/" + run);
        static const QRegularExpression number("(\\d+)\\.cnpt$");
        for (const QString& f : d.entryList({"*.cnpt"}, QDir::Files, QDir::Name)) {
            const auto m = number.match(f);
            if (m.hasMatch() && m.captured(1).toInt() >= first && m.captured(1).toInt() < end)
                out << d.filePath(f);
        }
        return out;
    }

    // `cnp ingest-shard` of ranks [first, end) of run index r into `out`; returns its result.
    CliResult ingestShard(const QString& out, int r, int first, int end, const QString& runName = {}) const {
        const QString run = runs_[r];
        QStringList args{"ingest-shard", out};
        args << rankFiles(run, first, end);
        args << QStringList{"--run",    runName.isEmpty() ? run : runName, "--run-id", QString::number(r + 1),
                            "--config", run.section('-', 1, -2),           "--jobs",   "2",
                            "--quiet"};
        return runCli(args);
    }

private slots:
    void initTestCase() {
        traces_ = dir_.filePath("traces");
        const CliResult synth =
            runCli({"synth", "--out", traces_, "--nodes", "2", "--gpus-per-node", "4", "--steps", "3",
                    "--layers", "1", "--configs", "Base,Base+ACCL,AC2+ACCL", "--quiet"});
        QVERIFY2(synth.exitCode == 0, synth.err.constData());
        runs_ = QDir(traces_).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QCOMPARE(runs_.size(), 3);
        single_ = dir_.filePath("single.cnpdb");
        for (const QString& run : runs_) {
            QCOMPARE(rankFiles(run, 0, kRanks).size(), kRanks);
            const CliResult r = runCli({"ingest", single_, traces_ + "/" + run, "--run", run, "--config",
                                        run.section('-', 1, -2), "--jobs", "2", "--quiet"});
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        for (int r = 0; r < runs_.size(); ++r) {
            const QList<int>& at = kSplits[r];
            for (int k = 0; k < at.size(); ++k) {
                const QString out = dir_.filePath(QStringLiteral("s%1-%2.cnpdb").arg(r).arg(k));
                const CliResult c = ingestShard(out, r, at[k], k + 1 < at.size() ? at[k + 1] : kRanks);
                QVERIFY2(c.exitCode == 0, c.err.constData());
                shards_ << out;
            }
        }
        study_ = dir_.filePath("assembled.cnpstudy");
        QStringList args{"study", "assemble", study_};
        // Given in no particular order: assemble orders them by run and rank.
        for (int k = shards_.size() - 1; k >= 0; --k)
            args << shards_[k];
        const CliResult a = runCli(args);
        QVERIFY2(a.exitCode == 0, a.err.constData());
        QVERIFY2(a.out.contains("3 runs, 24 ranks"), a.out.constData());
        QCOMPARE(QDir(study_).entryList({"shard-*.cnpdb"}, QDir::Files).size(), 9);
    }

    void sameAnswers_data() {
        QTest::addColumn<QStringList>("args"); // WS is inserted after the command
        QTest::newRow("runs") << QStringList{"runs", "--json"};
        QTest::newRow("ablation") << QStringList{"ablation", "--json"};
        QTest::newRow("stats") << QStringList{"stats", "--run", "01-Base-r0", "--json"};
        QTest::newRow("stats top 3") << QStringList{"stats", "--run", "03-AC2+ACCL-r0",
                                                    "--top", "3",     "--json"};
        QTest::newRow("stragglers") << QStringList{"stragglers", "--run", "03-AC2+ACCL-r0", "--json"};
        QTest::newRow("collectives") << QStringList{"collectives", "--run", "03-AC2+ACCL-r0", "--json"};
        QTest::newRow("diff") << QStringList{"diff", "01-Base-r0", "03-AC2+ACCL-r0", "--json"};
        QTest::newRow("insights") << QStringList{"insights", "--run", "02-Base+ACCL-r0", "--json"};
    }
    void sameAnswers() {
        QFETCH(QStringList, args);
        verifySameCliAnswers(args, single_, study_);
    }

    // A rank's events are read from its shard: the timeline-free export of one run is the same bytes.
    void sameExport() {
        QByteArray bytes[2];
        int k = 0;
        for (const QString& ws : {single_, study_}) {
            const QString out = dir_.filePath("chrome" + QString::number(k) + ".json");
            const CliResult r =
                runCli({"export", ws, "--run", "02-Base+ACCL-r0", "--format", "chrome", "--out", out});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            bytes[k++] = f.readAll();
        }
        QVERIFY(bytes[0].size() > 1000);
        QCOMPARE(bytes[1], bytes[0]);
    }

    void hostileShards_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("another run under the id") << "other run"
                                                  << "it is 'elsewhere'";
        QTest::newRow("truncated") << "truncated"
                                   << "";
        QTest::newRow("a rank claimed twice") << "rank twice"
                                              << "claims rank 3";
        QTest::newRow("an ordinary workspace") << "workspace"
                                               << "is not a shard written alone";
        QTest::newRow("named twice") << "twice"
                                     << "is named twice";
        QTest::newRow("another step decision") << "steps"
                                               << "decided the steps of run";
    }
    void hostileShards() {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QStringList shards = {shards_[0], shards_[1]}; // run 1: ranks 0-2 and 3-7
        QString bad = dir.filePath("bad.cnpdb");
        if (kind == "other run") {
            const CliResult c = ingestShard(bad, 0, 0, 1, "elsewhere");
            QVERIFY2(c.exitCode == 0, c.err.constData());
            shards = {shards_[1], bad};
        } else if (kind == "truncated") {
            QVERIFY(QFile::copy(shards_[1], bad));
            QFile f(bad);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.resize(f.size() / 2));
            f.close();
            shards = {shards_[0], bad};
        } else if (kind == "rank twice") {
            const CliResult c = ingestShard(bad, 0, 3, 4);
            QVERIFY2(c.exitCode == 0, c.err.constData());
            shards << bad;
        } else if (kind == "workspace") {
            const CliResult c = runCli({"ingest", bad, rankFiles(runs_[0], 0, 1).front(), "--quiet"});
            QVERIFY2(c.exitCode == 0, c.err.constData());
            shards << bad;
        } else if (kind == "steps") { // a shard whose parts matched another step pattern (edited here)
            QVERIFY(QFile::copy(shards_[1], bad));
            QFile::setPermissions(bad, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(bad.toUtf8().constData(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db, "UPDATE shard_part SET steps_pattern = steps_pattern + 1", nullptr,
                                  nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(db);
            shards = {shards_[0], bad};
        } else {
            shards << shards_[0];
            bad = shards_[0];
        }
        QMap<QString, QByteArray> before;
        for (const QString& s : shards)
            before[s] = fileHash(s);
        const QString study = dir.filePath("x.cnpstudy");
        const CliResult r = runCli(QStringList{"study", "assemble", study} + shards);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QFileInfo(bad).fileName().toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(!QFileInfo::exists(study));
        for (const QString& s : shards)
            QCOMPARE(fileHash(s), before[s]);
    }

    void ingestShardRefuses_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("no run name") << QStringList{"ingest-shard", "x.cnpdb", "t"} << 1
                                     << "--run NAME is required";
        QTest::newRow("a study") << QStringList{"ingest-shard", "x.cnpstudy", "t", "--run", "r"} << 1
                                 << "not a study";
        QTest::newRow("run id 0") << QStringList{"ingest-shard", "x.cnpdb", "t", "--run", "r",
                                                 "--run-id",     "0"}
                                  << 1 << "--run-id";
    }
    void ingestShardRefuses() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QDir::setCurrent(dir.path());
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, code);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());
    }

    // An existing shard is never overwritten: what a pod wrote is not lost to a second run of the command.
    void ingestShardKeepsAnExistingFile() {
        const QByteArray before = fileHash(shards_[0]);
        const CliResult r = ingestShard(shards_[0], 0, 0, 3);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("exists"), r.err.constData());
        QCOMPARE(fileHash(shards_[0]), before);
    }

    // --block K/N: three workers given the whole folder each take their block of ranks (8 files: 2, 3, 3);
    // the study they make answers as the file.
    void blocksOfOneFolder() {
        QTemporaryDir dir;
        const QString run = runs_[0];
        QStringList assemble{"study", "assemble", dir.filePath("blocks.cnpstudy")};
        for (int k = 0; k < 3; ++k) {
            const QString out = dir.filePath(QString("b%1.cnpdb").arg(k));
            const CliResult c =
                runCli({"ingest-shard", out, traces_ + "/" + run, "--block", QString("%1/3").arg(k), "--run",
                        run, "--config", run.section('-', 1, -2), "--quiet"});
            QVERIFY2(c.exitCode == 0, c.err.constData());
            assemble << out;
        }
        const CliResult a = runCli(assemble);
        QVERIFY2(a.exitCode == 0, a.err.constData());
        QVERIFY2(a.out.contains("1 run, 8 ranks"), a.out.constData());
        for (const QStringList& args : {QStringList{"stats", "--run", run, "--json"},
                                        QStringList{"collectives", "--run", run, "--json"}}) {
            const CliResult one = runCli(QStringList{args[0], single_} + args.mid(1));
            const CliResult two = runCli(QStringList{args[0], dir.filePath("blocks.cnpstudy")} + args.mid(1));
            QVERIFY2(one.exitCode == 0 && two.exitCode == 0, (one.err + two.err).constData());
            QVERIFY(one.out.size() > 100);
            QCOMPARE(two.out, one.out);
        }
        const CliResult bad = runCli(
            {"ingest-shard", dir.filePath("x.cnpdb"), traces_ + "/" + run, "--block", "3/3", "--run", run});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("--block takes K/N"), bad.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("x.cnpdb")));
    }

    // Last (it changes both): reclassifying rewrites the shards' categories and rebuilds the summaries of
    // the assembled study as of the file.
    void sameAfterReclassify() {
        for (const QString& ws : {single_, study_}) {
            const CliResult r = runCli({"reclassify", ws, "--step-orphans", "include"});
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        const QRegularExpression createdAt(QStringLiteral("\"created_at\": \"[^\"]*\""));
        for (const QString& run : runs_) {
            const CliResult one = runCli({"stats", single_, "--run", run, "--json"});
            const CliResult two = runCli({"stats", study_, "--run", run, "--json"});
            QVERIFY2(one.exitCode == 0 && two.exitCode == 0, (one.err + two.err).constData());
            QCOMPARE(QString::fromUtf8(two.out).replace(createdAt, "created_at"),
                     QString::fromUtf8(one.out).replace(createdAt, "created_at"));
        }
    }
};

QTEST_GUILESS_MAIN(TestStudyAssemble)
#include "tst_studyassemble.moc"
