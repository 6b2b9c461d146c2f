// Chrome trace-event export: exact µs formatting, the structure Perfetto UI and chrome://tracing need
// (metadata for every track, flow pairs bound to slices, properly nested slices per track), and the
// round trip ingest -> export -> re-import with the Kineto importer, which must give the same events
// with the same ns times. Expected values come from the run as loaded from the workspace (the input of
// the export), compared field by field with what the independent Kineto importer reads back.
#include "TestPaths.h"
#include "TestTraces.h"
#include "core/InputError.h"
#include "export/ChromeTraceExporter.h"
#include "import/Importer.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

using namespace cnp;

namespace {

QString dataFile(const char* rel) {
    return (testpaths::dataDir() + QStringLiteral("/")) + rel;
}

// Loads run `name` after ingesting `inputs` into a fresh workspace in `dir`.
TraceData ingestAndLoad(const QString& wsPath, const QStringList& inputs, const QString& name) {
    Workspace ws(wsPath.toStdString(), Workspace::Mode::CreateIfMissing);
    IngestRequest req;
    for (const auto& i : inputs)
        req.inputs.push_back(i.toStdString());
    req.runName = name.toStdString();
    const auto res = ingest(ws, req);
    return ws.loadRun(res.runId);
}

QByteArray readMaybeGzip(const QString& path) {
    gzFile f = gzopen(path.toUtf8().constData(), "rb");
    if (!f)
        return {};
    QByteArray all;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0)
        all.append(buf, n);
    gzclose(f);
    return all;
}

Ns toNs(const QJsonValue& v) {
    return static_cast<Ns>(std::llround(v.toDouble() * 1000.0));
}

// Field-by-field comparison helpers: sort both sides by a key, then compare tuples.
template <typename T, typename Key>
std::vector<Key> keys(const std::vector<T>& v, Key (*fn)(const T&, const TraceData&), const TraceData& t) {
    std::vector<Key> out;
    out.reserve(v.size());
    for (const auto& e : v)
        out.push_back(fn(e, t));
    std::sort(out.begin(), out.end());
    return out;
}

using KernelKey = std::tuple<Ns, Ns, std::int64_t, std::int64_t, std::int32_t, std::int32_t, std::int32_t,
                             std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                             std::int32_t, std::int32_t, std::string>;
KernelKey kernelKey(const KernelEvent& k, const TraceData& t) {
    return {k.start,    k.end,       k.correlation, k.stream,      k.device,
            k.grid[0],  k.grid[1],   k.grid[2],     k.block[0],    k.block[1],
            k.block[2], k.registers, k.staticSmem,  k.dynamicSmem, t.strings.at(k.name)};
}
using MemcpyKey =
    std::tuple<Ns, Ns, std::int64_t, std::int64_t, std::int32_t, std::int64_t, int, int, int, std::string>;
MemcpyKey memcpyKey(const MemcpyEvent& m, const TraceData& t) {
    return {m.start, m.end,       m.correlation,  m.stream,       m.device,
            m.bytes, int(m.kind), int(m.srcKind), int(m.dstKind), t.strings.at(m.name)};
}
using MemsetKey =
    std::tuple<Ns, Ns, std::int64_t, std::int64_t, std::int32_t, std::int64_t, int, std::string>;
MemsetKey memsetKey(const MemsetEvent& m, const TraceData& t) {
    return {m.start, m.end, m.correlation, m.stream, m.device, m.bytes, int(m.memKind), t.strings.at(m.name)};
}
using ApiKey = std::tuple<Ns, Ns, std::int64_t, std::int64_t, std::int64_t, int, std::string>;
ApiKey apiKey(const ApiCall& a, const TraceData& t) {
    return {a.start, a.end, a.correlation, a.pid, a.tid, int(a.kind), t.strings.at(a.name)};
}
// NVTX and synchronisation ranges come back as user annotations (Kineto has no category for them).
using CpuKey = std::tuple<Ns, Ns, std::int64_t, std::int64_t, std::int64_t, int, std::string>;
CpuKey cpuKey(const CpuRange& c, const TraceData& t) {
    const auto kind =
        c.kind == CpuRangeKind::Nvtx || c.kind == CpuRangeKind::Other ? CpuRangeKind::UserAnnotation : c.kind;
    return {c.start, c.end, c.pid, c.tid, c.correlation, int(kind), t.strings.at(c.name)};
}
using GpuAnnKey = std::tuple<Ns, Ns, std::int64_t, std::int32_t, std::string>;
GpuAnnKey gpuAnnKey(const GpuAnnotation& g, const TraceData& t) {
    return {g.start, g.end, g.stream, g.device, t.strings.at(g.name)};
}
using FlowKey = std::tuple<std::int64_t, Ns, std::int64_t, Ns, std::int64_t>;
FlowKey flowKey(const Flow& f, const TraceData&) {
    return {f.correlation, f.cpuTs, f.tid, f.gpuTs, f.stream};
}

