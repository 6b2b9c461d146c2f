// categoriseKernels (metrics/Categoriser): name rules per kernel name; range rules (docs/metrics.md,
// "Categories") give a kernel the range's category when its launch call starts inside a CPU range of a
// matching name on the launching thread (same rank, pid, tid), first range rule first, communication
// excepted; everything else keeps its name's category.
#include "metrics/Categoriser.h"

#include <QtTest>

using namespace cnp;

namespace {

struct Launch {
    Ns at;            // launch call start (its end is 10 ns later)
    std::int64_t tid; // launching thread
    std::int32_t rank;
};

// One gemm kernel per launch, correlation = index + 1; CPU ranges (name, start, end, tid, rank).
TraceData traceWith(const std::vector<Launch>& launches,
                    const std::vector<std::tuple<std::string, Ns, Ns, std::int64_t, std::int32_t>>& ranges) {
    TraceData t;
    t.ranks.push_back(RankInfo{});
    t.ranks.push_back(RankInfo{});
    t.ranks[1].rank = 1;
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const auto& l = launches[i];
        ApiCall a;
        a.start = l.at;
        a.end = l.at + 10;
        a.tid = l.tid;
        a.rank = l.rank;
        a.correlation = static_cast<std::int64_t>(i) + 1;
        a.name = t.strings.intern("cudaLaunchKernel");
        t.apiCalls.push_back(a);
        KernelEvent k;
        k.start = 10'000 + 100 * static_cast<Ns>(i);
        k.end = k.start + 50;
        k.rank = l.rank;
        k.correlation = a.correlation;
        k.name = t.strings.intern("sm90_xmma_gemm_bf16");
        t.kernels.push_back(k);
    }
    for (const auto& [name, start, end, tid, rank] : ranges) {
        CpuRange r;
        r.start = start;
        r.end = end;
        r.tid = tid;
        r.rank = rank;
        r.kind = CpuRangeKind::UserAnnotation;
        r.name = t.strings.intern(name);
        t.cpuRanges.push_back(r);
    }
    return t;
}

QStringList categories(const TraceData& t) {
    QStringList out;
    for (const auto& k : t.kernels)
        out << QString::fromStdString(t.strings.at(k.category));
    return out;
}

} // namespace

class TestCategoriser : public QObject {
    Q_OBJECT

private slots:
    // Thread 1 has "recompute" over [100, 200) and a nested "aten::mm" over [120, 130).
    void recomputeRanges_data() {
        QTest::addColumn<qint64>("at");
        QTest::addColumn<qint64>("tid");
        QTest::addColumn<int>("rank");
        QTest::addColumn<QString>("category");
        QTest::newRow("inside") << qint64(150) << qint64(1) << 0 << "recompute";
        QTest::newRow("at its start") << qint64(100) << qint64(1) << 0 << "recompute";
        QTest::newRow("at its end (half-open)") << qint64(200) << qint64(1) << 0 << "gemm";
        QTest::newRow("inside a nested range") << qint64(125) << qint64(1) << 0 << "recompute";
        QTest::newRow("before") << qint64(50) << qint64(1) << 0 << "gemm";
        QTest::newRow("another thread") << qint64(150) << qint64(2) << 0 << "gemm";
        QTest::newRow("another rank") << qint64(150) << qint64(1) << 1 << "gemm";
    }
    void recomputeRanges() {
        QFETCH(qint64, at);
        QFETCH(qint64, tid);
        QFETCH(int, rank);
        QFETCH(QString, category);
        auto t = traceWith({{at, tid, rank}}, {{"recompute", 100, 200, 1, 0}, {"aten::mm", 120, 130, 1, 0}});
        categoriseKernels(t, CategoryRules());
        QCOMPARE(categories(t), QStringList{category});
    }

    // Names the default rule matches, case-insensitive and anywhere; and one it must not.
    void rangeNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("category");
        QTest::newRow("synth's range") << "recompute"
                                       << "recompute";
        QTest::newRow("capitalised, inside a longer name") << "Layer 3: Recompute forward"
                                                           << "recompute";
        QTest::newRow("recomputation") << "activation recomputation"
                                       << "recompute";
        // Encloses the checkpointed segment's backward too: not all of it is recomputed forward work.
        QTest::newRow("torch's checkpoint backward") << "CheckpointFunctionBackward"
                                                     << "gemm";
    }
    void rangeNames() {
        QFETCH(QString, name);
        QFETCH(QString, category);
        auto t = traceWith({{150, 1, 0}}, {{name.toStdString(), 100, 200, 1, 0}});
        categoriseKernels(t, CategoryRules());
        QCOMPARE(categories(t), QStringList{category});
    }

    // A collective launched inside a recompute range (a ZeRO-3 all-gather) stays communication.
    void communicationStays() {
        auto t = traceWith({{150, 1, 0}, {160, 1, 0}}, {{"recompute", 100, 200, 1, 0}});
        t.kernels[1].name = t.strings.intern("ncclDevKernel_AllGather_RING_LL");
        categoriseKernels(t, CategoryRules());
        QCOMPARE(categories(t), (QStringList{"recompute", "communication"}));
    }

    // Two range rules, first match wins; kernels sharing a name split by where they were launched.
    void customRangeRules() {
        const auto rules = CategoryRules::fromJson(
            R"({"rules": [{"category": "gemm", "pattern": "gemm"}],
                "range_rules": [{"category": "warmup", "pattern": "^warm"}, {"category": "redo", "pattern": "warm|redo"}]})",
            "rules.json");
        auto t = traceWith({{10, 1, 0}, {60, 1, 0}, {110, 1, 0}},
                           {{"warmup", 0, 50, 1, 0}, {"redo x", 50, 100, 1, 0}});
        categoriseKernels(t, rules);
        QCOMPARE(categories(t), (QStringList{"warmup", "redo", "gemm"}));
        // Without range rules nothing changes.
        auto plain = traceWith({{10, 1, 0}}, {{"recompute", 0, 50, 1, 0}});
        categoriseKernels(plain, CategoryRules::fromJson(R"({"rules": []})", "none.json"));
        QCOMPARE(categories(plain), QStringList{"other"});
    }
};

QTEST_APPLESS_MAIN(TestCategoriser)
#include "tst_categoriser.moc"
