// KinetoImporter on bad input: every file is generated here at run time in a QTemporaryDir.
// A structurally broken file must be refused as a whole with one InputError naming the file (and
// the byte offset where known); single malformed events inside a sound file are skipped and
// counted (info.skipped: count, first offset, first reason). Nothing may crash or hang.
#include "TestPaths.h"
#include "core/InputError.h"
#include "core/NameBound.h"
#include "core/TraceData.h"
#include "import/common/ByteSource.h"
#include "import/kineto/KinetoImporter.h"

#include <QtTest>

#include <random>
#include <string>
#include <zlib.h>

using namespace cnp;

namespace {

// A kernel event as Kineto writes it; ts/dur in microseconds.
QByteArray kernelEvent(const QByteArray& ts = "100.5", const QByteArray& dur = "2.25",
                       const QByteArray& name = "\"k\"") {
    return "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": " + name +
           ", \"pid\": 0, \"tid\": 7, \"ts\": " + ts + ", \"dur\": " + dur +
           ", \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 1}}";
}

QByteArray cpuOp(const QByteArray& ts = "100", const QByteArray& dur = "10") {
    return "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": " +
           ts + ", \"dur\": " + dur + "}";
}

QByteArray trace(const QList<QByteArray>& events, const QByteArray& extra = {}) {
    QByteArray s = "{\"schemaVersion\": 1, " + extra + "\"traceEvents\": [\n";
    for (int i = 0; i < events.size(); ++i)
        s += events[i] + (i + 1 < events.size() ? ",\n" : "\n");
    return s + "]}";
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

QByteArray demoJson() {
    ByteSource src(testpaths::sourceDir().toStdString() + "/resources/demo/demo_compile.json.gz");
    QByteArray all;
    char buf[1 << 16];
    while (std::size_t n = src.read(buf, sizeof buf))
        all.append(buf, static_cast<qsizetype>(n));
    return all;
}

} // namespace

class TestKinetoBadInput : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string write(const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
            qFatal("cannot write %s", qPrintable(path));
        return path.toStdString();
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Files refused as a whole: the message names the file and the problem.
    void refused_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("messagePart");
        QTest::addColumn<qint64>("offset"); // -2: any offset

        const QByteArray good = trace({kernelEvent(), cpuOp()});
        const QByteArray demo = demoJson();
        const QByteArray demoGz = gzip(demo);
        QTest::newRow("empty") << "empty.json" << QByteArray() << "empty file" << qint64(0);
        QTest::newRow("empty .json.gz") << "empty.json.gz" << QByteArray() << "empty file" << qint64(0);
        QTest::newRow("whitespace only")
            << "blank.json" << QByteArray(" \n\t ") << "no JSON value" << qint64(0);
        QTest::newRow("truncated plain")
            << "cut.json" << demo.left(demo.size() / 2) << "truncated JSON" << qint64(demo.size() / 2);
        QTest::newRow("truncated plain in a string")
            << "cut2.json" << good.left(good.indexOf("kernel") + 3) << "truncated JSON" << qint64(-2);
        QTest::newRow("truncated gzip") << "cut.json.gz" << demoGz.left(demoGz.size() / 2)
                                        << "truncated gzip stream" << qint64(demoGz.size() / 2);
        QTest::newRow("gzip without trailer")
            << "cut2.json.gz" << demoGz.left(demoGz.size() - 4) << "truncated gzip stream" << qint64(-2);
        QByteArray corrupt = demoGz;
        for (int i = 2000; i < 2400; ++i)
            corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
        QTest::newRow("corrupt gzip") << "corrupt.json.gz" << corrupt << "gzip" << qint64(-2);
        QTest::newRow("not gzip despite .gz")
            << "plain.json.gz" << good << "not gzip-compressed" << qint64(0);
        std::mt19937 rng(42);
        QByteArray noise(100000, '\0');
        for (auto& c : noise)
            c = static_cast<char>(rng());
        noise[0] = 'Q'; // neither gzip magic nor a JSON value
        QTest::newRow("random bytes") << "noise.json" << noise << "not valid JSON" << qint64(0);
        QTest::newRow("top-level array")
            << "array.json" << QByteArray("[" + kernelEvent() + "]") << "is an array" << qint64(0);
        QTest::newRow("top-level number")
            << "number.json" << QByteArray("42") << "not an object" << qint64(0);
        QTest::newRow("no traceEvents")
            << "notrace.json" << QByteArray("{\"schemaVersion\": 1, \"foo\": [1, 2]}")
            << "no traceEvents array" << qint64(-1);
        QTest::newRow("traceEvents not an array")
            << "te.json" << QByteArray("{\"traceEvents\": 5}") << "traceEvents is not an array" << qint64(-2);
        QTest::newRow("no events") << "none.json" << trace({}) << "holds no events" << qint64(-1);
        QTest::newRow("only metadata events")
            << "meta.json"
            << trace({"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"args\": "
                      "{\"name\": \"python3\"}}"})
            << "holds no events" << qint64(-1);
        QTest::newRow("all events malformed")
            << "allbad.json" << trace({kernelEvent("\"soon\""), cpuOp("100", "-1")})
            << "no usable events: all 2 trace events were malformed" << qint64(-2);
        QTest::newRow("trailing garbage")
            << "tail.json" << QByteArray(good + " {}") << "not valid JSON" << qint64(good.size() + 1);
        QTest::newRow("lowercase nan is not JSON")
            << "nan.json" << trace({kernelEvent("nan")}) << "not valid JSON" << qint64(-2);
        QTest::newRow("unclosed deep nesting")
            << "deep.json" << QByteArray("{\"a\": " + QByteArray(200000, '[')) << "truncated JSON"
            << qint64(200006);
        QTest::newRow("nul byte") << "nul.json" << QByteArray(good).insert(good.indexOf("kernel"), '\0')
                                  << "JSON" << qint64(-2);
    }

