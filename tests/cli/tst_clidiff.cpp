// `cnp diff` end to end on two real H200 runs (eager base vs torch.compile): JSON contract, consistency
// of the summary with the rows, and exit codes.
#include "CliRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

class TestCliDiff : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("diff.cnpdb");
        const QByteArray err = ingestDemoRuns(ws, {"base", "compile"});
        QVERIFY2(err.isEmpty(), err.constData());
    }

    void json_data() {
        QTest::addColumn<bool>("normalize");
        QTest::newRow("exact") << false;
        QTest::newRow("normalised") << true;
    }
    void json() {
        QFETCH(bool, normalize);
        QStringList args{"diff", ws, "base", "compile", "--json"};
        if (normalize)
            args << "--normalize";
        const auto r = runCli(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        const auto s = d["summary"].toObject();
        const auto kernels = d["kernels"].toArray();
        QCOMPARE(s["added"].toInt() + s["removed"].toInt() + s["faster"].toInt() + s["slower"].toInt() +
                     s["unchanged"].toInt(),
                 kernels.size());
        qint64 prev = std::numeric_limits<qint64>::max(), totalA = 0, totalB = 0;
        for (const auto& v : kernels) {
            const auto k = v.toObject();
            for (const char* key : {"name", "category", "a", "b", "delta_ns", "class"})
                QVERIFY2(k.contains(key), key);
            const qint64 a = k["a"].toObject()["total_ns"].toInteger(),
                         b = k["b"].toObject()["total_ns"].toInteger();
            QCOMPARE(k["delta_ns"].toInteger(), b - a);
            QVERIFY(std::llabs(b - a) <= prev); // sorted by |delta|
            prev = std::llabs(b - a);
            totalA += a;
            totalB += b;
            if (k["a"].toObject()["count"].toInt() == 0)
                QCOMPARE(k["class"].toString(), QStringLiteral("added"));
        }
        QCOMPARE(totalA, d["total_kernel_time_ns"].toObject()["a"].toInteger());
        QCOMPARE(totalB, d["total_kernel_time_ns"].toObject()["b"].toInteger());
        QCOMPARE(d["step_times_ns"].toObject()["a"].toArray().size(), 3);
        // torch.compile replaces eager elementwise kernels by triton ones: some are added and removed.
        QVERIFY(s["added"].toInt() > 0 && s["removed"].toInt() > 0);
    }

    void normalisingMergesRows() {
        const auto exact = QJsonDocument::fromJson(runCli({"diff", ws, "base", "compile", "--json"}).out);
        const auto norm =
            QJsonDocument::fromJson(runCli({"diff", ws, "base", "compile", "--json", "--normalize"}).out);
        QVERIFY(norm["kernels"].toArray().size() < exact["kernels"].toArray().size());
    }

    void human() {
        const auto r = runCli({"diff", ws, "base", "compile", "--top", "5"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("median step"));
        QVERIFY(r.out.contains("more; --top 0 lists all"));
    }

    void errors() {
        QCOMPARE(runCli({"diff", ws, "base"}).exitCode, 1);
        const auto r = runCli({"diff", ws, "base", "nope"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("nope"));
    }
};

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_clidiff.moc"
