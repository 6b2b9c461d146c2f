// `cnp stats` end to end on the 2-rank-job NCCL fixture (rank 0 of an A100 job, ProfilerStep#4..6).
// Expected values were computed from the JSON with an independent python script at authoring time:
// events by "cat" (kernel 2700, gpu_memcpy 960, gpu_memset 114, cuda_runtime 8740), ns = round(us*1000) in
// exact decimal arithmetic (json parse_float=Decimal: these absolute timestamps exceed double precision),
// unions of compute / nccl / memcpy+memset intervals per docs/metrics.md, step windows from the
// ProfilerStep ranges via the correlation ids of the cuda_runtime calls inside them.
#include "CliRunner.h"
#include "TestPaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

class TestCliStats : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;
    QJsonObject rank0;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("stats.cnpdb");
        const auto r =
            runCli({"ingest", ws, (testpaths::dataDir() + "/hta/nccl_parser_config/nccl_data.json.gz"),
                    "--run", "nccl"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto s = runCli({"stats", ws, "--run", "nccl", "--json", "--top", "3"});
        QVERIFY2(s.exitCode == 0, s.err.constData());
        QJsonParseError pe;
        const auto doc = QJsonDocument::fromJson(s.out, &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        QCOMPARE(doc["run"].toString(), QStringLiteral("nccl"));
        QCOMPARE(doc["ranks"].toArray().size(), 1);
        rank0 = doc["ranks"].toArray()[0].toObject();
    }

    void counts() {
        const auto c = rank0["counts"].toObject();
        QCOMPARE(rank0["rank"].toInt(), 0);
        QCOMPARE(c["kernel"].toInteger(), 2700);
        QCOMPARE(c["memcpy"].toInteger(), 960);
        QCOMPARE(c["memset"].toInteger(), 114);
        QCOMPARE(c["runtime"].toInteger(), 8740);
        QVERIFY(c.contains("cpu_range") && c.contains("flow"));
    }

    // Per stream, from scripts/checks/kineto_queue_length.py over the JSON (HTA's queue definition,
    // docs/metrics.md "Streams"): stream 7 has 3753 queued operations, queue max 10, time-weighted mean
    // 0.207566934, compute 115655847 ns; stream 40 (NCCL) 21 operations, max 1, mean 0.003090339,
    // communication 46876493 ns.
    void streams() {
        const auto a = rank0["streams"].toArray();
        QCOMPARE(a.size(), 2);
        const auto s7 = a[0].toObject(), s40 = a[1].toObject();
        QCOMPARE(s7["stream"].toInteger(), 7);
        QCOMPARE(s7["compute_ns"].toInteger(), 115655847);
        QCOMPARE(s7["queue"]["operations"].toInteger(), 3753);
        QCOMPARE(s7["queue"]["max"].toInteger(), 10);
        QVERIFY(std::abs(s7["queue"]["mean"].toDouble() - 0.207566934) < 1e-9);
        QCOMPARE(s40["stream"].toInteger(), 40);
        QCOMPARE(s40["communication_ns"].toInteger(), 46876493);
        QCOMPARE(s40["compute_ns"].toInteger(), 0);
        QVERIFY(s40["top_kernel"].isNull());
        QCOMPARE(s40["queue"]["operations"].toInteger(), 21);
        QCOMPARE(s40["queue"]["max"].toInteger(), 1);
        QVERIFY(std::abs(s40["queue"]["mean"].toDouble() - 0.003090339) < 1e-9);
    }

    void wholeWindowBreakdown() {
        const auto b = rank0["breakdown_ns"].toObject();
        QCOMPARE(b["compute"].toInteger(), 115655847);
        QCOMPARE(b["communication"].toInteger(), 39559468);
        QCOMPARE(b["overlap"].toInteger(), 7317025);
        QCOMPARE(b["memory"].toInteger(), 2284699);
        const auto w = rank0["gpu_window_ns"].toArray();
        const qint64 len = w[1].toInteger() - w[0].toInteger();
        QCOMPARE(len, 660551005);
        QCOMPARE(b["idle"].toInteger(), 503050991);
        QCOMPARE(b["compute"].toInteger() + b["communication"].toInteger() + b["memory"].toInteger() +
                     b["idle"].toInteger(),
                 len); // exact partition
        qint64 ex = 0;
        for (const auto& v : rank0["exclusive_ns"].toObject())
            ex += v.toInteger();
        QCOMPARE(ex, len);
        QCOMPARE(rank0["exclusive_ns"].toObject()["communication"].toInteger(), 39559468);
        QCOMPARE(rank0["overlap_fraction"].toDouble(), 7317025.0 / (39559468.0 + 7317025.0));
    }

    void steps_data() {
        QTest::addColumn<int>("i");
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("window");
        QTest::addColumn<qint64>("compute");
        QTest::addColumn<qint64>("communication");
        QTest::addColumn<qint64>("overlap");
        QTest::addColumn<qint64>("memory");
        QTest::newRow("4") << 0 << "ProfilerStep#4" << 222054811LL << 38506406LL << 10163762LL << 1825259LL
                           << 768753LL;
        QTest::newRow("5") << 1 << "ProfilerStep#5" << 219732155LL << 38429422LL << 10539609LL << 1760420LL
                           << 759895LL;
        QTest::newRow("6") << 2 << "ProfilerStep#6" << 218764039LL << 38720019LL << 18856097LL << 3731346LL
                           << 756051LL;
    }
    void steps() {
        QFETCH(int, i);
        const auto steps = rank0["steps"].toArray();
        QCOMPARE(steps.size(), 3);
        const auto s = steps[i].toObject();
        QTEST(s["name"].toString(), "name");
        QCOMPARE(s["index"].toInt(), i + 4); // the step's own number: ProfilerStep#4 is step 4
        QVERIFY(s["cpu_end_ns"].toInteger() > s["cpu_start_ns"].toInteger());
        const qint64 len = s["gpu_end_ns"].toInteger() - s["gpu_start_ns"].toInteger();
        QFETCH(qint64, window);
        QCOMPARE(len, window);
        const auto b = s["breakdown_ns"].toObject();
        QTEST(b["compute"].toInteger(), "compute");
        QTEST(b["communication"].toInteger(), "communication");
        QTEST(b["overlap"].toInteger(), "overlap");
        QTEST(b["memory"].toInteger(), "memory");
        QCOMPARE(b["compute"].toInteger() + b["communication"].toInteger() + b["memory"].toInteger() +
                     b["idle"].toInteger(),
                 len);
        qint64 ex = 0;
        for (const auto& v : s["exclusive_ns"].toObject())
            ex += v.toInteger();
        QCOMPARE(ex, len);
    }

    void topKernels() {
        const auto k = rank0["top_kernels"].toArray();
        QCOMPARE(k.size(), 3);
        const auto first = k[0].toObject();
        QCOMPARE(
            first["name"].toString(),
            QStringLiteral("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"));
        QCOMPARE(first["category"].toString(), QStringLiteral("communication"));
        QCOMPARE(first["count"].toInteger(), 15);
        QCOMPARE(first["total_ns"].toInteger(),
                 46762159); // python: sum of round((ts+dur)*1000) - round(ts*1000)
        QVERIFY(k[1].toObject()["total_ns"].toInteger() <= first["total_ns"].toInteger());
    }

    void humanOutput() {
        const auto r = runCli({"stats", ws, "--run", "nccl"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("communication (exposed)"));
        QVERIFY(r.out.contains("ProfilerStep#5"));
        QVERIFY(r.out.contains("ncclKernel_AllReduce"));
    }

    // --exclude-orphans: the launched window; this trace has no orphan work (python over the JSON), so
    // the window is the same and the orphan count 0.
    void excludeOrphans() {
        const auto r = runCli({"stats", ws, "--run", "nccl", "--json", "--exclude-orphans"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto doc = QJsonDocument::fromJson(r.out);
        QCOMPARE(doc["window"].toString(), QStringLiteral("launched"));
        const auto rank = doc["ranks"].toArray()[0].toObject();
        QCOMPARE(rank["orphans"].toObject()["count"].toInteger(), 0);
        QCOMPARE(rank["gpu_window_ns"], rank0["gpu_window_ns"]);
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no --run") << QStringList{"stats", "WS"} << 1 << "--run";
        QTest::newRow("unknown run") << QStringList{"stats", "WS", "--run", "nope"} << 2 << "nope";
        QTest::newRow("bad --top") << QStringList{"stats", "WS", "--run", "nccl", "--top", "x"} << 1
                                   << "--top";
        QTest::newRow("missing workspace")
            << QStringList{"stats", "/nonexistent/x.cnpdb", "--run", "a"} << 2 << "x.cnpdb";
    }
    void errors() {
        QFETCH(QStringList, args);
        args.replaceInStrings(QRegularExpression("^WS$"), ws);
        const auto r = runCli(args);
        QTEST(r.exitCode, "exitCode");
        QFETCH(QString, message);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QCOMPARE(QString::fromUtf8(r.err).count('\n'), 1); // one clear line
    }
};

QTEST_GUILESS_MAIN(TestCliStats)
#include "tst_clistats.moc"
