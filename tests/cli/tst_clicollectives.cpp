// `cnp collectives` and `cnp stragglers` end to end on HTA's 2-rank trace_filter sample (tests/data/hta):
// 10 communication kernels per rank (8 on stream 84, 2 on stream 203), paired by order; rank 1 arrives
// last at 8 of the 10 calls. The values asserted are computed by hand from the trace files (µs there):
//   stream 84, call 0: rank 0 at 1682725898094377 for 30669, rank 1 at 1682725898129911 for 57924
//     -> wait 35534 µs; transfers 0 (rank 0 left before rank 1 arrived) and 57924 -> median 28962 µs
//   stream 203, call 0: rank 0 at 1682725898585321 for 42496, rank 1 at 1682725898585405 for 42744
//     -> wait 84 µs; transfers 42412 and 42744 -> median 42578 µs
// A study of two shards gives the same answer as the single file.
// HTA's nccl_parser_config trace (one rank of a group of 2) carries the NCCL arguments on its kernels:
// its 21 calls match by process group "0"; the first, a broadcast of 53120 x Float (212480 bytes) at
// 4458676423385.774 µs for 30.975 µs, moves 212480 / 30975 = 6.8597 GB/s (busbw factor 1).
#include "CliRunner.h"
#include "TestPaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace cnp::testing;

namespace {

QJsonObject callAt(const QJsonArray& calls, int stream, int sequence) {
    for (const auto& v : calls) {
        const auto c = v.toObject();
        if (c["stream"].toInt() == stream && c["sequence"].toInt() == sequence)
            return c;
    }
    return {};
}

} // namespace

