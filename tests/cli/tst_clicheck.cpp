// `cnp history` and `cnp check` on tiny synthetic studies (1 node x 2 GPUs, 1 layer, two configurations):
// the exit codes 0 / 1 / 2 exactly as docs/cli.md states them, the JUnit report's test cases and failures,
// the JSON, and refused input (a duplicate release, a hostile manifest, usage errors exit 2, not 1).
#include "CliRunner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

class TestCliCheck : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

    // A two-configuration study of `steps` steps, ingested into NAME.cnpdb; `extra` adds synth options.
    QString study(const QString& name, int seed, int steps, const QStringList& extra = {}) const {
        QStringList args{"synth",
                         "--out",
                         path(name + "-traces"),
                         "--nodes",
                         "1",
                         "--gpus-per-node",
                         "2",
                         "--layers",
                         "1",
                         "--steps",
                         QString::number(steps),
                         "--seed",
                         QString::number(seed),
                         "--configs",
                         "Base,Base+ACCL",
                         "--quiet",
                         "--ingest",
                         path(name + ".cnpdb")};
        args << extra;
        const CliResult r = runCli(args);
        if (r.exitCode != 0)
            qWarning("%s", r.err.constData());
        return path(name + ".cnpdb");
    }

    QString seriesStudy(const QString& name, int seed, const QStringList& extra) const {
        QStringList args{"synth",
                         "--out",
                         path(name + "-traces"),
                         "--nodes",
                         "1",
                         "--gpus-per-node",
                         "2",
                         "--layers",
                         "1",
                         "--steps",
                         "20",
                         "--seed",
                         QString::number(seed),
                         "--configs",
                         "Base,Base+ACCL",
                         "--quiet",
                         "--ingest",
                         path(name + ".cnpdb")};
        args << extra;
        const CliResult r = runCli(args);
        if (r.exitCode != 0)
            qWarning("%s", r.err.constData());
        return path(name + ".cnpdb");
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const CliResult add =
            runCli({"history", "add", path("hist"), study("r1", 1, 12), "--release", "26.01", "--date",
                    "2026-01-15", "--commit", "abc123", "--nccl", "2.21.5"});
        QVERIFY2(add.exitCode == 0, add.err.constData());
        QVERIFY(QFile::exists(path("hist/cnp-history.json")));
        QVERIFY(QFile::exists(path("hist/summaries/26.01.json")));
    }

    void exitCodes_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("synth");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("says");
        // The same seed and no regression: every step identical, ratio exactly 1.
        QTest::newRow("no change") << "same" << QStringList{} << 12 << 0 << "no-change";
        QTest::newRow("10 % regression")
            << "slow" << QStringList{"--regression", "10%"} << 12 << 1 << "regression";
        QTest::newRow("regression of one configuration")
            << "slowaccl" << QStringList{"--regression", "0.1", "--regression-configs", "Base+ACCL"} << 12
            << 1 << "regression";
        QTest::newRow("too few steps") << "short" << QStringList{} << 9 << 2 << "too few steps";
        QTest::newRow("missing configuration") << "base" << QStringList{"--configs", "Base"} << 12 << 2
                                               << "configuration Base+ACCL of the baseline is missing";
    }
    void exitCodes() {
        QFETCH(QString, name);
        QFETCH(QStringList, synth);
        QFETCH(int, steps);
        QFETCH(int, exitCode);
        QFETCH(QString, says);
        const QString ws = study(name, 1, steps, synth);
        const CliResult r = runCli({"check", ws, "--against", path("hist"), "--junit", path(name + ".xml")});
        QVERIFY2(r.exitCode == exitCode, r.out.constData());
        QVERIFY2(r.out.contains(says.toUtf8()), r.out.constData());
        QFile junit(path(name + ".xml"));
        QVERIFY(junit.open(QIODevice::ReadOnly));
        const QByteArray xml = junit.readAll();
        QVERIFY(xml.startsWith("<?xml"));
        QVERIFY(xml.contains("<testsuite name=\"cnp check\""));
        QCOMPARE(xml.count("<testcase classname=\"cnp.check.Base\" name=\"step_time\">"), 1);
        if (exitCode == 1)
            QVERIFY(xml.contains("<failure type=\"regression\""));
        else
            QVERIFY(!xml.contains("<failure"));
        if (exitCode == 2)
            QVERIFY(xml.contains("<error type=\"cannot-judge\""));
    }

    // The regression's size and CI in JSON: one configuration x metric per check, the other configuration
    // unchanged (common random numbers: the same seed draws the same jitter).
    void regressionJson() {
        const QString ws =
            study("slowjson", 1, 12, {"--regression", "10%", "--regression-configs", "Base+ACCL"});
        const CliResult r =
            runCli({"check", ws, "--against", path("hist"), "--metric", "step_time,throughput", "--json"});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o["exit_code"].toInt(), 1);
        QCOMPARE(o["baseline_release"].toString(), QString("26.01"));
        QCOMPARE(o["min_steps"].toInt(), 10);
        const QJsonArray checks = o["checks"].toArray();
        QCOMPARE(checks.size(), 4); // 2 configurations x 2 metrics
        for (const auto& v : checks) {
            const QJsonObject c = v.toObject();
            const bool slowed = c["config"].toString() == "Base+ACCL";
            const double ratio = c["ratio"].toDouble();
            QCOMPARE(c["verdict"].toString(), QString(slowed ? "regression" : "no-change"));
            if (!slowed)
                QCOMPARE(ratio, 1.0);
            else if (c["metric"].toString() == "step_time")
                QVERIFY2(ratio > 1.08 && ratio < 1.12, qPrintable(QString::number(ratio)));
            else
                QVERIFY2(ratio > 1 / 1.12 && ratio < 1 / 1.08, qPrintable(QString::number(ratio)));
            const QJsonArray ci = c["ci95"].toArray();
            QVERIFY(ci[0].toDouble() <= ratio && ratio <= ci[1].toDouble());
            QCOMPARE(c["baseline_steps"].toInt(), 12);
        }
    }

    void historyShow() {
        QVERIFY(
            runCli({"history", "add", path("hist"), study("same", 1, 12), "--release", "26.02"}).exitCode ==
            0);
        const CliResult r = runCli({"history", "show", path("hist"), "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray releases = o["releases"].toArray();
        QCOMPARE(releases.size(), 2);
        QCOMPARE(releases[0].toObject()["commit"].toString(), QString("abc123"));
        QCOMPARE(releases[0].toObject()["nccl"].toString(), QString("2.21.5"));
        QCOMPARE(releases[0].toObject()["study"].toString(),
                 QString("../r1.cnpdb").mid(3).prepend(dir_.path() + "/"));
        const QJsonArray series = o["series"].toArray();
        QCOMPARE(series.size(), 6); // 2 configurations x step_time, throughput, mfu
        const QJsonObject first = series[0].toObject();
        QCOMPARE(first["metric"].toString(), QString("step_time"));
        const QJsonArray points = first["points"].toArray();
        QCOMPARE(points.size(), 2);
        QCOMPARE(points[0].toObject()["value"].toDouble(), points[1].toObject()["value"].toDouble());
        QVERIFY(first["change_points"].toArray().isEmpty()); // two releases: too short for a change point
        const CliResult text = runCli({"history", "show", path("hist")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("2 releases in"));
    }

    // A release series as the benchmark builds them, small: three releases from seeds 101..103 (another
    // cluster draw each), candidates from seed 104 without and with an injected 5 % regression. Fixed
    // seeds, so the verdicts are fixed: no change (exit 0) and a regression of both configurations (exit 1),
    // each measured against the pooled window r1 .. r3.
    void releaseSeries_data() {
        QTest::addColumn<QString>("regression");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("no change") << "0" << 0;
        QTest::newRow("5 %") << "5%" << 1;
    }
    void releaseSeries() {
        QFETCH(QString, regression);
        QFETCH(int, exitCode);
        if (!QFile::exists(path("series/cnp-history.json")))
            for (int r = 1; r <= 3; ++r) {
                const QString ws = seriesStudy("h" + QString::number(r), 100 + r, {});
                QVERIFY(runCli({"history", "add", path("series"), ws, "--release", "r" + QString::number(r)})
                            .exitCode == 0);
            }
        const QString ws = seriesStudy("c" + QString::number(exitCode), 104, {"--regression", regression});
        const CliResult r = runCli({"check", ws, "--against", path("series"), "--json"});
        QVERIFY2(r.exitCode == exitCode, r.out.constData());
        const QJsonArray checks = QJsonDocument::fromJson(r.out).object()["checks"].toArray();
        QCOMPARE(checks.size(), 2);
        for (const auto& v : checks) {
            const QJsonObject c = v.toObject();
            QCOMPARE(c["verdict"].toString(), QString(exitCode ? "regression" : "no-change"));
            QCOMPARE(c["baseline_releases"].toArray().size(), 3);
            QCOMPARE(c["baseline_steps"].toInt(), 60);
            QVERIFY(c["release_spread"].toDouble() > 0);
        }
    }

    void refused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("check without --against")
            << QStringList{"check", "x.cnpdb"} << 2 << "--against HISTORY is required";
        QTest::newRow("bad tolerance")
            << QStringList{"check", "x.cnpdb", "--against", "h", "--tolerance", "lots"} << 2
            << "--tolerance must be";
        QTest::newRow("no history") << QStringList{"check", "x.cnpdb", "--against", "nohist"} << 2
                                    << "cnp-history.json";
        QTest::newRow("add without --release")
            << QStringList{"history", "add", "h", "x.cnpdb"} << 1 << "--release NAME is required";
        QTest::newRow("bad release name")
            << QStringList{"history", "add", "h", "x.cnpdb", "--release", "../x"} << 1 << "--release must be";
        QTest::newRow("unknown subcommand") << QStringList{"history", "drop"} << 1 << "unknown subcommand";
    }
    void refused() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString cwd = QDir::currentPath();
        QDir::setCurrent(dir_.path());
        const CliResult r = runCli(args);
        QDir::setCurrent(cwd);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    // A duplicate release leaves the history as it was; a hostile manifest is refused naming it, exit 2.
    void hostileHistory() {
        QFile manifest(path("hist/cnp-history.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        const QByteArray before = manifest.readAll();
        manifest.close();
        const CliResult dup =
            runCli({"history", "add", path("hist"), path("r1.cnpdb"), "--release", "26.01"});
        QCOMPARE(dup.exitCode, 2);
        QVERIFY(dup.err.contains("already in the history"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QCOMPARE(manifest.readAll(), before);
        manifest.close();

        QDir().mkpath(path("evil"));
        QFile evil(path("evil/cnp-history.json"));
        QVERIFY(evil.open(QIODevice::WriteOnly));
        evil.write(
            "{\"format\": \"cnp-history\", \"version\": 1, \"entries\": [{\"release\": \"x\", \"study\": "
            "\"../../etc/passwd\", \"summary\": \"summaries/x.json\"}]}");
        evil.close();
        const CliResult r = runCli({"check", path("r1.cnpdb"), "--against", path("evil")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("cnp-history.json") && r.err.contains("leaves the history folder"),
                 r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCheck)
#include "tst_clicheck.moc"
