// `cnp synth`: exit codes for bad usage and bad input, the folders it writes, and --ingest landing runs
// labelled with configuration and repeat, flagged synthetic, in the study's plan order (docs/cli.md).
#include "CliRunner.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace cnp::testing;

class TestCliSynth : public QObject {
    Q_OBJECT
private slots:
    void refused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no --out") << QStringList{"synth"} << 1 << "--out DIR is required";
        QTest::newRow("negative steps") << QStringList{"synth", "--out", "x", "--steps", "-2"} << 1
                                        << "--steps must be a non-negative integer";
        QTest::newRow("unknown configuration")
            << QStringList{"synth", "--out", "x", "--configs", "Base,Nope"} << 2 << "no configuration 'Nope'";
        QTest::newRow("unknown study")
            << QStringList{"synth", "--out", "x", "--study", "nope"} << 2 << "cannot open the study file";
    }
    void refused() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QDir::setCurrent(dir.path());
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(!QDir(dir.filePath("x")).exists()); // nothing written for refused input
    }

    // A symlink (or FIFO) planted in the output folder under a rank file's name is never written through
    // (it truncated its target): the run is refused naming it, and the target is untouched.
    void plantedFilesNotFollowed_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("cause");
        QTest::newRow("symlink") << "symlink"
                                 << "rank-00001.cnpt: is a symbolic link; refusing to write through it";
        QTest::newRow("fifo") << "fifo"
                              << "rank-00001.cnpt: exists and is not a regular file; refusing to write to it";
    }
    void plantedFilesNotFollowed() {
        QFETCH(QString, kind);
        QFETCH(QString, cause);
        QTemporaryDir dir;
        const QString out = dir.filePath("study"), victim = dir.filePath("victim");
        QVERIFY(QDir().mkpath(out + "/01-Base-r0"));
        QFile v(victim);
        QVERIFY(v.open(QIODevice::WriteOnly));
        v.write("precious");
        v.close();
        const QString planted = out + "/01-Base-r0/rank-00001.cnpt";
        if (kind == "symlink")
            QVERIFY(QFile::link(victim, planted));
        else
            QCOMPARE(::mkfifo(planted.toUtf8().constData(), 0600), 0);
        const CliResult r = runCli({"synth", "--out", out, "--nodes", "1", "--gpus-per-node", "2", "--steps",
                                    "2", "--layers", "1", "--configs", "Base", "--quiet"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(cause), r.err.constData());
        QVERIFY(v.open(QIODevice::ReadOnly));
        QCOMPARE(v.readAll(), QByteArray("precious"));
    }

    void ingestsLabelledSyntheticRuns() {
        QTemporaryDir dir;
        const QString out = dir.filePath("study"), ws = dir.filePath("ws.cnpdb");
        const CliResult r =
            runCli({"synth", "--out", out, "--nodes", "1", "--gpus-per-node", "2", "--steps", "2", "--layers",
                    "1", "--repeats", "2", "--configs", "AC2+ACCL,Base", "--ingest", ws, "--quiet"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList folders = QDir(out).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QCOMPARE(folders, (QStringList{"01-Base-r0", "01-Base-r1", "03-AC2+ACCL-r0", "03-AC2+ACCL-r1"}));
        QCOMPARE(QDir(out + "/01-Base-r0").entryList(QDir::Files),
                 (QStringList{"rank-00000.cnpt", "rank-00000.cnpt.sha256", "rank-00001.cnpt",
                              "rank-00001.cnpt.sha256"}));

        const CliResult runs = runCli({"runs", ws, "--json"});
        QCOMPARE(runs.exitCode, 0);
        const QJsonArray list = QJsonDocument::fromJson(runs.out).object()["runs"].toArray();
        QCOMPARE(list.size(), 4);
        // Plan order = the study's order (Base before AC2+ACCL), whatever order --configs gave.
        const QStringList expected{"Base", "Base", "AC2+ACCL", "AC2+ACCL"};
        for (int i = 0; i < 4; ++i) {
            const QJsonObject run = list[i].toObject();
            QCOMPARE(run["config"].toString(), expected[i]);
            QCOMPARE(run["synthetic"].toBool(), true);
            QCOMPARE(run["ranks"].toInt(), 2);
            QCOMPARE(run["tokens_per_step"].toDouble(), 2 * 8192.0);
        }
        QCOMPARE(list[1].toObject()["repeat"].toInt(), 1);
        QCOMPARE(list[1].toObject()["name"].toString(), QStringLiteral("Base-r1"));
    }
};

QTEST_GUILESS_MAIN(TestCliSynth)
#include "tst_clisynth.moc"
