// The dependency graph and its critical path (docs/metrics.md, "Critical path"): hand-made windows whose
// paths are computed by hand in the comments, and HTA's critical-path test traces
// (tests/data/hta/critical_path/, from HolisticTraceAnalysis tests/data/critical_path) with the figures of
// HTA's tests/test_critical_path_analysis.py where the two models agree.
#include "core/InputError.h"
#include "core/StepEvents.h"
#include "ingest/IngestPipeline.h"
#include "metrics/CriticalPath.h"
#include "metrics/DependencyGraph.h"
#include "requests/CriticalPathRequest.h"
#include "store/StepEventReader.h"
#include "store/StudyFolder.h"
#include "store/Workspace.h"
#include "synth/StudyGenerator.h"

#include "TestPaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

#include <zlib.h>

using namespace cnp;

namespace {

StepCpuEvent op(Ns s, Ns e, const char* name, std::int64_t tid = 1) {
    return StepCpuEvent{s, e, tid, 0, false, false, name};
}
StepCpuEvent api(Ns s, Ns e, const char* name, std::int64_t corr, std::int64_t tid = 1) {
    return StepCpuEvent{s, e, tid, corr, true, false, name};
}
StepGpuEvent kernel(Ns s, Ns e, std::int64_t stream, std::int64_t corr, const char* category = "gemm",
                    const char* name = "k") {
    StepGpuEvent g;
    g.start = s;
    g.end = e;
    g.stream = stream;
    g.correlation = corr;
    g.name = name;
    g.category = category;
    return g;
}

// Thread 1: op A [0,100] holding launch L [10,30] (kernel K [40,140] on stream 7), then a
// cudaDeviceSynchronize S [110,150] that returns 10 ns after K ends.
// Path: source -> A.s (0) -> L.s (cpu 10) -> K.s (launch 30) -> K.e (compute 100) -> S.e (sync 10) = 150.
StepEvents launchAndSync() {
    StepEvents ev;
    ev.windowStart = 0;
    ev.windowEnd = 200;
    ev.cpu = {op(0, 100, "A"), api(10, 30, "cudaLaunchKernel", 1), api(110, 150, "cudaDeviceSynchronize", 2)};
    ev.gpu = {kernel(40, 140, 7, 1)};
    return ev;
}

Ns kindOf(const CriticalPathResult& r, PathKind k) {
    return r.byKind[static_cast<std::size_t>(k)];
}

const GraphEdge* edgeBetween(const DependencyGraph& g, std::int32_t from, std::int32_t to) {
    for (const auto& e : g.edges())
        if (e.from == from && e.to == to)
            return &e;
    return nullptr;
}

std::int32_t cpuIndex(const StepEvents& ev, const std::string& name, Ns start) {
    for (std::size_t i = 0; i < ev.cpu.size(); ++i)
        if (ev.cpu[i].name == name && ev.cpu[i].start == start)
            return static_cast<std::int32_t>(i);
    return -1;
}

QString data(const char* rel) {
    return testpaths::dataDir() + QStringLiteral("/hta/critical_path/") + QString::fromUtf8(rel);
}

void ingestInto(const QString& wsPath, const QString& file, const char* run) {
    Workspace ws(wsPath.toStdString(), Workspace::Mode::CreateIfMissing);
    IngestRequest req;
    req.inputs.push_back(file.toStdString());
    req.runName = run;
    ingest(ws, req);
}

constexpr const char* kForward = "[param|pytorch.model.alex_net|0|0|0|measure|forward]";
constexpr Ns kUs = 1000; // HTA's fixtures are in whole microseconds

} // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("cp.cnpdb");
        ingestInto(ws, data("simple_add.json.gz"), "simple_add");
        ingestInto(ws, data("cuda_event_sync.json.gz"), "event_sync");
        ingestInto(ws, data("cuda_event_sync_multi_stream.json.gz"), "multi_stream");
    }

    void launchThenSync() {
        const StepEvents ev = launchAndSync();
        const auto g = DependencyGraph::build(ev);
        const auto r = CriticalPath::of(g);
        QCOMPARE(r.length, Ns(150));
        QCOMPARE(r.end, Ns(150));
        QCOMPARE(kindOf(r, PathKind::Cpu), Ns(10));
        QCOMPARE(kindOf(r, PathKind::Launch), Ns(30));
        QCOMPARE(kindOf(r, PathKind::Compute), Ns(100));
        QCOMPARE(kindOf(r, PathKind::Sync), Ns(10));
        QCOMPARE(g.resolvedSyncs(), 1);
        // The sync call's own 40 ns are waiting: its CPU edge is not binding and weighs 0.
        const auto* wait = edgeBetween(g, g.startOfCpu(2), g.endOfCpu(2));
        QVERIFY(wait);
        QCOMPARE(wait->weight, Ns(0));
        QVERIFY(!wait->binding);
        // Segments in time order, summing to the length.
        Ns sum = 0, last = 0;
        for (const auto& s : r.segments) {
            QVERIFY(s.start >= last);
            last = s.end;
            sum += s.weight;
        }
        QCOMPARE(sum, r.length);
    }

    // A sync call that found the GPU idle: its own time is CPU time, the path stays on the CPU.
    void syncAfterGpuFinished() {
        StepEvents ev = launchAndSync();
        ev.cpu[2] = api(145, 150, "cudaStreamSynchronize", 2);
        const auto r = CriticalPath::of(DependencyGraph::build(ev));
        // K ends at 140 < 145: source -> A (0..100: cpu 10 + launch 20 + cpu 70) -> gap 45 -> S 5 = 150.
        QCOMPARE(r.length, Ns(150));
        QCOMPARE(kindOf(r, PathKind::Sync), Ns(0));
        QCOMPARE(kindOf(r, PathKind::Launch), Ns(20));
        QCOMPARE(kindOf(r, PathKind::Cpu), Ns(130));
    }

    // K2 is launched at 30 but queued behind K1 (ends 140) on its stream: kernel gap 5, not launch delay.
    void queuedKernelTakesKernelGap() {
        StepEvents ev = launchAndSync();
        ev.cpu.pop_back();
        ev.cpu.push_back(api(30, 35, "cudaLaunchKernel", 2));
        ev.gpu.push_back(kernel(145, 200, 7, 2));
        const auto g = DependencyGraph::build(ev);
        const auto r = CriticalPath::of(g);
        // 10 (cpu) + 30 (launch) + 100 (K1) + 5 (gap) + 55 (K2) = 200.
        QCOMPARE(r.length, Ns(200));
        QCOMPARE(kindOf(r, PathKind::KernelGap), Ns(5));
        QCOMPARE(kindOf(r, PathKind::Compute), Ns(155));
        const auto* launch = edgeBetween(g, g.startOfCpu(2), g.startOfGpu(1));
        QVERIFY(launch);
        QVERIFY(!launch->binding);
        QCOMPARE(launch->weight, Ns(0));
    }

    // K2 (stream 2) is the first launch after a cudaStreamWaitEvent: it waited on K1 (stream 1).
    void inferredEventWait() {
        StepEvents ev;
        ev.windowStart = 0;
        ev.windowEnd = 200;
        ev.cpu = {api(10, 30, "cudaLaunchKernel", 1), api(32, 34, "cudaStreamWaitEvent", 0),
                  api(35, 40, "cudaLaunchKernel", 2)};
        ev.gpu = {kernel(40, 140, 1, 1), kernel(142, 180, 2, 2)};
        const auto g = DependencyGraph::build(ev);
        QCOMPARE(g.inferredEventWaits(), 1);
        const auto r = CriticalPath::of(g);
        // source -> L1.s 10 (cpu) -> K1 launch 30 -> 100 -> wait 2 -> K2 38 = 180.
        QCOMPARE(r.length, Ns(180));
        QCOMPARE(kindOf(r, PathKind::Sync), Ns(2));
        QCOMPARE(kindOf(r, PathKind::Compute), Ns(138));
        // Without the wait call there is nothing to infer: K2 waits on its launch. source -> L1.s 10 (cpu),
        // L1 20 (launch), 2 + 2 + 1 (cpu) -> L2.s 35 -> K2.s 142 (launch 107) -> K2 38 = 180.
        ev.cpu[1].name = "cudaEventRecord";
        const auto g2 = DependencyGraph::build(ev);
        QCOMPARE(g2.inferredEventWaits(), 0);
        const auto r2 = CriticalPath::of(g2);
        QCOMPARE(r2.length, Ns(180));
        QCOMPARE(kindOf(r2, PathKind::Compute), Ns(38));
        QCOMPARE(kindOf(r2, PathKind::Launch), Ns(127));
        QCOMPARE(kindOf(r2, PathKind::Cpu), Ns(15));
    }

    // A second thread enters from the main thread's latest earlier point.
    void secondThreadEntersFromMainThread() {
        StepEvents ev;
        ev.windowStart = 0;
        ev.windowEnd = 100;
        ev.mainTid = 1;
        ev.cpu = {op(0, 50, "forward", 1), op(60, 100, "backward", 2)};
        const auto g = DependencyGraph::build(ev);
        const auto* entry = edgeBetween(g, g.endOfCpu(0), g.startOfCpu(1));
        QVERIFY(entry);
        QCOMPARE(entry->weight, Ns(10));
        const auto r = CriticalPath::of(g);
        QCOMPARE(r.length, Ns(100));
        QCOMPARE(r.segments.front().cpuEvent, 0);
    }

    // Untraced CPU time between operators counts, or (HTA's weights) weighs 0.
    void untracedCpuTime() {
        StepEvents ev;
        ev.windowStart = 0;
        ev.windowEnd = 100;
        ev.cpu = {op(0, 20, "a"), op(50, 60, "b"), StepCpuEvent{60, 100, 1, 0, false, true, "annotation"}};
        QCOMPARE(CriticalPath::of(DependencyGraph::build(ev)).length, Ns(100));
        DependencyGraphOptions hta;
        hta.countUntracedCpuTime = false;
        QCOMPARE(CriticalPath::of(DependencyGraph::build(ev, hta)).length, Ns(30));
    }

    void collectiveWaitSplit() {
        CriticalPathResult r;
        r.length = 100;
        PathSegment c;
        c.start = 0;
        c.end = 100;
        c.weight = 100;
        c.kind = PathKind::Communication;
        c.collective = 0;
        c.arrival = 0;
        r.segments = {c};
        r.byKind[static_cast<std::size_t>(PathKind::Communication)] = 100;
        // Rank 3 arrived at 30: 30 of the 100 ns were a wait.
        CriticalPath::splitCollectiveWaits(r, {30}, {3});
        QCOMPARE(r.segments.size(), std::size_t(2));
        QCOMPARE(r.segments[0].kind, PathKind::CollectiveWait);
        QCOMPARE(r.segments[0].weight, Ns(30));
        QCOMPARE(r.segments[0].waitedOnRank, 3);
        QCOMPARE(r.segments[1].start, Ns(30));
        QCOMPARE(kindOf(r, PathKind::CollectiveWait), Ns(30));
        QCOMPARE(kindOf(r, PathKind::Communication), Ns(70));
    }

    // HTA's test_critical_path_basic_add: the edges of aten::relu_ at 1694040009871913 us, its
    // aten::clamp_min_ and their cudaLaunchKernel (15, 14, 17, 15, 32 us), the fft kernel's launch delay
    // (27 us) and the next kernel's kernel-to-kernel delay (7 us), in the forward pass instance 1.
    void htaSimpleAddEdges() {
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        StepEventReader reader(w, w.runOrThrow("simple_add").id);
        const auto window = reader.annotation(0, kForward, 1);
        QVERIFY(window);
        QCOMPARE(window->start, Ns(1694040009854190) * kUs);
        QCOMPARE(window->end - window->start, Ns(243351) * kUs);
        const StepEvents ev = reader.read(*window);
        const auto g = DependencyGraph::build(ev);
        const Ns relu0 = Ns(1694040009871913) * kUs;
        const std::int32_t relu = cpuIndex(ev, "aten::relu_", relu0);
        const std::int32_t clamp = cpuIndex(ev, "aten::clamp_min_", relu0 + 15 * kUs);
        const std::int32_t launch = cpuIndex(ev, "cudaLaunchKernel", relu0 + 29 * kUs);
        QVERIFY(relu >= 0 && clamp >= 0 && launch >= 0);
        struct Expected {
            std::int32_t from, to;
            Ns us;
            PathKind kind;
            std::int32_t attributed;
        };
        const Expected edges[] = {
            {g.startOfCpu(relu), g.startOfCpu(clamp), 15, PathKind::Cpu, relu},
            {g.startOfCpu(clamp), g.startOfCpu(launch), 14, PathKind::Cpu, clamp},
            {g.startOfCpu(launch), g.endOfCpu(launch), 17, PathKind::Launch, launch},
            {g.endOfCpu(launch), g.endOfCpu(clamp), 15, PathKind::Cpu, clamp},
            {g.endOfCpu(clamp), g.endOfCpu(relu), 32, PathKind::Cpu, relu},
        };
        for (const auto& x : edges) {
            const auto* e = edgeBetween(g, x.from, x.to);
            QVERIFY(e);
            QCOMPARE(e->weight, x.us * kUs);
            QCOMPARE(e->kind, x.kind);
            QCOMPARE(e->cpuEvent, x.attributed);
        }
        // The fft kernel at 1694040010076734 us: launched 27 us before it starts on an idle stream; the
        // next kernel on its stream starts 7 us after it ends.
        std::int32_t fft = -1;
        for (std::size_t k = 0; k < ev.gpu.size() && fft < 0; ++k)
            if (ev.gpu[k].name.find("fft") != std::string::npos &&
                ev.gpu[k].start == Ns(1694040010076734) * kUs)
                fft = static_cast<std::int32_t>(k);
        QVERIFY(fft >= 0);
        bool launchDelay = false, kernelGap = false;
        for (const auto& e : g.edges()) {
            if (e.to == g.startOfGpu(fft) && e.binding) {
                QCOMPARE(e.kind, PathKind::Launch);
                QCOMPARE(e.weight, 27 * kUs);
                launchDelay = true;
            }
            if (e.from == g.endOfGpu(fft) && e.kind == PathKind::KernelGap) {
                QVERIFY(e.binding);
                QCOMPARE(e.weight, 7 * kUs);
                QVERIFY(ev.gpu[static_cast<std::size_t>(e.gpuEvent)].name.find("ampere") !=
                        std::string::npos);
                kernelGap = true;
            }
        }
        QVERIFY(launchDelay && kernelGap);
    }

    // The measured graph reproduces every node's time: the path is the window's span, and HTA's own
    // figure where it agrees (its length is shorter: it gives untraced CPU time and syncs no weight).
    void htaSimpleAddPath() {
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        WindowChoice c;
        c.annotation = kForward;
        c.instance = 1;
        const auto report = computeCriticalPath(w, "simple_add", c, true);
        QCOMPARE(report.ranks.size(), std::size_t(1));
        const auto& r = report.ranks[0].path;
        QCOMPARE(r.length, Ns(243351) * kUs);
        Ns sum = 0;
        for (Ns k : r.byKind)
            sum += k;
        QCOMPARE(sum, r.length);
        // With HTA's weights the path leaves the CPU for the GPU where the CPU was between operators.
        c.graph.countUntracedCpuTime = false;
        const auto hta = computeCriticalPath(w, "simple_add", c, true);
        const auto& h = hta.ranks[0].path;
        QVERIFY(h.length < r.length);
        QVERIFY(h.byKind[static_cast<std::size_t>(PathKind::Compute)] > 0);
    }

    // HTA's end-to-end test: its critical events of the whole simple_add trace (the overlaid trace HTA
    // wrote, tests/data/hta/critical_path/simple_add_hta_overlaid.json.gz: 352 cpu_op, 250 runtime, 16
    // memcpy, 5 kernel and 1 memset events) lie on our path with HTA's weights: every cpu_op, memcpy,
    // kernel and memset, and the runtime calls of non-zero time on the path (the 14 left are stream syncs
    // whose whole time is a wait of weight 0, in both models).
    void htaEndToEndCriticalEvents() {
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        WindowChoice c;
        c.graph.countUntracedCpuTime = false;
        const auto report = computeCriticalPath(w, "simple_add", c, true);
        QCOMPARE(report.ranks[0].window, std::string("whole trace"));
        const auto& segments = report.ranks[0].segments;

        gzFile f = gzopen(data("simple_add_hta_overlaid.json.gz").toUtf8().constData(), "rb");
        QVERIFY(f);
        QByteArray text;
        char buf[1 << 16];
        int n;
        while ((n = gzread(f, buf, sizeof buf)) > 0)
            text.append(buf, n);
        gzclose(f);
        const auto events = QJsonDocument::fromJson(text).object()["traceEvents"].toArray();
        std::map<QString, std::pair<int, int>> onPath; // cat -> (on our path, HTA critical)
        for (const auto& v : events) {
            const auto e = v.toObject();
            if (e["ph"].toString() != "X" || e["args"].toObject()["critical"].toInt() != 1)
                continue;
            const Ns s = static_cast<Ns>(e["ts"].toDouble()) * kUs;
            const Ns end = s + static_cast<Ns>(e["dur"].toDouble()) * kUs;
            bool hit = false;
            for (const auto& seg : segments)
                hit = hit || (seg.segment.start >= s && seg.segment.end <= end && seg.segment.weight > 0);
            auto& counts = onPath[e["cat"].toString()];
            counts.first += hit ? 1 : 0;
            ++counts.second;
        }
        QCOMPARE(onPath["cpu_op"], std::make_pair(352, 352));
        QCOMPARE(onPath["gpu_memcpy"], std::make_pair(16, 16));
        QCOMPARE(onPath["kernel"], std::make_pair(5, 5));
        QCOMPARE(onPath["gpu_memset"], std::make_pair(1, 1));
        QCOMPARE(onPath["cuda_runtime"], std::make_pair(236, 250));
    }

    // cuda_event_sync: the ProfilerStep#100 step; the cudaEventSynchronize waits on the spin kernel.
    void htaEventSync() {
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        const auto report = computeCriticalPath(w, "event_sync", WindowChoice{}, true);
        const auto& r = report.ranks[0];
        QCOMPARE(r.stepIndex, 100);
        QCOMPARE(r.path.length, Ns(3154) * kUs); // ProfilerStep#100: 1707417525509335 .. 1707417525512489 us
        QVERIFY(r.resolvedSyncs >= 2);
        bool spin = false;
        for (const auto& s : r.segments)
            spin = spin ||
                   (s.segment.kind == PathKind::Compute && s.name.find("spin_kernel") != std::string::npos);
        QVERIFY(spin);
        QVERIFY(r.path.byKind[static_cast<std::size_t>(PathKind::Sync)] > 0);
    }

    // cuda_event_sync_multi_stream: kernels on streams 20, 24 and 28 ordered by cudaStreamWaitEvent; the
    // one wait whose next launch is on the thread is inferred.
    void htaMultiStream() {
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        const auto report = computeCriticalPath(w, "multi_stream", WindowChoice{}, true);
        const auto& r = report.ranks[0];
        QCOMPARE(r.inferredEventWaits, 1);
        QCOMPARE(r.gpuActivities, 6);
        Ns sum = 0;
        for (Ns k : r.path.byKind)
            sum += k;
        QCOMPARE(sum, r.path.length);
        QVERIFY(!report.notes.empty());
    }

    // A multi-rank synthetic run (2 nodes x 2 GPUs) read from one file and from a study of 2 shards: the
    // same path on every rank; its collectives joined across ranks, each rank waiting on others' arrivals.
    void studyOfShardsAndCollectives() {
        const auto params = synth::SynthParams::fromFile(synth::SynthParams::studyPath("acs-llama3-8b"));
        synth::StudyOptions o;
        o.outDir = dir.filePath("synth").toStdString();
        o.nodes = 2;
        o.gpusPerNode = 2;
        o.steps = 2;
        o.layers = 2;
        o.seed = 3;
        o.seedSet = true;
        o.configs = {"Base"};
        const auto runs = synth::generateStudy(params, synth::resolveOptions(params, o));
        QCOMPARE(runs.size(), std::size_t(1));
        const std::string studyPath = dir.filePath("s.cnpstudy").toStdString();
        StudyFolder::create(studyPath, 2);
        std::vector<CriticalPathReport> reports;
        for (const std::string& path : {dir.filePath("single.cnpdb").toStdString(), studyPath}) {
            Workspace w(path, Workspace::Mode::CreateIfMissing);
            IngestRequest req;
            req.inputs = {runs[0].folder};
            req.runName = "base";
            ingest(w, req);
            WindowChoice c;
            c.step = 1;
            reports.push_back(computeCriticalPath(w, "base", c, false));
        }
        const auto& single = reports[0];
        const auto& study = reports[1];
        QCOMPARE(single.ranks.size(), std::size_t(4));
        QVERIFY(single.collectivesJoined);
        Ns waited = 0;
        for (std::size_t r = 0; r < 4; ++r) {
            QCOMPARE(study.ranks[r].rank, single.ranks[r].rank);
            QCOMPARE(study.ranks[r].path.length, single.ranks[r].path.length);
            QVERIFY(study.ranks[r].path.byKind == single.ranks[r].path.byKind);
            Ns sum = 0;
            for (Ns k : single.ranks[r].path.byKind)
                sum += k;
            QCOMPARE(sum, single.ranks[r].path.length);
            QVERIFY(single.ranks[r].path.byKind[static_cast<std::size_t>(PathKind::Communication)] > 0);
            waited += single.ranks[r].path.byKind[static_cast<std::size_t>(PathKind::CollectiveWait)];
            // Only communication segments are kept for many ranks; each wait names the rank that arrived
            // last.
            for (const auto& s : single.ranks[r].path.segments) {
                QVERIFY(s.kind == PathKind::Communication || s.kind == PathKind::CollectiveWait);
                if (s.kind == PathKind::CollectiveWait)
                    QVERIFY(s.waitedOnRank >= 0 && s.waitedOnRank != single.ranks[r].rank);
            }
        }
        QVERIFY(waited > 0);
    }

    void unknownWindowsAreRefused() {
        Workspace w(ws.toStdString(), Workspace::Mode::ReadOnly);
        WindowChoice c;
        c.step = 7;
        QVERIFY_THROWS_EXCEPTION(InputError, computeCriticalPath(w, "event_sync", c, false));
        c = {};
        c.annotation = "no such range";
        QVERIFY_THROWS_EXCEPTION(InputError, computeCriticalPath(w, "simple_add", c, false));
        c = {};
        c.rank = 4;
        QVERIFY_THROWS_EXCEPTION(InputError, computeCriticalPath(w, "simple_add", c, false));
        QVERIFY_THROWS_EXCEPTION(InputError, computeCriticalPath(w, "nope", WindowChoice{}, false));
    }
};

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_criticalpath.moc"