class TestCliCollectives : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws, study;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("tf.cnpdb");
        study = dir.filePath("tf.cnpstudy");
        const QString traces = testpaths::dataDir() + QStringLiteral("/hta/trace_filter");
        auto r = runCli({"ingest", ws, traces, "--run", "tf", "--config", "Base"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli(
            {"ingest", study, traces, "--run", "tf", "--config", "Base", "--shards", "2", "--jobs", "2"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void callsMatched() {
        const auto r = runCli({"collectives", ws, "--run", "tf", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["run"].toString(), QStringLiteral("tf"));
        QCOMPARE(d["matched_by"].toString(), QStringLiteral("kernel-order-per-stream"));
        QCOMPARE(d["ranks"].toInt(), 2);
        QCOMPARE(d["calls"].toInt(), 10);
        QCOMPARE(d["unmatched_kernels"].toInt(), 0);
        // The trace's two profiler steps, each with its ranks' exposed and overlapped communication.
        const auto comm = d["communication_per_step"].toArray();
        QCOMPARE(comm.size(), 2);
        for (const auto& v : comm) {
            QCOMPARE(v.toObject()["ranks"].toInt(), 2);
            QVERIFY(v.toObject()["exposed_ns"].toInteger() + v.toObject()["overlapped_ns"].toInteger() > 0);
        }
        const auto calls = d["collectives"].toArray();
        QCOMPARE(calls.size(), 10);
        int lastOne = 0;
        for (const auto& v : calls) {
            const auto c = v.toObject();
            QCOMPARE(c["op"].toString(), QStringLiteral("send_recv"));
            QCOMPARE(c["members"].toArray().size(), 2);
            QVERIFY(c["bytes"].isNull()); // the trace has no NCCL arguments
            QVERIFY(c["process_group"].isNull());
            QVERIFY(c["busbw_gbs"].isNull());
            lastOne += c["last_rank"].toInt() == 1 ? 1 : 0;
        }
        QCOMPARE(lastOne, 8);
        const auto first = callAt(calls, 84, 0);
        QCOMPARE(first["last_rank"].toInt(), 1);
        QCOMPARE(first["wait_ns"].toInteger(), 35'534'000);
        QCOMPARE(first["transfer_ns"].toInteger(), 28'962'000);
        const auto other = callAt(calls, 203, 0);
        QCOMPARE(other["last_rank"].toInt(), 1);
        QCOMPARE(other["wait_ns"].toInteger(), 84'000);
        QCOMPARE(other["transfer_ns"].toInteger(), 42'578'000);
        const auto m = other["members"].toArray();
        QCOMPARE(m[0].toObject()["rank"].toInt(), 0);
        QCOMPARE(m[0].toObject()["wait_ns"].toInteger(), 84'000);
        QCOMPARE(m[0].toObject()["transfer_ns"].toInteger(), 42'412'000);
        QCOMPARE(m[1].toObject()["departure_ns"].toInteger() - m[1].toObject()["arrival_ns"].toInteger(),
                 42'744'000);
    }

    void rankOneIsTheStraggler() {
        const auto r = runCli({"stragglers", ws, "--run", "tf", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["calls"].toInt(), 10);
        const auto ranks = d["ranks"].toArray();
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(ranks[0].toObject()["rank"].toInt(), 1);
        QCOMPARE(ranks[0].toObject()["last_count"].toInt(), 8);
        QCOMPARE(ranks[1].toObject()["last_count"].toInt(), 2);
        QVERIFY(ranks[0].toObject()["lateness_ns"].toInteger() >
                ranks[1].toObject()["lateness_ns"].toInteger());
        for (const char* k : {"gpu_time_ratio", "transfer_ratio", "host_idle_ns", "causes", "slower_kernels"})
            QVERIFY2(ranks[0].toObject().contains(k), k);
    }

    void studyAnswersAsTheFile_data() {
        QTest::addColumn<QString>("command");
        QTest::newRow("collectives") << "collectives";
        QTest::newRow("stragglers") << "stragglers";
    }
    void studyAnswersAsTheFile() {
        QFETCH(QString, command);
        const auto a = runCli({command, ws, "--run", "tf", "--json"});
        const auto b = runCli({command, study, "--run", "tf", "--json"});
        QCOMPARE(a.exitCode, 0);
        QVERIFY2(b.exitCode == 0, b.err.constData());
        QCOMPARE(b.out, a.out);
    }

    void human() {
        auto r = runCli({"collectives", ws, "--run", "tf", "--limit", "3"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("10 collective calls across 2 ranks"));
        QVERIFY(r.out.contains("longest waits (3 of 10 calls)"));
        r = runCli({"stragglers", ws, "--run", "tf"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("rank 1: last at 8 of 10 calls"));
    }

    void bytesFromTheTracesArguments() {
        const QString nccl = dir.filePath("nccl.cnpdb");
        auto r = runCli({"ingest", nccl, testpaths::dataDir() + "/hta/nccl_parser_config/nccl_data.json.gz",
                         "--run", "nccl"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({"collectives", nccl, "--run", "nccl", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["matched_by"].toString(), QStringLiteral("process-group-order"));
        QCOMPARE(d["calls"].toInt(), 21);
        const auto calls = d["collectives"].toArray();
        const auto first = callAt(calls, 40, 0);
        QCOMPARE(first["op"].toString(), QStringLiteral("broadcast"));
        QCOMPARE(first["process_group"].toString(), QStringLiteral("0"));
        QCOMPARE(first["group_size"].toInt(), 2);
        QCOMPARE(first["bytes"].toInteger(), 212480);
        QCOMPARE(first["transfer_ns"].toInteger(), 30975);
        QVERIFY(std::abs(first["algbw_gbs"].toDouble() - 212480.0 / 30975.0) < 1e-9);
        QVERIFY(std::abs(first["busbw_gbs"].toDouble() - 212480.0 / 30975.0) < 1e-9);
        int withBytes = 0;
        for (const auto& v : calls)
            withBytes += v.toObject()["bytes"].toInteger() > 0 ? 1 : 0;
        QCOMPARE(withBytes, 21);
        QVERIFY(d["fabric"].toObject()["source"].isNull());
        r = runCli({"collectives", nccl, "--run", "nccl"});
        QVERIFY(r.out.contains("21 calls matched by process group"));
        QVERIFY(r.out.contains("efficiency per operation and message size"));

        // Against a 100 GB/s peak (one host: the intra-node figure). Buckets by hand from the args: the
        // all-reduces of 16 MiB to 64 MiB are 9 (median busbw 10.984 GB/s), of 4 MiB to 16 MiB 6; the
        // broadcasts of 256 B to 1 KiB 3, of 64 KiB to 256 KiB 3.
        r = runCli({"collectives", nccl, "--run", "nccl", "--peak-gbps", "100", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto e = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(e["fabric"].toObject()["source"].toString(), QStringLiteral("override"));
        QCOMPARE(e["fabric"].toObject()["intra_node_gbps"].toDouble(), 100.0);
        const auto rows = e["efficiency"].toArray();
        QCOMPARE(rows.size(), 4);
        QStringList seen;
        for (const auto& v : rows) {
            const auto row = v.toObject();
            seen << QStringLiteral("%1 %2 %3")
                        .arg(row["op"].toString())
                        .arg(row["bucket_min_bytes"].toInteger())
                        .arg(row["calls"].toInt());
            QCOMPARE(row["inter_node_calls"].toInt(), 0);
            QVERIFY(std::abs(row["median_busbw_peak_share"].toDouble() -
                             row["median_busbw_gbs"].toDouble() / 100) < 1e-12);
        }
        QCOMPARE(seen, (QStringList{"all_reduce 4194304 6", "all_reduce 16777216 9", "broadcast 256 3",
                                    "broadcast 65536 3"}));
        QVERIFY(std::abs(rows[1].toObject()["median_busbw_gbs"].toDouble() - 10.98397) < 1e-4);
        QCOMPARE(runCli({"collectives", nccl, "--run", "nccl", "--peak-gbps", "0"}).exitCode, 1);
    }

    void errors() {
        QCOMPARE(runCli({"collectives", ws}).exitCode, 1);
        QCOMPARE(runCli({"stragglers", ws}).exitCode, 1);
        QCOMPARE(runCli({"collectives", ws, "--run", "tf", "--limit", "0"}).exitCode, 1);
        const auto r = runCli({"stragglers", ws, "--run", "nope"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("nope"));
        const auto missing = runCli({"collectives", dir.filePath("missing.cnpdb"), "--run", "tf"});
        QVERIFY(missing.exitCode != 0);
    }
};

QTEST_GUILESS_MAIN(TestCliCollectives)
#include "tst_clicollectives.moc"
