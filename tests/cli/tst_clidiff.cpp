// `cnp diff` end to end on two real H200 runs (eager base vs torch.compile): JSON contract, consistency
// of the summary with the rows, and exit codes; `cnp diff --step` (the step diff) likewise.
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

    // Step 2 of each run: the JSON's items add up to its per-stream and total counts and times, and the
    // compiled run's triton kernels are all added (250 in ProfilerStep#2 of demo_compile.json.gz).
    void stepJson() {
        const auto r = runCli({"diff", ws, "base", "compile", "--step", "2", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["step_a"].toObject()["step"].toInt(), 2);
        QCOMPARE(d["step_b"].toObject()["step"].toInt(), 2);
        QCOMPARE(d["median"].toBool(), false);
        const auto t = d["totals"].toObject();
        const auto streams = d["streams"].toArray();
        QCOMPARE(streams.size(), 1);
        const auto lane = streams[0].toObject();
        QCOMPARE(lane["paired_by"].toString(), QStringLiteral("id"));
        qint64 matched = 0, added = 0, removed = 0, addedNs = 0, removedNs = 0, slower = 0, faster = 0,
               triton = 0;
        for (const auto& v : lane["items"].toArray()) {
            const auto i = v.toObject();
            const QString kind = i["kind"].toString();
            const qint64 da = i["a"].toObject()["duration_ns"].toInteger();
            const qint64 db = i["b"].toObject()["duration_ns"].toInteger();
            if (kind == "matched") {
                ++matched;
                QCOMPARE(i["shift_ns"].toInteger(), i["b"].toObject()["offset_ns"].toInteger() -
                                                        i["a"].toObject()["offset_ns"].toInteger());
                (db >= da ? slower : faster) += db - da;
            } else if (kind == "added") {
                ++added;
                addedNs += db;
                QVERIFY(!i.contains("a"));
                triton += i["name"].toString().startsWith("triton_");
            } else {
                QCOMPARE(kind, QStringLiteral("removed"));
                ++removed;
                removedNs += da;
                QVERIFY(!i.contains("b"));
            }
        }
        QCOMPARE(triton, 250);
        QCOMPARE(matched, t["matched"].toInteger());
        QCOMPARE(added, t["added"].toInteger());
        QCOMPARE(removed, t["removed"].toInteger());
        QCOMPARE(matched * 2 + added + removed, 1419 + 620); // every activity of both steps, once
        QCOMPARE(addedNs, t["added_ns"].toInteger());
        QCOMPARE(removedNs, t["removed_ns"].toInteger());
        QCOMPARE(slower, t["slower_ns"].toInteger());
        QCOMPARE(faster, t["faster_ns"].toInteger());
        QCOMPARE(t["delta_ns"].toInteger(), t["span_b_ns"].toInteger() - t["span_a_ns"].toInteger());
        QCOMPARE(t["delta_ns"].toInteger(), slower + faster + addedNs - removedNs + t["idle_ns"].toInteger());
    }

    void stepMedianText() {
        const auto r = runCli({"diff", ws, "base", "compile", "--step", "median", "--top", "3"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("(median steps)"));
        QVERIFY(r.out.contains("idle and overlap"));
        QVERIFY(r.out.contains("largest shift jumps"));
    }

    void stepErrors_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no such step") << QStringList{"--step", "9"} << 2 << "has no step 9";
        QTest::newRow("no such rank") << QStringList{"--step", "1", "--rank", "3"} << 2 << "has no rank 3";
        QTest::newRow("not a number") << QStringList{"--step", "two"} << 1 << "--step";
        QTest::newRow("fraction") << QStringList{"--step", "1.5"} << 1 << "--step";
        QTest::newRow("rank alone") << QStringList{"--rank", "0"} << 1 << "--rank needs --step";
    }
    void stepErrors() {
        QFETCH(QStringList, extra);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const auto r = runCli(QStringList{"diff", ws, "base", "compile"} + extra);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_clidiff.moc"
