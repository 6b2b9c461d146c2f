// `cnp ingest` on bad input, end to end through the built binary: a broken file is refused whole
// (exit 2, exactly one line on stderr naming the file and the problem), the workspace stays as it
// was (a workspace created for the failed ingest does not remain), and a sound file with a few
// malformed events is ingested with the skips counted, reported and kept in the run's metadata.
// All inputs are generated here; the good reference trace is the HTA triton fixture in tests/data.
#include "CliRunner.h"
#include "TestPaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <random>
#include <zlib.h>

using namespace cnp::testing;

namespace {

QByteArray kernelEvent(const QByteArray& ts = "100.5", const QByteArray& dur = "2.25") {
    return "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": " + ts +
           ", \"dur\": " + dur + ", \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 1}}";
}

QByteArray cpuOp(const QByteArray& ts = "100", const QByteArray& dur = "10",
                 const QByteArray& name = "aten::mm") {
    return "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
           "\", \"pid\": 1, \"tid\": 1, \"ts\": " + ts + ", \"dur\": " + dur + "}";
}

QByteArray trace(const QList<QByteArray>& events, const QByteArray& extra = {}) {
    QByteArray s = "{\"schemaVersion\": 1, " + extra + "\"traceEvents\": [";
    for (int i = 0; i < events.size(); ++i)
        s += (i ? ",\n" : "\n") + events[i];
    return s + "\n]}";
}

QByteArray gzip(const QByteArray& data) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(static_cast<int>(deflateBound(&z, static_cast<uLong>(data.size()))), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(static_cast<int>(z.total_out));
    deflateEnd(&z);
    return out;
}

QByteArray bigTrace() {
    QList<QByteArray> ev;
    for (int i = 0; i < 3000; ++i)
        ev << cpuOp(QByteArray::number(100 + i * 20), "10", "aten::op_" + QByteArray::number(i % 50));
    return trace(ev);
}

} // namespace

