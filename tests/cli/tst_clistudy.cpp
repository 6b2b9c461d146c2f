// A study (cnp ingest X.cnpstudy, docs/schema.md "Studies of shards") answers every command as the same
// runs ingested into one workspace file: the JSON of runs, stats, ablation, diff, insights and reports,
// and the bytes of chrome and CSV exports, compared whole. Also what --shards accepts, and that a failed
// ingest into a new study leaves no folder behind.
#include "CliRunner.h"
#include "SameCliAnswers.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

namespace {

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("missing: " + path.toUtf8());
}

} // namespace

class TestCliStudy : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString single_, study_;

private slots:
    // Two configurations of a 6-rank synthetic study, ingested into a workspace file and into a study of
    // 4 shards (uneven: ranks 0 and 4 in shard 0) with 2 readers.
    void initTestCase() {
        const QString traces = dir_.filePath("traces");
        const CliResult synth =
            runCli({"synth", "--out", traces, "--nodes", "1", "--gpus-per-node", "6", "--steps", "3",
                    "--layers", "1", "--configs", "Base,AC2+ACCL", "--quiet"});
        QVERIFY2(synth.exitCode == 0, synth.err.constData());
        single_ = dir_.filePath("single.cnpdb");
        study_ = dir_.filePath("study.cnpstudy");
        const QStringList runs = QDir(traces).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QCOMPARE(runs.size(), 2);
        for (const QString& run : runs) {
            const QString config = run.section('-', 1, -2);
            for (const QStringList& target : {QStringList{single_}, QStringList{study_, "--shards", "4"}}) {
                QStringList args{"ingest",   target[0], traces + "/" + run, "--run", run,
                                 "--config", config,    "--jobs",           "2",     "--quiet"};
                if (target.size() > 1 && run == runs.front())
                    args << target.mid(1);
                const CliResult r = runCli(args);
                QVERIFY2(r.exitCode == 0, r.err.constData());
            }
        }
        QCOMPARE(QDir(study_).entryList(QDir::Files, QDir::Name),
                 (QStringList{"cnp-study.json", "index.cnpdb", "shard-0.cnpdb", "shard-1.cnpdb",
                              "shard-2.cnpdb", "shard-3.cnpdb"}));
    }

    void sameAnswers_data() {
        QTest::addColumn<QStringList>("args"); // WS is inserted after the command
        QTest::newRow("runs") << QStringList{"runs", "--json"};
        QTest::newRow("ablation") << QStringList{"ablation", "--json"};
        QTest::newRow("stats") << QStringList{"stats", "--run", "01-Base-r0", "--json"};
        QTest::newRow("stats top 3") << QStringList{"stats", "--run", "03-AC2+ACCL-r0",
                                                    "--top", "3",     "--json"};
        QTest::newRow("diff") << QStringList{"diff", "01-Base-r0", "03-AC2+ACCL-r0", "--json"};
        QTest::newRow("insights") << QStringList{"insights", "--run", "01-Base-r0", "--json"};
    }
    void sameAnswers() {
        QFETCH(QStringList, args);
        verifySameCliAnswers(args, single_, study_);
    }

    void sameExports_data() {
        QTest::addColumn<QString>("format");
        QTest::newRow("chrome") << "chrome";
        QTest::newRow("csv") << "csv";
    }
    void sameExports() {
        QFETCH(QString, format);
        const QString a = dir_.filePath("a-" + format), b = dir_.filePath("b-" + format);
        for (const auto& [ws, out] : {std::pair{single_, a}, std::pair{study_, b}}) {
            const CliResult r =
                runCli({"export", ws, "--run", "03-AC2+ACCL-r0", "--format", format, "--out", out});
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        if (format == "chrome") {
            QCOMPARE(fileBytes(b), fileBytes(a));
            return;
        }
        const QStringList files = QDir(a).entryList(QDir::Files, QDir::Name);
        QVERIFY(files.contains("kernels.csv"));
        QCOMPARE(QDir(b).entryList(QDir::Files, QDir::Name), files);
        for (const QString& f : files)
            QCOMPARE(fileBytes(b + "/" + f), fileBytes(a + "/" + f));
    }

    // The JSON report names the workspace it read; everything else is the same.
    void sameReport() {
        QByteArray reports[2];
        int k = 0;
        for (const QString& ws : {single_, study_}) {
            const QString out = dir_.filePath("report" + QString::number(k) + ".json");
            const CliResult r = runCli({"report", ws, "--out", out});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            reports[k++] = fileBytes(out).replace(QFileInfo(ws).fileName().toUtf8(), "WS");
        }
        QCOMPARE(reports[1], reports[0]);
    }

    void shardsOption_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("on a workspace file")
            << QStringList{"ingest", "x.cnpdb", "t", "--shards", "2"} << "--shards applies to a new study";
        QTest::newRow("zero") << QStringList{"ingest", "x.cnpstudy", "t", "--shards", "0"}
                              << "--shards must be a whole number from 1 to 1024";
        QTest::newRow("too many") << QStringList{"ingest", "x.cnpstudy", "t", "--shards", "2000"}
                                  << "--shards must be a whole number from 1 to 1024";
    }
    void shardsOption() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QDir::setCurrent(dir.path());
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());
    }

    void failedIngestIntoANewStudyLeavesNothing() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.json");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [");
        f.close();
        const CliResult r = runCli({"ingest", dir.filePath("new.cnpstudy"), bad, "--shards", "2"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("bad.json"), r.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("new.cnpstudy")));
        // An existing study stays as it was.
        const CliResult again = runCli({"ingest", study_, bad});
        QCOMPARE(again.exitCode, 2);
        const CliResult runs = runCli({"runs", study_, "--json"});
        QCOMPARE(runs.out.count("\"name\""), 2);
    }
};

QTEST_GUILESS_MAIN(TestCliStudy)
#include "tst_clistudy.moc"
