// KinetoImporter on real PyTorch-profiler traces (the H200 demo ablation and HTA's test traces).
//
// Every expected number below was derived independently at authoring time with python3 from the
// JSON itself - not from this importer - by a script equivalent to:
//   d = json.load(gzip.open(f), parse_float=Decimal, parse_int=Decimal)   # exact number text
//   ns(x) = int((Decimal(x) * 1000).to_integral_value(ROUND_HALF_UP))
//   off = baseTimeNanoseconds if baseTimeNanoseconds and min(ts) < baseTimeNanoseconds else 0
//   per category group: count, sum(ns(dur)), min(ns(ts)) + off, max(ns(ts) + ns(dur)) + off
//   flows = |{id of ph s, cat ac2g} ∩ {id of ph f, cat ac2g}|
// (groups: api = cuda_runtime + cuda_driver; cpu = cpu_op + user_annotation + python_function).
#include "TestPaths.h"
#include "core/InputError.h"
#include "core/TraceData.h"
#include "import/kineto/KinetoImporter.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

using namespace cnp;

namespace {

std::string dataPath(const char* rel) {
    return testpaths::dataDir().toStdString() + "/" + rel;
}
std::string demoPath(const char* name) {
    return testpaths::sourceDir().toStdString() + "/resources/demo/" + name;
}

struct Totals {
    qint64 count = 0, sumDur = 0, minStart = 0, maxEnd = 0;
};

template <typename V> Totals totals(const V& events) {
    Totals t;
    t.count = static_cast<qint64>(events.size());
    if (events.empty())
        return t;
    t.minStart = events.front().start;
    t.maxEnd = events.front().end;
    for (const auto& e : events) {
        t.sumDur += e.end - e.start;
        t.minStart = std::min<qint64>(t.minStart, e.start);
        t.maxEnd = std::max<qint64>(t.maxEnd, e.end);
    }
    return t;
}

} // namespace

Q_DECLARE_METATYPE(Totals)

class TestKinetoImporter : public QObject {
    Q_OBJECT