// Checks what Perfetto's and Chrome's JSON importers rely on; returns the parsed events.
QJsonArray checkChromeStructure(const QByteArray& json, bool checkNesting) {
    QJsonParseError err{};
    const auto doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError)
        qFatal("export is not valid JSON: %s at %d", qPrintable(err.errorString()), err.offset);
    const auto root = doc.object();
    const auto events = root.value("traceEvents").toArray();
    std::set<double> namedProcesses;
    std::set<std::pair<double, double>> namedThreads;
    std::map<std::pair<double, double>, std::vector<std::pair<Ns, Ns>>> slices; // track -> (start, end)
    std::map<double, int> flowStarts, flowEnds;
    std::vector<std::tuple<double, double, Ns, bool>> flowPoints; // (pid, tid, ts, isEnd)
    for (const auto& v : events) {
        const auto e = v.toObject();
        const QString ph = e.value("ph").toString();
        if (!e.value("pid").isDouble() || !e.value("tid").isDouble())
            qFatal("event without numeric pid/tid");
        const double pid = e.value("pid").toDouble(), tid = e.value("tid").toDouble();
        if (ph == "M") {
            if (e.value("name") == "process_name")
                namedProcesses.insert(pid);
            if (e.value("name") == "thread_name")
                namedThreads.insert({pid, tid});
        } else if (ph == "X") {
            if (!e.value("name").isString() || !e.value("cat").isString() || !e.value("ts").isDouble() ||
                !e.value("dur").isDouble() || e.value("dur").toDouble() < 0)
                qFatal("malformed X event");
            const Ns s = toNs(e.value("ts"));
            slices[{pid, tid}].push_back({s, s + toNs(e.value("dur"))});
        } else if (ph == "s" || ph == "f") {
            if (e.value("cat") != "ac2g" || !e.value("id").isDouble())
                qFatal("malformed flow event");
            if (ph == "f" && e.value("bp") != "e")
                qFatal("flow end without bp:e");
            (ph == "s" ? flowStarts : flowEnds)[e.value("id").toDouble()]++;
            flowPoints.emplace_back(pid, tid, toNs(e.value("ts")), ph == "f");
        } else if (ph != "C") {
            qFatal("unexpected ph %s", qPrintable(ph));
        }
    }
    for (const auto& [track, v] : slices) {
        if (!namedProcesses.count(track.first) || !namedThreads.count(track))
            qFatal("track without process_name/thread_name metadata");
    }
    // Every flow id appears exactly once as s and once as f.
    if (flowStarts.size() != flowEnds.size())
        qFatal("unpaired flows");
    for (const auto& [id, n] : flowStarts)
        if (n != 1 || flowEnds[id] != 1)
            qFatal("flow id used %d times", n);
    // Flow ends bind to a slice starting at their ts on their track; flow starts lie inside a slice.
    for (auto& [track, v] : slices)
        std::sort(v.begin(), v.end(), [](auto a, auto b) {
            return a.first != b.first ? a.first < b.first : a.second > b.second;
        });
    for (const auto& point : flowPoints) {
        const auto& [pid, tid, ts, isEnd] = point;
        const auto& v = slices[{pid, tid}];
        // clang 14 cannot capture structured bindings: the lambda captures copies.
        const bool bound = std::any_of(v.begin(), v.end(), [end = isEnd, at = ts](const auto& s) {
            return end ? s.first == at : s.first <= at && at <= s.second;
        });
        if (!bound)
            qFatal("flow %s at %lld not bound to a slice", isEnd ? "end" : "start",
                   static_cast<long long>(ts));
    }
    if (checkNesting) {
        for (const auto& [track, v] : slices) {
            std::vector<Ns> stack; // open slice ends
            for (const auto& [s, e] : v) {
                while (!stack.empty() && stack.back() <= s)
                    stack.pop_back();
                if (!stack.empty() && e > stack.back())
                    qFatal("slices overlap without nesting on track %g/%g at %lld", track.first, track.second,
                           static_cast<long long>(s));
                stack.push_back(e);
            }
        }
    }
    return events;
}

} // namespace