    void refused() {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, messagePart);
        QFETCH(qint64, offset);
        const std::string path = write(name, content);
        try {
            readKinetoTrace(path);
            QFAIL("accepted a broken file");
        } catch (const InputError& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.startsWith(QString::fromStdString(path) + ": "), qPrintable(what));
            QVERIFY2(what.contains(messagePart), qPrintable(what));
            QVERIFY2(!what.contains('\n'), "one line");
            QCOMPARE(e.file(), path);
            if (offset != -2)
                QCOMPARE(e.byteOffset(), offset);
        }
    }

    // Sound files with single bad events: the rest is read, the bad ones counted.
    void skipped_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<int>("cpuRanges");
        QTest::addColumn<int>("skipped");
        QTest::addColumn<QString>("firstReason");
        QTest::addColumn<QByteArray>("firstBadEvent"); // its text locates the expected first offset

        const QByteArray k = kernelEvent(), c = cpuOp();
        auto row = [&](const char* tag, const QByteArray& bad, int kernels, int cpu, int skipped,
                       const char* reason) {
            QTest::newRow(tag) << trace({k, bad, c}) << kernels << cpu << skipped << QString(reason) << bad;
        };
        row("negative duration", cpuOp("100", "-5"), 1, 1, 1, "negative duration");
        row("NaN ts", kernelEvent("NaN"), 1, 1, 1, "ts is NaN or infinite");
        row("Infinity dur", kernelEvent("1", "Infinity"), 1, 1, 1, "dur is NaN or infinite");
        row("-Infinity ts", cpuOp("-Infinity"), 1, 1, 1, "ts is NaN or infinite");
        row("ts as string", kernelEvent("\"100\""), 1, 1, 1, "ts is not a number");
        row("dur null", cpuOp("100", "null"), 1, 1, 1, "dur is not a number");
        row("ts object", kernelEvent("{\"us\": 1}"), 1, 1, 1, "holds an object");
        row("dur array", kernelEvent("1", "[1]"), 1, 1, 1, "holds an array");
        row("name as number", kernelEvent("1", "1", "12"), 1, 1, 1, "name is not a string");
        row("ts out of range", kernelEvent("1e30"), 1, 1, 1, "ts is out of range");
        row("huge integer ts", kernelEvent("123456789012345678901234567890"), 1, 1, 1, "ts is out of range");
        row("missing dur", "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"x\", \"ts\": 5}", 1, 1, 1,
            "without dur");
        row("missing ts", "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"x\", \"dur\": 5}", 1, 1, 1,
            "without ts");
        row("event is a number", "17", 1, 1, 1, "not an object");
        row("event is an array", "[1, 2]", 1, 1, 1, "not an object");
        row("flow without id", "{\"ph\": \"s\", \"cat\": \"ac2g\", \"ts\": 5, \"pid\": 1, \"tid\": 1}", 1, 1,
            1, "without a numeric id");
        // Not errors: unknown categories and phases, odd args, NaN inside args, string pids.
        row("unknown category",
            "{\"ph\": \"X\", \"cat\": \"overhead\", \"name\": \"x\", \"ts\": 5, \"dur\": 1}", 1, 1, 0, "");
        row("args is an array",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"y\", \"ts\": 5, \"dur\": 1, \"args\": [1]}", 1,
            2, 0, "");
        row("NaN inside args",
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"y\", \"ts\": 5, \"dur\": 1, \"args\": {\"bw\": "
            "NaN}}",
            2, 1, 0, "");
        row("string pid",
            "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"y\", \"pid\": \"Spans\", \"tid\": \"x\", "
            "\"ts\": 5, \"dur\": 1}",
            1, 2, 0, "");
        row("grid of strings",
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"y\", \"ts\": 5, \"dur\": 1, \"args\": "
            "{\"grid\": [\"a\"]}}",
            2, 1, 0, "");
    }

    void skipped() {
        QFETCH(QByteArray, content);
        QFETCH(int, kernels);
        QFETCH(int, cpuRanges);
        QFETCH(int, skipped);
        QFETCH(QString, firstReason);
        QFETCH(QByteArray, firstBadEvent);
        const std::string path = write("skip.json", content);
        const TraceData t = readKinetoTrace(path);
        QCOMPARE(static_cast<int>(t.kernels.size()), kernels);
        QCOMPARE(static_cast<int>(t.cpuRanges.size()), cpuRanges);
        QCOMPARE(static_cast<int>(t.info.skipped.count), skipped);
        if (skipped > 0) {
            QVERIFY2(QString::fromStdString(t.info.skipped.firstReason).contains(firstReason),
                     t.info.skipped.firstReason.c_str());
            QCOMPARE(t.info.skipped.firstOffset, static_cast<std::int64_t>(content.indexOf(firstBadEvent)));
        }
        // The good kernel survives intact: ts 100.5 us, dur 2.25 us (no baseTimeNanoseconds: absolute).
        QCOMPARE(t.kernels.front().start, Ns{100500});
        QCOMPARE(t.kernels.front().end, Ns{102750});
    }

    // Deep nesting that is well formed: the iterative parser keeps the call stack flat.
    void deepNestingIsRead() {
        const int depth = 1'000'000;
        const QByteArray deep = QByteArray(depth, '[') + QByteArray(depth, ']');
        const QByteArray event = "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"deep\", \"ts\": 1, "
                                 "\"dur\": 1, \"args\": {\"x\": " +
                                 deep + "}}";
        const std::string path =
            write("deep_ok.json", trace({kernelEvent(), event}, "\"junk\": " + deep + ", "));
        const TraceData t = readKinetoTrace(path);
        QCOMPARE(t.kernels.size(), std::size_t{1});
        QCOMPARE(t.cpuRanges.size(), std::size_t{1});
        QCOMPARE(t.strings.at(t.cpuRanges[0].name), std::string("deep"));
    }

    void multiMegabyteName() {
        const std::string big(5 * 1024 * 1024, 'n');
        const std::string path = write(
            "bigname.json", trace({kernelEvent("1", "1", QByteArray("\"") + big.c_str() + "\""), cpuOp()}));
        const TraceData t = readKinetoTrace(path);
        QCOMPARE(t.kernels.size(), std::size_t{1});
        // Bounded at intake (core/NameBound.h): the first bytes and the original length are kept.
        const std::string& name = t.strings.at(t.kernels[0].name);
        QVERIFY(name.size() <= kMaxNameBytes);
        QCOMPARE(name, big.substr(0, kMaxNameBytes - 32) + "...[5242880 bytes]");
        QCOMPARE(countTruncatedNames(t.strings), std::size_t{1});
    }

    // Ill-formed UTF-8 in a name is repaired (U+FFFD per bad sequence), the event kept.
    void invalidUtf8() {
        const QByteArray bad = "\"ok \xff\xfe bad \xc3\x28 \xe2\x82 end \xc3\xa9\"";
        const std::string path = write("utf8.json", trace({kernelEvent("1", "1", bad), cpuOp()}));
        const TraceData t = readKinetoTrace(path);
        QCOMPARE(t.kernels.size(), std::size_t{1});
        QCOMPARE(t.strings.at(t.kernels[0].name),
                 std::string("ok \xEF\xBF\xBD\xEF\xBF\xBD bad \xEF\xBF\xBD( \xEF\xBF\xBD end \xC3\xA9"));
        QCOMPARE(t.info.skipped.count, std::int64_t{0});
    }

    void cpuOnlyTrace() {
        const std::string path =
            write("cpu.json", trace({cpuOp("10", "5"), cpuOp("20", "1")},
                                    "\"distributedInfo\": {\"rank\": 3, \"world_size\": 4}, "));
        const TraceData t = readKinetoTrace(path);
        QCOMPARE(t.cpuRanges.size(), std::size_t{2});
        QVERIFY(t.kernels.empty() && t.memcpys.empty() && t.flows.empty());
        QCOMPARE(t.ranks[0].rank, 3);
        QCOMPARE(t.cpuRanges[1].rank, 3);
        QCOMPARE(t.info.worldSize, 4);
    }

    // Metadata after traceEvents (as ROCm's Kineto writes it) still applies to every event.
    void baseTimeAfterEvents() {
        QByteArray s = trace({kernelEvent("1.001", "0.5")});
        s.chop(1);
        s += ", \"baseTimeNanoseconds\": 1700000000000000000, \"distributedInfo\": {\"rank\": 1, "
             "\"world_size\": 2}}";
        const TraceData t = readKinetoTrace(write("late.json", s));
        QCOMPARE(t.kernels[0].start, Ns{1700000000000001001});
        QCOMPARE(t.kernels[0].end, Ns{1700000000000001501});
        QCOMPARE(t.kernels[0].rank, 1);
    }

    // Timestamps already above the base are absolute and kept as they are.
    void absoluteTimestampsIgnoreBase() {
        const QByteArray s = trace({kernelEvent("1700000000000000.25", "1")},
                                   "\"baseTimeNanoseconds\": 1600000000000000000, ");
        const TraceData t = readKinetoTrace(write("abs.json", s));
        QCOMPARE(t.kernels[0].start, Ns{1700000000000000250});
    }

    void gzipVariantsReadTheSame() {
        const QByteArray plain = trace({kernelEvent(), cpuOp()});
        const auto a = readKinetoTrace(write("v.json", plain));
        const auto b = readKinetoTrace(write("v.json.gz", gzip(plain)));
        const auto c =
            readKinetoTrace(write("v_gz_named_json.json", gzip(plain))); // content decides, not the name
        const auto d =
            readKinetoTrace(write("v2.json.gz", gzip(plain.left(40)) + gzip(plain.mid(40)))); // two members
        for (const auto* t : {&b, &c, &d}) {
            QCOMPARE(t->kernels.size(), a.kernels.size());
            QCOMPARE(t->kernels[0].start, a.kernels[0].start);
            QCOMPARE(t->cpuRanges.size(), a.cpuRanges.size());
        }
        const auto bom = readKinetoTrace(write("bom.json", "\xEF\xBB\xBF" + plain));
        QCOMPARE(bom.kernels.size(), std::size_t{1});
    }

    // profile_memory=True: "[memory]" instants on CUDA devices become counter samples (bytes).
    void memoryCounters() {
        auto mem = [](const QByteArray& ts, int type, int dev, qint64 alloc, qint64 reserved) {
            return "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
                   "\"pid\": 1, "
                   "\"tid\": 1, \"ts\": " +
                   ts + ", \"args\": {\"Total Reserved\": " + QByteArray::number(reserved) +
                   ", \"Total Allocated\": " + QByteArray::number(alloc) +
                   ", \"Bytes\": 512, \"Addr\": 94, \"Device Id\": " + QByteArray::number(dev) +
                   ", \"Device Type\": " + QByteArray::number(type) + "}}";
        };
        const QByteArray s = trace({kernelEvent(), mem("5.5", 1, 0, 1024, 2097152), mem("6", 0, -1, 99, 99),
                                    mem("7.25", 1, 1, 512, 2097152)},
                                   "\"baseTimeNanoseconds\": 1000000000000, ");
        const TraceData t = readKinetoTrace(write("mem.json", s));
        QCOMPARE(t.counters.size(), std::size_t{4}); // the CPU sample (Device Type 0) is not a GPU counter
        QCOMPARE(t.strings.at(t.counters[0].name), std::string("GPU memory allocated"));
        QCOMPARE(t.counters[0].value, 1024.0);
        QCOMPARE(t.counters[0].ts, Ns{1000000005500});
        QCOMPARE(t.strings.at(t.counters[1].name), std::string("GPU memory reserved"));
        QCOMPARE(t.counters[1].value, 2097152.0);
        QCOMPARE(t.counters[2].device, 1);
        QCOMPARE(t.counters[3].ts, Ns{1000000007250});
        QCOMPARE(t.kernels[0].start, Ns{1000000100500}); // the base applies to every kind alike
    }

    void missingFile() {
        try {
            readKinetoTrace(dir_.filePath("nope.json").toStdString());
            QFAIL("read a missing file");
        } catch (const InputError& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains("cannot open"));
        }
    }

    void cancellation() {
        const std::string path = write("cancel.json", demoJson());
        std::atomic<bool> cancel{true};
        ProgressSink sink;
        sink.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(Cancelled, readKinetoTrace(path, sink));
        double last = -1;
        int reports = 0;
        ProgressSink progress{[&](double f) {
                                  QVERIFY(f >= last && f <= 1.0);
                                  last = f;
                                  ++reports;
                              },
                              nullptr};
        readKinetoTrace(path, progress);
        QVERIFY(reports >= 2);
        QCOMPARE(last, 1.0);
    }
};

QTEST_GUILESS_MAIN(TestKinetoBadInput)
#include "tst_kinetobadinput.moc"