class TestIngestBadInput : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString ws_;
    QByteArray runsBefore_;

    QString write(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    QByteArray runsJson() {
        const auto r = runCli({"runs", ws_, "--json"});
        if (r.exitCode != 0)
            qWarning("cnp runs failed: %s", r.err.constData());
        return r.out;
    }

    QJsonObject runNamed(const QString& name) {
        const auto runs = QJsonDocument::fromJson(runsJson()).object().value("runs").toArray();
        for (const auto& r : runs)
            if (r.toObject().value("name").toString() == name)
                return r.toObject();
        return {};
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        ws_ = dir_.filePath("ws.cnpdb");
        const auto r =
            runCli({"ingest", ws_,
                    (testpaths::dataDir() + QStringLiteral("/hta/triton_example/triton_example.json.gz")),
                    "--run", "good", "--quiet"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        runsBefore_ = runsJson();
        QVERIFY(runsBefore_.contains("\"good\""));
    }

    void refused_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("problem");

        const QByteArray big = bigTrace();
        const QByteArray bigGz = gzip(big);
        std::mt19937 rng(3);
        QByteArray noise(50000, '\0');
        for (auto& c : noise)
            c = static_cast<char>(rng());
        noise[0] = 'Q';
        QTest::newRow("empty") << "empty.json" << QByteArray() << "empty";
        QTest::newRow("truncated plain") << "cut.json" << big.left(big.size() / 2) << "truncated JSON";
        QTest::newRow("truncated gzip")
            << "cut.json.gz" << bigGz.left(bigGz.size() / 2) << "truncated gzip stream";
        QTest::newRow("gzip header only (10 bytes)")
            << "head.json.gz" << bigGz.left(10) << "truncated gzip stream";
        QTest::newRow("gzip of nothing")
            << "nothing.json.gz" << gzip(QByteArray()) << "file is empty (a gzip stream of no data)";
        QTest::newRow("not gzip despite .gz") << "plain.json.gz" << big << "not gzip-compressed";
        QTest::newRow("random bytes") << "noise.json" << noise << "not valid JSON";
        QTest::newRow("random bytes, unknown name") << "noise.bin" << noise << "not a recognised trace";
        QTest::newRow("json array") << "array.json" << QByteArray("[" + kernelEvent() + "]") << "array";
        QTest::newRow("no traceEvents") << "obj.json" << QByteArray("{\"a\": 1}") << "no traceEvents";
        QTest::newRow("no events") << "none.json" << trace({}) << "no events";
        QTest::newRow("only malformed events")
            << "bad.json" << trace({kernelEvent("\"x\""), cpuOp("1", "-2")}) << "no usable events";
        QTest::newRow("unclosed deep nesting")
            << "deep.json" << QByteArray("{\"traceEvents\": " + QByteArray(100000, '[')) << "truncated JSON";
    }

    void refused() {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, problem);
        const QString file = write(name, content);
        const auto r = runCli({"ingest", ws_, file, "--run", "bad"});
        QCOMPARE(r.exitCode, 2);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(!err.contains('\n'), qPrintable(err));
        QVERIFY2(err.startsWith("cnp ingest: "), qPrintable(err));
        QVERIFY2(err.contains(file), qPrintable(err));
        QVERIFY2(err.contains(problem), qPrintable(err));
        QCOMPARE(runsJson(), runsBefore_); // the workspace is unchanged

        // Into a workspace that did not exist: nothing is left behind.
        const QString fresh = dir_.filePath("fresh_" + name + ".cnpdb");
        QCOMPARE(runCli({"ingest", fresh, file}).exitCode, 2);
        QVERIFY(!QFile::exists(fresh));
        QVERIFY(!QFile::exists(fresh + "-wal"));
    }

    // Sound file, two malformed events: ingested, the skips reported and kept with the run.
    void skippedEventsAreReportedAndKept() {
        const QByteArray bad1 = cpuOp("150", "-5"), bad2 = kernelEvent("NaN");
        const QByteArray content = trace({kernelEvent(), bad1, cpuOp(), bad2});
        const QString file = write("some_bad.json", content);
        const auto r = runCli({"ingest", ws_, file, "--run", "partly"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const qint64 offset = content.indexOf(bad1);
        const QString warn = QString::fromUtf8(r.err);
        QVERIFY2(warn.contains("skipped 2 malformed event(s)"), qPrintable(warn));
        QVERIFY2(warn.contains("byte " + QString::number(offset)), qPrintable(warn));
        QVERIFY2(warn.contains("negative duration"), qPrintable(warn));
        const QJsonObject run = runNamed("partly");
        QCOMPARE(run.value("skipped_events").toInteger(), 2);
        QCOMPARE(run.value("first_skipped_offset").toInteger(), offset);
        QCOMPARE(run.value("first_skipped_reason").toString(), QString("negative duration"));
        QCOMPARE(run.value("kernels").toInteger(), 1);
    }

    // Odd but sound files are ingested.
    void accepted_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("kernels");
        const QByteArray deep = QByteArray(300000, '[') + QByteArray(300000, ']');
        QTest::newRow("deep nesting")
            << "deep_ok.json" << trace({kernelEvent()}, "\"junk\": " + deep + ", ") << 1;
        QTest::newRow("multi-megabyte name")
            << "bigname.json" << trace({kernelEvent(), cpuOp("1", "1", QByteArray(3 << 20, 'x'))}) << 1;
        QTest::newRow("invalid utf-8")
            << "utf8.json" << trace({kernelEvent(), cpuOp("1", "1", "bad \xff\xfe name")}) << 1;
        QTest::newRow("cpu only") << "cpu.json" << trace({cpuOp(), cpuOp("200", "5")}) << 0;
        QTest::newRow("gzip named .json") << "gz_named.json" << gzip(trace({kernelEvent()})) << 1;
    }

    void accepted() {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(int, kernels);
        const QString file = write(name, content);
        const QString run = "ok_" + name;
        const auto r = runCli({"ingest", ws_, file, "--run", run, "--quiet"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(runNamed(run).value("kernels").toInteger(), kernels);
    }

    // A folder of rank files is one multi-rank run (ranks from distributedInfo).
    void folderOfRanks() {
        QDir(dir_.path()).mkdir("ranks");
        write("ranks/r0.json",
              trace({kernelEvent()}, "\"distributedInfo\": {\"rank\": 0, \"world_size\": 2}, "));
        write("ranks/r1.json", trace({kernelEvent(), kernelEvent("200")},
                                     "\"distributedInfo\": {\"rank\": 1, \"world_size\": 2}, "));
        const auto r = runCli({"ingest", ws_, dir_.filePath("ranks"), "--run", "two"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject run = runNamed("two");
        QCOMPARE(run.value("ranks").toInt(), 2);
        QCOMPARE(run.value("world_size").toInt(), 2);
        QCOMPARE(run.value("kernels").toInteger(), 3);
    }
};

QTEST_GUILESS_MAIN(TestIngestBadInput)
#include "tst_ingestbadinput.moc"
