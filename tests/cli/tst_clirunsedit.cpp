// cnp ingest / runs / edit through the real binary: exit codes, JSON contract, editing.
#include "CliRunner.h"
#include "TestPaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using cnp::testing::runCli;

class TestCliRunsEdit : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString ws_;
    const QString base_ = testpaths::sourceDir() + QStringLiteral("/resources/demo/demo_base.json.gz");
    const QString compile_ = testpaths::sourceDir() + QStringLiteral("/resources/demo/demo_compile.json.gz");

    QJsonArray runsJson() {
        const auto r = runCli({"runs", ws_, "--json"});
        [&] { QCOMPARE(r.exitCode, 0); }();
        return QJsonDocument::fromJson(r.out).object().value("runs").toArray();
    }

private slots:
    void initTestCase() {
        ws_ = dir_.filePath("w.cnpdb");
        auto r =
            runCli({"ingest", ws_, base_, "--run", "base", "--config", "Base", "--tokens-per-step", "8192"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("ingested run 'base': 1 rank"));
        r = runCli({"ingest", ws_, compile_, "--run", "compile", "--config", "+CompilerOpt"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void runsJsonContract() {
        const auto runs = runsJson();
        QCOMPARE(runs.size(), 2);
        const auto b = runs[0].toObject();
        QCOMPARE(b["name"].toString(), QStringLiteral("base"));
        QCOMPARE(b["config"].toString(), QStringLiteral("Base"));
        QCOMPARE(b["source_format"].toString(), QStringLiteral("kineto"));
        QCOMPARE(b["ranks"].toInt(), 1);
        // 4165 kernel events in demo_base.json.gz (python3: count of ph=X, cat=kernel).
        QCOMPARE(b["kernels"].toInteger(), 4165);
        QCOMPARE(b["gpu_models"].toArray().first().toString(), QStringLiteral("NVIDIA H200"));
        QCOMPARE(b["tokens_per_step"].toDouble(), 8192.0);
        QVERIFY(b["source_files"].toArray().first().toString().endsWith("demo_base.json.gz"));
    }

    void exitCodes_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("no command") << QStringList{} << 1 << "usage";
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << 1 << "unknown command";
        QTest::newRow("unknown option")
            << QStringList{"runs", "x.cnpdb", "--bogus"} << 1 << "unknown option --bogus";
        QTest::newRow("missing workspace")
            << QStringList{"runs", "/nonexistent/w.cnpdb"} << 2 << "no such workspace";
        QTest::newRow("missing trace")
            << QStringList{"ingest", "@WS", "/nonexistent.json"} << 2 << "no such file";
        QTest::newRow("duplicate run")
            << QStringList{"ingest", "@WS", "@BASE", "--run", "base"} << 2 << "already exists";
        QTest::newRow("bad number") << QStringList{"ingest", "@WS", "@BASE", "--repeat", "x"} << 1
                                    << "expects a number";
    }
    void exitCodes() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, stderrHas);
        args.replaceInStrings("@WS", ws_);
        args.replaceInStrings("@BASE", base_);
        const auto r = runCli(args);
        QCOMPARE(r.exitCode, code);
        QVERIFY2(QString::fromUtf8(r.err + r.out).contains(stderrHas), (r.err + r.out).constData());
        QCOMPARE(runsJson().size(), 2); // nothing changed
    }

    void helpOnEveryCommand() {
        const auto top = runCli({"--help"});
        QCOMPARE(top.exitCode, 0);
        for (const auto& cmd : {"ingest", "runs", "edit"}) {
            const auto r = runCli({cmd, "--help"});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.startsWith("usage: cnp " + QByteArray(cmd)));
            QVERIFY(top.out.contains(QByteArray("  ") + cmd));
        }
    }

    void editRenameRelabelPlanRemove() {
        QCOMPARE(runCli({"edit", ws_, "--rename", "compile", "tc"}).exitCode, 0);
        QCOMPARE(runCli({"edit", ws_, "--relabel", "tc", "AC2+ACCL+CompilerOpt"}).exitCode, 0);
        QCOMPARE(runCli({"edit", ws_, "--plan", "AC2+ACCL+CompilerOpt,Base"}).exitCode, 0);
        auto runs = runsJson();
        QCOMPARE(runs[0].toObject()["name"].toString(), QStringLiteral("tc"));
        QCOMPARE(runs[0].toObject()["config"].toString(), QStringLiteral("AC2+ACCL+CompilerOpt"));
        QCOMPARE(runCli({"edit", ws_, "--remove", "tc"}).exitCode, 0);
        runs = runsJson();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runCli({"edit", ws_, "--remove", "tc"}).exitCode, 2);
        // Put it back for the other tests' expectations.
        QCOMPARE(runCli({"ingest", ws_, compile_, "--run", "compile", "--config", "+CompilerOpt", "--quiet"})
                     .exitCode,
                 0);
    }

    void failedFirstIngestCreatesNoWorkspace() {
        const QString fresh = dir_.filePath("fresh.cnpdb");
        QFile bad(dir_.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("[1,2,3]");
        bad.close();
        const auto r = runCli({"ingest", fresh, bad.fileName()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("bad.json"));
        QVERIFY(!QFile::exists(fresh));
    }
};

QTEST_GUILESS_MAIN(TestCliRunsEdit)
#include "tst_clirunsedit.moc"