class TestChromeExport : public QObject {
    Q_OBJECT

private slots:
    void formatMicros_data();
    void formatMicros();
    void roundTrip_data();
    void roundTrip();
    void tinyTraceLayout();
    void multiRankProcessesAndFlowIds();
    void invalidUtf8IsRepaired();
    void unwritablePathLeavesNothing();
};

void TestChromeExport::formatMicros_data() {
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << 0LL << "0.000";
    QTest::newRow("1 ns") << 1LL << "0.001";
    QTest::newRow("999 ns") << 999LL << "0.999";
    QTest::newRow("1 us") << 1000LL << "1.000";
    QTest::newRow("mixed") << 123456789LL << "123456.789";
    QTest::newRow("negative") << -1LL << "-0.001";
    QTest::newRow("negative mixed") << -1234567LL << "-1234.567";
    QTest::newRow("unix ns") << 1696392839587175550LL << "1696392839587175.550";
    QTest::newRow("max") << qint64(INT64_MAX) << "9223372036854775.807";
    QTest::newRow("min") << qint64(INT64_MIN) << "-9223372036854775.808";
}

void TestChromeExport::formatMicros() {
    QFETCH(qint64, ns);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(ChromeTraceExporter::formatMicros(ns)), text);
}

void TestChromeExport::roundTrip_data() {
    QTest::addColumn<QStringList>("inputs");
    QTest::addColumn<QString>("outName");
    QTest::addColumn<bool>("checkNesting");
    QTest::newRow("nsys 3.13.2 cloverleaf")
        << QStringList{dataFile("nsys/perlmutter-cloverleaf-cuda.sqlite")} << "clover.json" << true;
    QTest::newRow("nsys 2.9.1 saxpy, NVTX domains, gzip")
        << QStringList{dataFile("nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite")} << "saxpy.json.gz" << true;
    QTest::newRow("kineto H200 demo")
        << QStringList{(testpaths::sourceDir() + QStringLiteral("/resources/demo/demo_base.json.gz"))}
        << "demo.json.gz" << false;
    QTest::newRow("kineto NCCL (HTA)")
        << QStringList{dataFile("hta/nccl_parser_config/nccl_data.json.gz")} << "nccl.json" << false;
}

