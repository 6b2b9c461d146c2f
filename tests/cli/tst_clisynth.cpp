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

#include <algorithm>
#include <cmath>

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
        QTest::newRow("plant on a rank the run lacks")
            << QStringList{"synth", "--out", "x", "--nodes", "1", "--gpus-per-node", "2", "--plant-slow-gpu",
                           "9"}
            << 2 << "a planted problem names rank 9";
        QTest::newRow("plant speeding up") << QStringList{"synth", "--out", "x", "--plant-slow-link", "1:0.5"}
                                           << 1 << "--plant-slow-link: '0.5' is not a number from";
        QTest::newRow("plant without a rank")
            << QStringList{"synth", "--out", "x", "--plant-slow-loader", ":20"} << 1
            << "--plant-slow-loader: '' is not a number";
        QTest::newRow("clock error without node")
            << QStringList{"synth", "--out", "x", "--plant-clock-error", "300"} << 1
            << "--plant-clock-error: '300' is not NODE:MICROSECONDS[:PPM]";
        QTest::newRow("clock error on a node the run lacks")
            << QStringList{"synth", "--out", "x", "--nodes", "2", "--plant-clock-error", "5:300"} << 2
            << "a planted clock error names a node the run does not have";
        QTest::newRow("clock drift out of range")
            << QStringList{"synth", "--out", "x", "--plant-clock-error", "1:300:1500"} << 1
            << "--plant-clock-error: '1500' is not a number from -1000 to 1000";
        QTest::newRow("clock drift not a number")
            << QStringList{"synth", "--out", "x", "--plant-clock-error", "1:300:"} << 1
            << "--plant-clock-error: '' is not a number";
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

    // Problems planted from the command line are recovered by `cnp stragglers`: a GPU 30 % slower on
    // rank 1 and a data loader 40 ms slower every step on rank 2, of 2 x 2 ranks; a clock error of 300 µs
    // and 20 ppm on node 1 shows in `cnp collectives` as that host's offset and drift against node 0's,
    // from the fit stored at ingest.
    void plantsRecoveredByStragglers() {
        QTemporaryDir dir;
        const QString out = dir.filePath("study"), ws = dir.filePath("ws.cnpdb");
        const CliResult r = runCli({"synth",    "--out",
                                    out,        "--nodes",
                                    "2",        "--gpus-per-node",
                                    "2",        "--steps",
                                    "4",        "--layers",
                                    "2",        "--configs",
                                    "Base",     "--seed",
                                    "3",        "--plant-slow-gpu",
                                    "1:1.3",    "--plant-slow-loader",
                                    "2:40",     "--plant-clock-error",
                                    "1:300:20", "--ingest",
                                    ws,         "--quiet"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const CliResult s = runCli({"stragglers", ws, "--run", "Base-r0", "--json"});
        QVERIFY2(s.exitCode == 0, s.err.constData());
        QMap<int, QStringList> causes;
        for (const auto& v : QJsonDocument::fromJson(s.out).object()["ranks"].toArray()) {
            const auto rank = v.toObject();
            for (const auto& c : rank["causes"].toArray())
                causes[rank["rank"].toInt()] << c.toString();
        }
        QVERIFY2(causes[1].contains("slower-gpu"), s.out.constData());
        QVERIFY2(causes[2].contains("host-idle"), s.out.constData());
        const CliResult c = runCli({"collectives", ws, "--run", "Base-r0", "--json"});
        QVERIFY2(c.exitCode == 0, c.err.constData());
        const auto hosts = QJsonDocument::fromJson(c.out).object()["clocks"].toObject()["hosts"].toArray();
        QCOMPARE(hosts.size(), 2);
        // One host (the reference, node 0) at 0, the other 300 µs off: within 10 µs (docs/metrics.md).
        QList<qint64> offsets{std::abs(hosts[0].toObject()["offset_ns"].toInteger()),
                              std::abs(hosts[1].toObject()["offset_ns"].toInteger())};
        std::sort(offsets.begin(), offsets.end());
        QVERIFY2(offsets[0] < 10000 && std::abs(offsets[1] - 300000) < 10000, c.out.constData());
        const auto clocks = QJsonDocument::fromJson(c.out).object()["clocks"].toObject();
        QCOMPARE(clocks["source"].toString(), QStringLiteral("stored-at-ingest"));
        const auto other = hosts[0].toObject()["offset_ns"].toInteger() == 0 ? hosts[1] : hosts[0];
        QVERIFY2(std::abs(other.toObject()["drift_ppm"].toDouble() - 20) < 1, c.out.constData());
        // No cross-host order finer than the stated error: a call's last rank is certain exactly when every
        // rank of the other node (2 GPUs per node: node = rank / 2) arrived more than the error before it.
        const qint64 error = clocks["stored_error_ns"].toInteger();
        QVERIFY(error > 290000);
        int uncertain = 0;
        for (const auto& v : QJsonDocument::fromJson(c.out).object()["collectives"].toArray()) {
            const auto call = v.toObject();
            const int last = call["last_rank"].toInt();
            const qint64 lastArrival = call["last_arrival_ns"].toInteger();
            bool close = false;
            for (const auto& mv : call["members"].toArray()) {
                const auto member = mv.toObject();
                if (member["rank"].toInt() / 2 != last / 2 &&
                    lastArrival - member["arrival_ns"].toInteger() <= error)
                    close = true;
            }
            QCOMPARE(call["last_rank_certain"].toBool(), !close);
            uncertain += close ? 1 : 0;
        }
        const CliResult text = runCli({"collectives", ws, "--run", "Base-r0"});
        if (uncertain > 0)
            QVERIFY2(text.out.contains("last rank marked ?"), text.out.constData());
        QVERIFY2(text.out.contains("; fitted at ingest): aligned to +-"), text.out.constData());
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
