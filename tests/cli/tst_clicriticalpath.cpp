// `cnp critical-path` and `cnp whatif` end to end on HTA's cuda_event_sync trace (its ProfilerStep#100 step,
// 3,154 us from 1707417525509335 to 1707417525512489 us) and simple_add (its forward pass instance 1,
// 243,351 us): the JSON contract (docs/cli.md), the breakdown summing to the length, exit codes.
#include "CliRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

namespace {

QString fixture(const char* name) {
    return testpaths::dataDir() + QStringLiteral("/hta/critical_path/") + QString::fromUtf8(name);
}

const char* const kKinds[] = {"cpu",    "compute",    "communication", "memory",
                              "launch", "kernel_gap", "sync",          "collective_wait"};

} // namespace

class TestCliCriticalPath : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("cp.cnpdb");
        for (const auto& [file, run] :
             {std::pair{"cuda_event_sync.json.gz", "es"}, std::pair{"simple_add.json.gz", "add"}}) {
            const auto r = runCli({"ingest", ws, fixture(file), "--run", run, "--config", "A"});
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
    }

    void stepJson() {
        const auto r = runCli({"critical-path", ws, "--run", "es", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["run"].toString(), QStringLiteral("es"));
        const auto ranks = d["ranks"].toArray();
        QCOMPARE(ranks.size(), 1);
        const auto rank = ranks[0].toObject();
        QCOMPARE(rank["rank"].toInt(), 0);
        QCOMPARE(rank["step"].toInt(), 100);
        QCOMPARE(rank["window_start_ns"].toInteger(), qint64(1707417525509335000));
        QCOMPARE(rank["length_ns"].toInteger(), qint64(3154000));
        QCOMPARE(rank["end_ns"].toInteger(), qint64(1707417525512489000));
        const auto breakdown = rank["breakdown"].toObject();
        qint64 sum = 0;
        double shares = 0;
        for (const char* k : kKinds) {
            QVERIFY2(breakdown.contains(k), k);
            sum += breakdown[k].toObject()["ns"].toInteger();
            shares += breakdown[k].toObject()["share"].toDouble();
        }
        QCOMPARE(sum, qint64(3154000));
        QVERIFY(std::abs(shares - 1.0) < 1e-9);
        // The path: contiguous segments from the step's start to its end, each of a known kind.
        const auto path = rank["path"].toArray();
        QVERIFY(!path.isEmpty());
        qint64 at = rank["window_start_ns"].toInteger(), total = 0;
        for (const auto& v : path) {
            const auto s = v.toObject();
            QCOMPARE(s["start_ns"].toInteger(), at);
            at = s["end_ns"].toInteger();
            total += s["ns"].toInteger();
            QVERIFY(breakdown.contains(s["kind"].toString()));
            // Where it lies: a thread, or a GPU stream (for GPU time, launch delays, gaps, event waits).
            const QString kind = s["kind"].toString();
            if (kind == "compute" || kind == "memory" || kind == "kernel_gap")
                QVERIFY(s.contains("stream") && s.contains("device"));
            else if (kind == "cpu")
                QCOMPARE(s["tid"].toInteger(), qint64(948300));
            else
                QVERIFY(s.contains("stream") || s.contains("tid"));
        }
        QCOMPARE(at, qint64(1707417525512489000));
        QCOMPARE(total, qint64(3154000));
        const auto graph = rank["graph"].toObject();
        QCOMPARE(graph["gpu_activities"].toInt(), 5);
        QVERIFY(!d["notes"].toArray().isEmpty());
    }

    void annotationWindow() {
        const auto r =
            runCli({"critical-path", ws, "--run", "add", "--annotation",
                    "[param|pytorch.model.alex_net|0|0|0|measure|forward]", "--instance", "1", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto rank = QJsonDocument::fromJson(r.out)["ranks"].toArray()[0].toObject();
        QCOMPARE(rank["length_ns"].toInteger(), qint64(243351000));
        QCOMPARE(rank["step"].toInt(), -1);
        // HTA's weights: shorter, and part of it on the GPU.
        const auto h = runCli({"critical-path", ws, "--run", "add", "--annotation",
                               "[param|pytorch.model.alex_net|0|0|0|measure|forward]", "--instance", "1",
                               "--json", "--hta-weights"});
        QCOMPARE(h.exitCode, 0);
        const auto hr = QJsonDocument::fromJson(h.out)["ranks"].toArray()[0].toObject();
        QVERIFY(hr["length_ns"].toInteger() < 243351000);
        QVERIFY(hr["breakdown"].toObject()["compute"].toObject()["ns"].toInteger() > 0);
    }

    void text() {
        const auto r = runCli({"critical-path", ws, "--run", "es"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("rank 0, step 100: 3.154000 ms"));
        QVERIFY(r.out.contains("most of the path"));
    }

    void whatIfJson() {
        // The spin kernel is on the path: halving compute shortens the step; a factor 1 leaves it.
        const auto r = runCli({"whatif", ws, "--run", "es", "--scale", "elementwise/reduction=0.5,gemm=0.5",
                               "--scale-kernel", "spin_kernel=0.5", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["measured_ns"].toInteger(), qint64(3154000));
        QVERIFY(d["predicted_ns"].toInteger() < 3154000);
        QVERIFY(d["predicted_ns"].toInteger() >= 3154000 - 36000); // at most the spin kernel's 36 us go
        QCOMPARE(d["windows"].toArray().size(), 1);
        QVERIFY(d["scenario"].toString().contains("spin_kernel"));
        const auto same = runCli({"whatif", ws, "--run", "es", "--comm", "1", "--scale", "gemm=1", "--json"});
        QCOMPARE(QJsonDocument::fromJson(same.out)["predicted_ns"].toInteger(), qint64(3154000));
        const auto nosync = runCli({"whatif", ws, "--run", "es", "--remove-sync", "all", "--json"});
        QCOMPARE(nosync.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(nosync.out)["predicted_ns"].toInteger() <= 3154000);
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("no --run") << QStringList{"critical-path", "WS"} << 1;
        QTest::newRow("step and annotation")
            << QStringList{"critical-path", "WS", "--run", "es", "--step", "1", "--annotation", "x"} << 1;
        QTest::newRow("instance alone")
            << QStringList{"critical-path", "WS", "--run", "es", "--instance", "1"} << 1;
        QTest::newRow("unknown run") << QStringList{"critical-path", "WS", "--run", "nope"} << 2;
        QTest::newRow("unknown step")
            << QStringList{"critical-path", "WS", "--run", "es", "--step", "3"} << 2;
        QTest::newRow("unknown rank")
            << QStringList{"critical-path", "WS", "--run", "es", "--rank", "5"} << 2;
        QTest::newRow("no transformation") << QStringList{"whatif", "WS", "--run", "es"} << 1;
        QTest::newRow("bad factor") << QStringList{"whatif", "WS", "--run", "es", "--scale", "gemm=-1"} << 1;
        QTest::newRow("not NAME=F") << QStringList{"whatif", "WS", "--run", "es", "--scale", "gemm"} << 1;
        QTest::newRow("comm not a number")
            << QStringList{"whatif", "WS", "--run", "es", "--comm", "half"} << 1;
    }
    void refusals() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        args.replaceInStrings(QStringLiteral("WS"), ws);
        const auto r = runCli(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY(!r.err.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliCriticalPath)
#include "tst_clicriticalpath.moc"
