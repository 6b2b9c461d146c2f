// `cnp insights` end to end: the eager gradient-checkpointing H200 run is launch-bound under the profiler
// (its step windows hold ~40 ms of idle, python reference: ProfilerStep#1 idle 45048228 ns), torch.compile
// is not; JSON contract and exit codes.
#include "CliRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

class TestCliInsights : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("ins.cnpdb");
        const QByteArray err = ingestDemoRuns(ws, {"ckpt", "compile"});
        QVERIFY2(err.isEmpty(), err.constData());
    }

    void launchBoundCheckpointing() {
        const auto r = runCli({"insights", ws, "--run", "ckpt", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["run"].toString(), QStringLiteral("ckpt"));
        QJsonObject gaps;
        for (const auto& v : d["insights"].toArray())
            if (v.toObject()["id"].toString() == "idle-gaps")
                gaps = v.toObject();
        QVERIFY(!gaps.isEmpty());
        QCOMPARE(gaps["severity"].toString(), QStringLiteral("critical"));
        QVERIFY(gaps["title"].toString().contains("launch-bound"));
        QVERIFY(gaps["value"].toDouble() > 0.10);
        const auto ev = gaps["evidence"].toArray();
        QVERIFY(!ev.isEmpty());
        const auto e = ev[0].toObject();
        for (const char* k : {"rank", "step", "start_ns", "end_ns", "kernels", "detail"})
            QVERIFY2(e.contains(k), k);
        QVERIFY(e["end_ns"].toInteger() - e["start_ns"].toInteger() >= 100000);
    }

    void compileIsClean() {
        const auto r = runCli({"insights", ws, "--run", "compile", "--json"});
        QCOMPARE(r.exitCode, 0);
        for (const auto& v : QJsonDocument::fromJson(r.out)["insights"].toArray())
            QVERIFY(v.toObject()["id"].toString() != "idle-gaps");
        // With a 10 us threshold the small gaps of the compiled run show up, as info or warning.
        const auto low = runCli({"insights", ws, "--run", "compile", "--json", "--idle-gap-us", "10"});
        QCOMPARE(low.exitCode, 0);
    }

    void human() {
        const auto r = runCli({"insights", ws, "--run", "ckpt"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("[critical]"));
    }

    void errors() {
        QCOMPARE(runCli({"insights", ws}).exitCode, 1);
        QCOMPARE(runCli({"insights", ws, "--run", "ckpt", "--idle-gap-us", "1"}).exitCode, 1);
        const auto r = runCli({"insights", ws, "--run", "nope"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("nope"));
    }
};

QTEST_GUILESS_MAIN(TestCliInsights)
#include "tst_cliinsights.moc"