    static const TraceData& load(const std::string& path) {
        static std::map<std::string, TraceData> cache;
        auto it = cache.find(path);
        if (it == cache.end())
            it = cache.emplace(path, readKinetoTrace(path)).first;
        return it->second;
    }

private slots:
    // The rank a trace's first bytes state: distributedInfo's "rank", found by a text scan (-1: none).
    void rankHint_data() {
        QTest::addColumn<QString>("head");
        QTest::addColumn<int>("rank");
        QTest::newRow("pytorch")
            << R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8}, "traceEvents": [)"
            << 3;
        QTest::newRow("newlines") << "{\"distributedInfo\": {\n  \"rank\":\n 12\n}}" << 12;
        QTest::newRow("no distributedInfo") << R"({"traceEvents": [{"args": {"rank": 4}}]})" << -1;
        QTest::newRow("rank outside it") << R"({"distributedInfo": {"backend": "nccl"}, "rank": 4})" << -1;
        QTest::newRow("negative") << R"({"distributedInfo": {"rank": -1}})" << -1;
        QTest::newRow("cut before the value") << R"({"distributedInfo": {"rank": )" << -1;
        QTest::newRow("not a number") << R"({"distributedInfo": {"rank": "two"}})" << -1;
    }
    void rankHint() {
        QFETCH(QString, head);
        QFETCH(int, rank);
        const auto hint = KinetoImporter().rankHint(head.toStdString());
        QCOMPARE(hint.value_or(-1), rank);
    }

    void categories_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("worldSize");
        QTest::addColumn<Totals>("kernels");
        QTest::addColumn<Totals>("memcpys");
        QTest::addColumn<Totals>("memsets");
        QTest::addColumn<Totals>("api");
        QTest::addColumn<Totals>("cpu");
        QTest::addColumn<Totals>("gpuAnnotations");
        QTest::addColumn<qint64>("flows");

        auto row = [](const char* tag, const std::string& f, int rank, int world, Totals k, Totals mc,
                      Totals ms, Totals api, Totals cpu, Totals ga, qint64 flows) {
            QTest::newRow(tag) << QString::fromStdString(f) << rank << world << k << mc << ms << api << cpu
                               << ga << flows;
        };
        row("demo_base", demoPath("demo_base.json.gz"), 0, 1,
            {4165, 166968389, 1795996669928844171, 1795996670104810212},
            {58, 1501762, 1795996669930225195, 1795996670101820738},
            {470, 478077, 1795996669929449163, 1795996670102016451},
            {4645, 39758287, 1795996669929256284, 1795996670104833322},
            {20043, 701128492, 1795996669928816247, 1795996670094746946},
            {6, 60106932, 1795996669944094868, 1795996670104810213}, 4257);
        row("demo_ckpt", demoPath("demo_ckpt.json.gz"), 0, 1,
            {4771, 187454816, 1795996681778245935, 1795996682085115621},
            {54, 1326530, 1795996681779424560, 1795996682080779745},
            {546, 448906, 1795996681781306130, 1795996682081153537},
            {5974, 49579342, 1795996681778604912, 1795996682085123247},
            {25122, 1421313833, 1795996681778198876, 1795996682083255592},
            {6, 99031727, 1795996681779359823, 1795996682085115622}, 5364);
        row("demo_compile", demoPath("demo_compile.json.gz"), 0, 1,
            {1695, 134516799, 1795996713276667052, 1795996713414763462}, {},
            {384, 381322, 1795996713276664237, 1795996713411761987},
            {2083, 59787075, 1795996713277958882, 1795996713414792235},
            {3138, 487183657, 1795996713276766237, 1795996713369624568},
            {6, 44094972, 1795996713293030718, 1795996713414763463}, 1860);
        row("demo_compile_ckpt", demoPath("demo_compile_ckpt.json.gz"), 0, 1,
            {2165, 167259206, 1795996740722144611, 1795996740894156061}, {},
            {536, 534588, 1795996740722181443, 1795996740891150298},
            {2632, 88711947, 1795996740722484800, 1795996740894187367},
            {3579, 637443033, 1795996740721541547, 1795996740829926135},
            {6, 43642468, 1795996740745204991, 1795996740894156062}, 2337);
        row("hta_amd_rocm", dataPath("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"), 0, 1,
            {14, 110881, 1739836029603771648, 1739836029612366093},
            {2, 38161, 1739836029603454206, 1739836029604110730}, {},
            {21, 6804576, 1739836029603438301, 1739836029612770525},
            {73, 34520919, 1739836029603187439, 1739836029612561813},
            {2, 1039851, 1739836029603454205, 1739836029612366094}, 16);
        row("hta_cpu_only", dataPath("hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"), 34, 300,
            {}, {}, {}, {}, {15, 2345569044, 1721065959529876817, 1721065960812903897}, {}, 0);
        row("hta_nccl", dataPath("hta/nccl_parser_config/nccl_data.json.gz"), 0, 2,
            {2700, 162532340, 1716423322422880181, 1716423323083431186},
            {960, 2262781, 1716423322441665209, 1716423323068596793},
            {114, 390717, 1716423322528163728, 1716423323051837274},
            {8740, 44633816, 1716423322417669918, 1716423323101161005},
            {14388, 3107567620, 1716423322416788066, 1716423323084014024},
            {30, 369790213, 1716423322422879181, 1716423323083431686}, 3774);
        // Integer-microsecond timestamps since the Unix epoch, no baseTimeNanoseconds.
        row("hta_sampled_rank0", dataPath("hta/trace_filter/sampled_rank-0.json.gz"), 0, 128,
            {1154, 606519000, 1682725898082228000, 1682725899305046000},
            {40, 1297000, 1682725898083829000, 1682725899305075000},
            {10, 28000, 1682725898275454000, 1682725899305050000},
            {1204, 11050000, 1682725898082212000, 1682725899305090000},
            {2402, 3930789000, 1682725898079292000, 1682725899309581000}, {}, 0);
        row("hta_sampled_rank1", dataPath("hta/trace_filter/sampled_rank-1.json.gz"), 1, 128,
            {1104, 651026000, 1682725898082381000, 1682725899313563000},
            {40, 16473000, 1682725898085308000, 1682725899187174000},
            {10, 31000, 1682725898237848000, 1682725899313567000},
            {1154, 9602000, 1682725898082364000, 1682725899312482000},
            {2367, 3977436000, 1682725898079484000, 1682725899318077000}, {}, 0);
        row("hta_triton", dataPath("hta/triton_example/triton_example.json.gz"), 0, 1,
            {1, 1760, 1730156791097444592, 1730156791097446352}, {}, {},
            {2, 64614, 1730156791097399166, 1730156791097620944},
            {4, 13337800172, 1730156791096090100, 1730156804432405905}, {}, 1);
    }

    void categories() {
        QFETCH(QString, file);
        QFETCH(int, rank);
        QFETCH(int, worldSize);
        QFETCH(Totals, kernels);
        QFETCH(Totals, memcpys);
        QFETCH(Totals, memsets);
        QFETCH(Totals, api);
        QFETCH(Totals, cpu);
        QFETCH(Totals, gpuAnnotations);
        QFETCH(qint64, flows);
        const TraceData& t = load(file.toStdString());

        auto check = [](const Totals& got, const Totals& want, const char* what) {
            QVERIFY2(got.count == want.count, what);
            QVERIFY2(got.sumDur == want.sumDur, what);
            if (want.count > 0) {
                QVERIFY2(got.minStart == want.minStart, what);
                QVERIFY2(got.maxEnd == want.maxEnd, what);
            }
        };
        check(totals(t.kernels), kernels, "kernels");
        check(totals(t.memcpys), memcpys, "memcpys");
        check(totals(t.memsets), memsets, "memsets");
        check(totals(t.apiCalls), api, "api calls");
        check(totals(t.cpuRanges), cpu, "cpu ranges");
        check(totals(t.gpuAnnotations), gpuAnnotations, "gpu annotations");
        QCOMPARE(static_cast<qint64>(t.flows.size()), flows);
        QCOMPARE(t.info.skipped.count, std::int64_t{0});

        QCOMPARE(t.ranks.size(), std::size_t{1});
        QCOMPARE(t.ranks[0].rank, rank);
        QCOMPARE(t.info.worldSize, worldSize);
        QCOMPARE(t.info.sourceFormat, std::string("kineto"));
        QCOMPARE(t.info.sourceFiles, std::vector<std::string>{file.toStdString()});
        auto sameRank = [&](const auto& v) {
            return std::all_of(v.begin(), v.end(), [&](const auto& e) { return e.rank == rank; });
        };
        QVERIFY(sameRank(t.kernels) && sameRank(t.cpuRanges) && sameRank(t.apiCalls) && sameRank(t.flows));
        for (const auto& e : t.cpuRanges)
            QVERIFY(e.end >= e.start);
    }

    // ProfilerStep#N user annotations (CPU side): exact ns bounds, in file order.
    void steps_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QList<qint64>>("bounds"); // start, end per step
        QTest::newRow("demo_base") << QString::fromStdString(demoPath("demo_base.json.gz"))
                                   << QStringList{"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3"}
                                   << QList<qint64>{1795996669928816247, 1795996669986995286,
                                                    1795996669987052752, 1795996670047168107,
                                                    1795996670047197868, 1795996670094746946};
        QTest::newRow("demo_compile")
            << QString::fromStdString(demoPath("demo_compile.json.gz"))
            << QStringList{"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3"}
            << QList<qint64>{1795996713276766237, 1795996713307538440, 1795996713307588652,
                             1795996713339436302, 1795996713339487216, 1795996713369624568};
        QTest::newRow("hta_nccl") << QString::fromStdString(
                                         dataPath("hta/nccl_parser_config/nccl_data.json.gz"))
                                  << QStringList{"ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6"}
                                  << QList<qint64>{1716423322416788066, 1716423322639230257,
                                                   1716423322639291351, 1716423322859018256,
                                                   1716423322859077781, 1716423323084014024};
        QTest::newRow("hta_amd_rocm")
            << QString::fromStdString(dataPath("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"))
            << QStringList{"ProfilerStep#1", "ProfilerStep#2"}
            << QList<qint64>{1739836029603187439, 1739836029612475730, 1739836029612512740,
                             1739836029612561813};
        QTest::newRow("hta_sampled_rank1")
            << QString::fromStdString(dataPath("hta/trace_filter/sampled_rank-1.json.gz"))
            << QStringList{"ProfilerStep#551", "ProfilerStep#552"}
            << QList<qint64>{1682725898079484000, 1682725898687388000, 1682725898687438000,
                             1682725899318077000};
    }

    void steps() {
        QFETCH(QString, file);
        QFETCH(QStringList, names);
        QFETCH(QList<qint64>, bounds);
        const TraceData& t = load(file.toStdString());
        QStringList gotNames;
        QList<qint64> gotBounds;
        for (const auto& r : t.cpuRanges) {
            const auto& n = t.strings.at(r.name);
            if (n.rfind("ProfilerStep#", 0) == 0) {
                QCOMPARE(r.kind, CpuRangeKind::UserAnnotation);
                gotNames << QString::fromStdString(n);
                gotBounds << r.start << r.end;
            }
        }
        QCOMPARE(gotNames, names);
        QCOMPARE(gotBounds, bounds);
    }

    // The first kernel of each file, field by field (args straight from the JSON).
    void firstKernel_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("dur");
        QTest::addColumn<qint64>("correlation");
        QTest::addColumn<qint64>("stream");
        QTest::addColumn<int>("device");
        QTest::addColumn<QList<int>>("gridBlock");
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("sharedMemory");
        QTest::newRow("demo_base") << QString::fromStdString(demoPath("demo_base.json.gz"))
                                   << qint64(1795996669941560083) << qint64(1760) << qint64(20650)
                                   << qint64(7) << 0 << QList<int>{75, 1, 1, 512, 1, 1} << 27 << 0;
        QTest::newRow("demo_compile") << QString::fromStdString(demoPath("demo_compile.json.gz"))
                                      << qint64(1795996713276667052) << qint64(130017) << qint64(784841)
                                      << qint64(7) << 0 << QList<int>{2, 66, 1, 384, 1, 1} << 168 << 213188;
        QTest::newRow("hta_amd_rocm")
            << QString::fromStdString(dataPath("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"))
            << qint64(1739836029603771648) << qint64(6880) << qint64(118) << qint64(0) << 2
            << QList<int>{0, 0, 0, 0, 0, 0} << 0 << 0;
        QTest::newRow("hta_sampled_rank0")
            << QString::fromStdString(dataPath("hta/trace_filter/sampled_rank-0.json.gz"))
            << qint64(1682725898082228000) << qint64(10000) << qint64(6935929) << qint64(23) << 0
            << QList<int>{2400, 1, 1, 256, 1, 1} << 27 << 0;
    }

    void firstKernel() {
        QFETCH(QString, file);
        QFETCH(qint64, start);
        QFETCH(qint64, dur);
        QFETCH(qint64, correlation);
        QFETCH(qint64, stream);
        QFETCH(int, device);
        QFETCH(QList<int>, gridBlock);
        QFETCH(int, registers);
        QFETCH(int, sharedMemory);
        const TraceData& t = load(file.toStdString());
        QVERIFY(!t.kernels.empty());
        const KernelEvent& k = t.kernels.front(); // the importer keeps file order
        QCOMPARE(k.start, start);
        QCOMPARE(k.end - k.start, dur);
        QCOMPARE(k.correlation, correlation);
        QCOMPARE(k.stream, stream);
        QCOMPARE(k.device, device);
        QCOMPARE((QList<int>{k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1], k.block[2]}),
                 gridBlock);
        QCOMPARE(k.registers, registers);
        QCOMPARE(k.staticSmem, sharedMemory);
        QCOMPARE(k.dynamicSmem, 0);
    }

    // Fractional microseconds with up to 3 decimals at ~5e12 us convert exactly: this cpu_op's ts is
    // written "5139643954087.71" (2 decimals) and the base is 1790857026000000000.
    void exactFractionalTimestamps() {
        const TraceData& t = load(demoPath("demo_base.json.gz"));
        const auto it = std::find_if(t.cpuRanges.begin(), t.cpuRanges.end(), [&](const CpuRange& r) {
            return t.strings.at(r.name) == "autograd::engine::evaluate_function: NllLossBackward0";
        });
        QVERIFY(it != t.cpuRanges.end());
        QCOMPARE(it->start, Ns{1795996669954087710});
        QCOMPARE(it->end - it->start, Ns{140045}); // "dur": 140.045
        QCOMPARE(it->pid, std::int64_t{419});
        QCOMPARE(it->tid, std::int64_t{466});
        QCOMPARE(it->correlation, std::int64_t{2049}); // args "External id"
        QCOMPARE(it->kind, CpuRangeKind::CpuOp);
    }

    void memcpyDetails() {
        {
            const TraceData& t = load(demoPath("demo_ckpt.json.gz"));
            const MemcpyEvent& m = t.memcpys.front(); // "Memcpy DtoH (Device -> Pinned)", 1 byte
            QCOMPARE(t.strings.at(m.name), std::string("Memcpy DtoH (Device -> Pinned)"));
            QCOMPARE(m.start, Ns{1795996681779424560});
            QCOMPARE(m.kind, MemcpyKind::DtoH);
            QCOMPARE(m.srcKind, MemoryKind::Device);
            QCOMPARE(m.dstKind, MemoryKind::Pinned);
            QCOMPARE(m.bytes, std::int64_t{1});
            QCOMPARE(m.correlation, std::int64_t{373875});
        }
        {
            const TraceData& t = load(demoPath("demo_base.json.gz"));
            const MemcpyEvent& m = t.memcpys.front(); // "Memcpy DtoD (Device -> Device)", 50331648 bytes
            QCOMPARE(m.kind, MemcpyKind::DtoD);
            QCOMPARE(m.bytes, std::int64_t{50331648});
            const MemsetEvent& s = t.memsets.front();
            QCOMPARE(s.memKind, MemoryKind::Device); // "Memset (Device)"
            QCOMPARE(s.bytes, std::int64_t{4});
        }
        {
            // ROCm: no "bytes" on the GPU record; hipMemcpyWithStream (same correlation 117) has "size":
            // "2560".
            const TraceData& t = load(dataPath("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
            QCOMPARE(t.memcpys.size(), std::size_t{2});
            for (const auto& m : t.memcpys) {
                QCOMPARE(m.kind, MemcpyKind::HtoD);
                QCOMPARE(m.bytes, std::int64_t{2560});
                QCOMPARE(m.device, 2);
                QCOMPARE(m.srcKind, MemoryKind::Unknown); // "Host" does not say pageable or pinned
                QCOMPARE(m.dstKind, MemoryKind::Device);
            }
        }
    }

    void flowsJoinLaunchAndGpu() {
        // triton: cuLaunchKernel (correlation 35, ts 2413669097399.166) -> triton_poi_fused_add_cos_sin_0
        // (ts 2413669097444.592, stream 7); base 1727743122000000000.
        const TraceData& t = load(dataPath("hta/triton_example/triton_example.json.gz"));
        QCOMPARE(t.flows.size(), std::size_t{1});
        const Flow& f = t.flows.front();
        QCOMPARE(f.correlation, std::int64_t{35});
        QCOMPARE(f.cpuTs, Ns{1730156791097399166});
        QCOMPARE(f.gpuTs, Ns{1730156791097444592});
        QCOMPARE(f.stream, std::int64_t{7});
        QCOMPARE(f.tid, std::int64_t{1670242});
        QCOMPARE(t.apiCalls.front().kind, ApiKind::Driver);

        // ROCm writes its "f" events on the CPU thread; the GPU side comes from the kernel with the same
        // correlation (118 -> the first kernel, device 2 stream 0).
        const TraceData& amd = load(dataPath("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
        const auto it = std::find_if(amd.flows.begin(), amd.flows.end(),
                                     [](const Flow& x) { return x.correlation == 118; });
        QVERIFY(it != amd.flows.end());
        QCOMPARE(it->gpuTs, Ns{1739836029603771648});
        QCOMPARE(it->stream, std::int64_t{0});
        QCOMPARE(it->cpuTs, Ns{1739836029603752847}); // hipLaunchKernel ts 4203669603752.847 + base
    }

    void metadata() {
        const TraceData& demo = load(demoPath("demo_base.json.gz"));
        QCOMPARE(demo.info.gpuModels, std::vector<std::string>{"NVIDIA H200"});
        QCOMPARE(demo.ranks[0].gpuNames, std::vector<std::string>{"NVIDIA H200"});
        QCOMPARE(demo.info.driverVersion, std::string("13.0")); // cuda_driver_version 13000
        QCOMPARE(demo.info.cudaVersion, std::string("13.0"));   // cuda_runtime_version 13000
        QCOMPARE(demo.info.cuptiVersion, std::string("130001"));
        QCOMPARE(demo.ranks[0].pid, std::int64_t{419});

        const TraceData& triton = load(dataPath("hta/triton_example/triton_example.json.gz"));
        QCOMPARE(triton.info.driverVersion, std::string("12.0"));
        QCOMPARE(triton.info.cuptiVersion, std::string("18"));
        QCOMPARE(triton.info.gpuModels, std::vector<std::string>{"NVIDIA A100-PG509-200"});

        // ROCm: events on device 2, deviceProperties lists ids 0..3 all "AMD Radeon Graphics".
        const TraceData& amd = load(dataPath("hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
        QCOMPARE(amd.info.gpuModels, std::vector<std::string>{"AMD Radeon Graphics"});
        QCOMPARE(amd.kernels.front().device, 2);

        const TraceData& cpuOnly =
            load(dataPath("hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
        QVERIFY(cpuOnly.info.gpuModels.empty());
        QVERIFY(cpuOnly.ranks[0].gpuNames.empty());
    }

    // A trace of another accelerator (HTA's MTIA inference trace: cpu_op and user_annotation ranges, but its
    // device work as mtia_ccp_events and mtia_runtime, 1313 and 823 complete events by a python count over
    // the JSON) has no CUDA activity: the import says what it found and skipped instead of a silent "no GPU
    // activity" (issue 29). A CPU-only trace (only Kineto's own "Trace" span besides CPU ranges) and a
    // CUDA trace get no such warning.
    void otherAcceleratorIsReported() {
        const TraceData mtia =
            readKinetoTrace(dataPath("hta/mtia_inference_trace/mtia_inference_rank_0.json.gz"));
        QVERIFY(mtia.kernels.empty() && mtia.memcpys.empty() && mtia.memsets.empty());
        QCOMPARE(mtia.info.importWarnings.size(), std::size_t{1});
        const QString w = QString::fromStdString(mtia.info.importWarnings.front());
        QVERIFY2(w.contains("no CUDA/ROCm GPU activity"), qPrintable(w));
        QVERIFY2(w.contains("found and skipped 2136 complete events of other categories "
                            "(mtia_ccp_events 1313, mtia_runtime 823)"),
                 qPrintable(w));
        QVERIFY2(w.startsWith(dataPath("hta/mtia_inference_trace/mtia_inference_rank_0.json.gz").c_str()),
                 qPrintable(w));
        const TraceData cpuOnly =
            readKinetoTrace(dataPath("hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
        QVERIFY(cpuOnly.info.importWarnings.empty());
        QVERIFY(readKinetoTrace(dataPath("hta/triton_example/triton_example.json.gz"))
                    .info.importWarnings.empty());
    }

    // Two rank files merge into one two-rank run (what IngestPipeline does for a folder).
    void twoRanksMerge() {
        TraceData run = readKinetoTrace(dataPath("hta/trace_filter/sampled_rank-0.json.gz"));
        run.merge(readKinetoTrace(dataPath("hta/trace_filter/sampled_rank-1.json.gz")));
        QCOMPARE(run.ranks.size(), std::size_t{2});
        QCOMPARE(run.ranks[0].rank, 0);
        QCOMPARE(run.ranks[1].rank, 1);
        QCOMPARE(run.kernels.size(), std::size_t{1154 + 1104});
        QCOMPARE(std::count_if(run.kernels.begin(), run.kernels.end(),
                               [](const KernelEvent& k) { return k.rank == 1; }),
                 1104L);
        QCOMPARE(run.info.worldSize, 128);
    }

    // Every category spelling maps to the right event kind (synthetic one-event traces).
    void categoryMapping_data() {
        QTest::addColumn<QString>("cat");
        QTest::addColumn<QString>("kind"); // which vector receives the event, and its sub-kind
        QTest::newRow("kernel") << "kernel"
                                << "kernel";
        QTest::newRow("Kernel (old)") << "Kernel"
                                      << "kernel";
        QTest::newRow("gpu_memcpy") << "gpu_memcpy"
                                    << "memcpy";
        QTest::newRow("Memcpy (old)") << "Memcpy"
                                      << "memcpy";
        QTest::newRow("gpu_memset") << "gpu_memset"
                                    << "memset";
        QTest::newRow("Memset (old)") << "Memset"
                                      << "memset";
        QTest::newRow("cuda_runtime") << "cuda_runtime"
                                      << "runtime";
        QTest::newRow("Runtime (old)") << "Runtime"
                                       << "runtime";
        QTest::newRow("cuda_driver") << "cuda_driver"
                                     << "driver";
        QTest::newRow("cpu_op") << "cpu_op"
                                << "cpu_op";
        QTest::newRow("Operator (old)") << "Operator"
                                        << "cpu_op";
        QTest::newRow("user_annotation") << "user_annotation"
                                         << "user_annotation";
        QTest::newRow("python_function") << "python_function"
                                         << "python_function";
        QTest::newRow("gpu_user_annotation") << "gpu_user_annotation"
                                             << "gpu_annotation";
    }

    void categoryMapping() {
        QFETCH(QString, cat);
        QFETCH(QString, kind);
        QTemporaryDir dir;
        const QString path = dir.filePath("one.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"" + cat.toUtf8() +
                "\", \"name\": \"e\", \"pid\": 3, \"tid\": 9, \"ts\": 10.5, \"dur\": 1.25, "
                "\"args\": {\"correlation\": 5, \"External id\": 6}}]}");
        f.close();
        const TraceData t = readKinetoTrace(path.toStdString());
        QCOMPARE(t.eventCount(), std::size_t{1});
        Ns start = -1, end = -1;
        if (kind == "kernel") {
            QCOMPARE(t.kernels.size(), std::size_t{1});
            start = t.kernels[0].start, end = t.kernels[0].end;
            QCOMPARE(t.kernels[0].device, 3); // no args.device: Kineto's pid is the device
            QCOMPARE(t.kernels[0].stream, std::int64_t{9});
            QCOMPARE(t.kernels[0].correlation, std::int64_t{5});
        } else if (kind == "memcpy") {
            QCOMPARE(t.memcpys.size(), std::size_t{1});
            start = t.memcpys[0].start, end = t.memcpys[0].end;
        } else if (kind == "memset") {
            QCOMPARE(t.memsets.size(), std::size_t{1});
            start = t.memsets[0].start, end = t.memsets[0].end;
        } else if (kind == "runtime" || kind == "driver") {
            QCOMPARE(t.apiCalls.size(), std::size_t{1});
            QCOMPARE(t.apiCalls[0].kind, kind == "driver" ? ApiKind::Driver : ApiKind::Runtime);
            QCOMPARE(t.apiCalls[0].correlation, std::int64_t{5});
            QCOMPARE(t.apiCalls[0].pid, std::int64_t{3});
            QCOMPARE(t.apiCalls[0].tid, std::int64_t{9});
            start = t.apiCalls[0].start, end = t.apiCalls[0].end;
        } else if (kind == "gpu_annotation") {
            QCOMPARE(t.gpuAnnotations.size(), std::size_t{1});
            start = t.gpuAnnotations[0].start, end = t.gpuAnnotations[0].end;
        } else {
            QCOMPARE(t.cpuRanges.size(), std::size_t{1});
            QCOMPARE(QString(toString(t.cpuRanges[0].kind)), kind);
            QCOMPARE(t.cpuRanges[0].correlation, std::int64_t{6}); // "External id"
            start = t.cpuRanges[0].start, end = t.cpuRanges[0].end;
        }
        QCOMPARE(start, Ns{10500});
        QCOMPARE(end, Ns{11750});
    }

    void canRead_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<bool>("claimed");
        QTest::newRow("json name") << "x.json" << QByteArray("garbage") << true;
        QTest::newRow("json.gz name") << "x.json.gz" << QByteArray("") << true;
        QTest::newRow("object") << "x.trace" << QByteArray("  \n{\"traceEvents\": []}") << true;
        QTest::newRow("bom object") << "x.trace" << QByteArray("\xEF\xBB\xBF{}") << true;
        QTest::newRow("array") << "x.trace" << QByteArray("[1]") << true;
        QTest::newRow("sqlite") << "x.sqlite" << QByteArray("SQLite format 3\0", 16) << false;
        QTest::newRow("binary") << "x.cnpt" << QByteArray("CNPT\x01\x02", 6) << false;
    }

    void canRead() {
        QFETCH(QString, path);
        QFETCH(QByteArray, head);
        QFETCH(bool, claimed);
        KinetoImporter imp;
        QCOMPARE(imp.canRead(path.toStdString(),
                             std::string_view(head.constData(), static_cast<std::size_t>(head.size()))),
                 claimed);
        QCOMPARE(imp.formatName(), std::string("kineto"));
    }
};

QTEST_GUILESS_MAIN(TestKinetoImporter)
#include "tst_kinetoimporter.moc"