void TestChromeExport::roundTrip() {
    QFETCH(QStringList, inputs);
    QFETCH(QString, outName);
    QFETCH(bool, checkNesting);
    QTemporaryDir dir;
    const QString wsPath = dir.filePath("ws.cnpdb");
    const TraceData a = ingestAndLoad(wsPath, inputs, "orig");
    const QString out = dir.filePath(outName);
    const auto written = ChromeTraceExporter(a).write(out.toStdString());
    QVERIFY(QFile::exists(out));
    QVERIFY(written >= qint64(a.kernels.size() + a.apiCalls.size() + 2 * a.flows.size()));
    QVERIFY(a.kernels.size() > 0);

    // Structure, on the decompressed bytes.
    const QByteArray json = readMaybeGzip(out);
    QVERIFY(json.size() > 1000);
    checkChromeStructure(json, checkNesting);

    // Re-import with the Kineto importer (format detection by content, as `cnp ingest` does).
    const TraceData b = importFile(out.toStdString());
    QCOMPARE(QString::fromStdString(b.info.sourceFormat), QStringLiteral("kineto"));
    QCOMPARE(b.info.skipped.count, 0LL);
    QCOMPARE(b.kernels.size(), a.kernels.size());
    QCOMPARE(b.memcpys.size(), a.memcpys.size());
    QCOMPARE(b.memsets.size(), a.memsets.size());
    QCOMPARE(b.apiCalls.size(), a.apiCalls.size());
    QCOMPARE(b.cpuRanges.size(), a.cpuRanges.size());
    QCOMPARE(b.gpuAnnotations.size(), a.gpuAnnotations.size());
    QCOMPARE(b.flows.size(), a.flows.size());
    QVERIFY(keys(a.kernels, kernelKey, a) == keys(b.kernels, kernelKey, b));
    QVERIFY(keys(a.memcpys, memcpyKey, a) == keys(b.memcpys, memcpyKey, b));
    QVERIFY(keys(a.memsets, memsetKey, a) == keys(b.memsets, memsetKey, b));
    QVERIFY(keys(a.apiCalls, apiKey, a) == keys(b.apiCalls, apiKey, b));
    QVERIFY(keys(a.cpuRanges, cpuKey, a) == keys(b.cpuRanges, cpuKey, b));
    QVERIFY(keys(a.gpuAnnotations, gpuAnnKey, a) == keys(b.gpuAnnotations, gpuAnnKey, b));
    QVERIFY(keys(a.flows, flowKey, a) == keys(b.flows, flowKey, b));
    QCOMPARE(b.ranks.size(), std::size_t(1));
    QCOMPARE(b.ranks[0].gpuNames, a.ranks[0].gpuNames);
    QCOMPARE(QString::fromStdString(b.info.driverVersion), QString::fromStdString(a.info.driverVersion));
    QCOMPARE(QString::fromStdString(b.info.cudaVersion), QString::fromStdString(a.info.cudaVersion));

    // Through the whole pipeline: the re-ingested run has the same steps and kernel categories.
    Workspace ws(wsPath.toStdString(), Workspace::Mode::ReadWrite);
    IngestRequest req;
    req.inputs = {out.toStdString()};
    req.runName = "again";
    const TraceData c = ws.loadRun(ingest(ws, req).runId);
    QCOMPARE(c.steps.size(), a.steps.size());
    for (std::size_t i = 0; i < a.steps.size(); ++i) {
        QCOMPARE(c.steps[i].cpuStart, a.steps[i].cpuStart);
        QCOMPARE(c.steps[i].gpuStart, a.steps[i].gpuStart);
        QCOMPARE(c.steps[i].gpuEnd, a.steps[i].gpuEnd);
    }
    std::map<std::string, qint64> catA, catC;
    for (const auto& k : a.kernels)
        catA[a.strings.at(k.category)] += k.end - k.start;
    for (const auto& k : c.kernels)
        catC[c.strings.at(k.category)] += k.end - k.start;
    QVERIFY(catA == catC);
}

void TestChromeExport::tinyTraceLayout() {
    // The hand-built trace: 2 kernels on stream 7 launched from tid 11, one memcpy, 2 flows.
    TraceData t = cnp::testing::tinyTrace();
    t.ranks[0].pid = 4242;
    for (auto& a : t.apiCalls)
        a.pid = 4242;
    for (auto& c : t.cpuRanges)
        c.pid = 4242;
    QTemporaryDir dir;
    const QString out = dir.filePath("tiny.json");
    ChromeTraceExporter(t).write(out.toStdString());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray json = f.readAll();
    const auto events = checkChromeStructure(json, true);
    const auto root = QJsonDocument::fromJson(json).object();
    // Times from -30 ns: no whole second to factor out, so base 0 and ts in µs of the raw ns.
    QCOMPARE(root.value("baseTimeNanoseconds").toInteger(), 0LL);
    QVERIFY(json.contains("\"ts\":0.000,\"dur\":0.100"));  // kernel [0, 100) ns, exact text
    QVERIFY(json.contains("\"ts\":-0.030,\"dur\":0.290")); // ProfilerStep#1 [-30, 260)
    // Tracks: stream 0 (the memcpy) and stream 7 (the kernels), in (device, stream) order.
    std::map<QString, qint64> trackTid;
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (e.value("ph") == "M" && e.value("name") == "thread_name")
            trackTid[e.value("args").toObject().value("name").toString()] = e.value("tid").toInteger();
    }
    QCOMPARE(trackTid["GPU 0 stream 0"], ChromeTraceExporter::kGpuTrackTidBase);
    QCOMPARE(trackTid["GPU 0 stream 7"], ChromeTraceExporter::kGpuTrackTidBase + 1);
    QCOMPARE(trackTid["CPU thread 11"], 11LL);
    int kernels = 0;
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (e.value("cat") == "kernel") {
            ++kernels;
            QCOMPARE(e.value("pid").toInteger(), 4242LL);
            QCOMPARE(e.value("tid").toInteger(), trackTid["GPU 0 stream 7"]);
            const auto args = e.value("args").toObject();
            QCOMPARE(args.value("stream").toInteger(), 7LL);
            QCOMPARE(args.value("registers per thread").toInteger(), 32LL);
            QCOMPARE(args.value("grid").toArray().at(0).toInteger(), 4LL);
            QCOMPARE(args.value("block").toArray().at(0).toInteger(), 128LL);
            QVERIFY(args.contains("correlation"));
        }
    }
    QCOMPARE(kernels, 2);
}

void TestChromeExport::multiRankProcessesAndFlowIds() {
    QTemporaryDir dir;
    const TraceData a = ingestAndLoad(dir.filePath("ws.cnpdb"), {dataFile("hta/trace_filter")}, "two");
    QCOMPARE(a.ranks.size(), std::size_t(2));
    const QString out = dir.filePath("two.json");
    ChromeTraceExporter(a).write(out.toStdString());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray json = f.readAll();
    const auto events = checkChromeStructure(json, false); // also: flow ids unique across ranks
    std::map<QString, qint64> processes;
    std::map<qint64, qint64> kernelsPerPid;
    for (const auto& v : events) {
        const auto e = v.toObject();
        if (e.value("ph") == "M" && e.value("name") == "process_name")
            processes[e.value("args").toObject().value("name").toString().section(' ', 0, 1)] =
                e.value("pid").toInteger();
        if (e.value("cat") == "kernel")
            ++kernelsPerPid[e.value("pid").toInteger()];
    }
    QCOMPARE(processes.size(), std::size_t(2));
    QVERIFY(processes.count("rank 0") && processes.count("rank 1"));
    QVERIFY(processes["rank 0"] != processes["rank 1"]);
    qint64 k0 = 0, k1 = 0;
    for (const auto& k : a.kernels)
        (k.rank == 0 ? k0 : k1)++;
    QCOMPARE(kernelsPerPid[processes["rank 0"]], k0);
    QCOMPARE(kernelsPerPid[processes["rank 1"]], k1);
    QVERIFY(!QJsonDocument::fromJson(json).object().contains("distributedInfo"));
}

void TestChromeExport::invalidUtf8IsRepaired() {
    TraceData t = cnp::testing::tinyTrace();
    t.kernels[0].name = t.strings.intern(std::string("bad\xff\xfe name, with \"quotes\"\n"));
    QTemporaryDir dir;
    const QString out = dir.filePath("u.json");
    ChromeTraceExporter(t).write(out.toStdString());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray json = f.readAll();
    checkChromeStructure(json, true);
    QVERIFY(json.contains("bad\xEF\xBF\xBD")); // U+FFFD
    QVERIFY(json.contains("with \\\"quotes\\\"\\n"));
}

void TestChromeExport::unwritablePathLeavesNothing() {
    QTemporaryDir dir;
    const TraceData t = cnp::testing::tinyTrace();
    const QString out = dir.filePath("missing-folder/x.json");
    try {
        ChromeTraceExporter(t).write(out.toStdString());
        QFAIL("no InputError");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(out), e.what());
    }
    QVERIFY(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
}

QTEST_GUILESS_MAIN(TestChromeExport)
#include "tst_chromeexport.moc"
