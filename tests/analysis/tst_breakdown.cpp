// Temporal breakdown and exclusive time on hand-built activity sets; every expected value worked out by
// hand from the intervals in the row (see the comment on each row). Also checks that both partitions
// are exact: compute+communication+memory+idle == |W| and sum(exclusive)+idle == |W|.
#include "metrics/Breakdown.h"
#include "metrics/CategoryRules.h"

#include <QtTest>

using namespace cnp;

struct Act {
    Ns s, e;
    const char* cat;
};
using Acts = std::vector<Act>;
using Expect = std::map<QString, Ns>;
Q_DECLARE_METATYPE(Acts)
Q_DECLARE_METATYPE(Expect)
Q_DECLARE_METATYPE(cnp::Interval)

class TestBreakdown : public QObject {
    Q_OBJECT
    CategoryOrder order = CategoryOrder::fromComputePriority(CategoryRules().computePriority());

    std::vector<TimedActivity> build(const Acts& acts) {
        std::vector<TimedActivity> v;
        for (const auto& a : acts)
            v.push_back({a.s, a.e, order.indexOf(a.cat)});
        return v;
    }

private slots:
    void breakdown_data() {
        QTest::addColumn<Acts>("acts");
        QTest::addColumn<Interval>("window");
        QTest::addColumn<Expect>("expected"); // compute, communication, overlap, memory, idle, x:<category>
        // gemm covers the window; the nested elementwise kernel adds nothing.
        QTest::newRow("nesting") << Acts{{0, 100, "gemm"}, {20, 50, "elementwise/reduction"}}
                                 << Interval{0, 100} << Expect{{"compute", 100},
                                                               {"communication", 0},
                                                               {"overlap", 0},
                                                               {"memory", 0},
                                                               {"idle", 0},
                                                               {"x:gemm", 100},
                                                               {"x:elementwise/reduction", 0}};
        // [0,50) + [50,100) touch: 100 busy, 20 idle at the end.
        QTest::newRow("touching") << Acts{{0, 50, "gemm"}, {50, 100, "other"}} << Interval{0, 120}
                                  << Expect{{"compute", 100}, {"idle", 20}, {"x:gemm", 50}, {"x:other", 50}};
        // comm [60,160) overlaps gemm [0,100) on [60,100): overlap 40, exposed comm 60, idle [160,200) = 40.
        QTest::newRow("comm/compute overlap")
            << Acts{{0, 100, "gemm"}, {60, 160, "communication"}} << Interval{0, 200}
            << Expect{{"compute", 100}, {"communication", 60}, {"overlap", 40},        {"memory", 0},
                      {"idle", 40},     {"x:gemm", 100},       {"x:communication", 60}};
        // memcpy [20,40) hidden under gemm; memcpy [90,130) exposed on [100,130) = 30; idle [130,150) = 20.
        QTest::newRow("memcpy under compute")
            << Acts{{0, 100, "gemm"}, {20, 40, "memory"}, {90, 130, "memory"}} << Interval{0, 150}
            << Expect{{"compute", 100}, {"memory", 30}, {"idle", 20}, {"x:memory", 30}};
        // memcpy [50,150) under comm [0,100): exposed memory only [100,150).
        QTest::newRow("memcpy under comm")
            << Acts{{0, 100, "communication"}, {50, 150, "memory"}} << Interval{0, 150}
            << Expect{{"compute", 0}, {"communication", 100}, {"overlap", 0}, {"memory", 50}, {"idle", 0}};
        QTest::newRow("empty window")
            << Acts{{0, 100, "gemm"}} << Interval{500, 500} << Expect{{"compute", 0}, {"idle", 0}};
        QTest::newRow("window without activity")
            << Acts{{0, 100, "gemm"}} << Interval{1000, 2000} << Expect{{"compute", 0}, {"idle", 1000}};
        QTest::newRow("no activities at all") << Acts{} << Interval{0, 10} << Expect{{"idle", 10}};
        // Window [75,125) clips gemm to [75,100) and comm [50,150) to [75,125): overlap [75,100) = 25.
        QTest::newRow("clipped window")
            << Acts{{0, 100, "gemm"}, {50, 150, "communication"}} << Interval{75, 125}
            << Expect{{"compute", 25}, {"communication", 25}, {"overlap", 25}, {"idle", 0}};
        // Priority gemm > attention > optimizer: gemm [50,150)=100, attention [0,50)=50, optimizer
        // [150,200)=50.
        QTest::newRow("exclusive priority")
            << Acts{{0, 100, "attention"}, {50, 150, "gemm"}, {0, 200, "optimizer"}} << Interval{0, 200}
            << Expect{
                   {"compute", 200}, {"x:gemm", 100}, {"x:attention", 50}, {"x:optimizer", 50}, {"idle", 0}};
        QTest::newRow("identical intervals") << Acts{{0, 10, "gemm"}, {0, 10, "gemm"}} << Interval{0, 10}
                                             << Expect{{"compute", 10}, {"x:gemm", 10}, {"idle", 0}};
        // Zero-length kernels occupy no time.
        QTest::newRow("zero-length kernel")
            << Acts{{5, 5, "gemm"}} << Interval{0, 10} << Expect{{"compute", 0}, {"idle", 10}};
        // Compute categories beat communication, communication beats memory.
        QTest::newRow("all kinds stacked")
            << Acts{{0, 30, "other"}, {0, 60, "communication"}, {0, 90, "memory"}} << Interval{0, 100}
            << Expect{{"compute", 30}, {"communication", 30}, {"overlap", 30},         {"memory", 30},
                      {"idle", 10},    {"x:other", 30},       {"x:communication", 30}, {"x:memory", 30}};
    }
    void breakdown() {
        QFETCH(Acts, acts);
        QFETCH(Interval, window);
        QFETCH(Expect, expected);
        const auto b = computeBreakdown(build(acts), order, window);
        const std::map<QString, Ns> got{{"compute", b.compute},
                                        {"communication", b.communication},
                                        {"overlap", b.overlap},
                                        {"memory", b.memory},
                                        {"idle", b.idle}};
        for (const auto& [k, v] : expected) {
            if (k.startsWith("x:")) {
                const int i = order.indexOf(k.mid(2).toStdString());
                QCOMPARE(b.exclusive[static_cast<std::size_t>(i)], v);
            } else {
                QCOMPARE(got.at(k), v);
            }
        }
        // Exact partitions.
        QCOMPARE(b.compute + b.communication + b.memory + b.idle, window.length());
        Ns ex = b.idle, computeEx = 0;
        for (std::size_t i = 0; i < b.exclusive.size(); ++i) {
            ex += b.exclusive[i];
            if (order.isCompute(static_cast<int>(i)))
                computeEx += b.exclusive[i];
        }
        QCOMPARE(ex, window.length());
        QCOMPARE(computeEx, b.compute);
        QCOMPARE(b.exclusive[static_cast<std::size_t>(order.communication)], b.communication);
        QCOMPARE(b.exclusive[static_cast<std::size_t>(order.memory)], b.memory);
    }

    // Random activity soups: partitions stay exact and agree with a brute-force per-ns evaluation.
    void randomPartitionsAreExact() {
        std::uint64_t seed = 12345;
        auto rnd = [&](int n) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            return static_cast<Ns>((seed >> 33) % static_cast<std::uint64_t>(n));
        };
        const char* cats[] = {"gemm", "attention", "other", "communication", "memory"};
        for (int round = 0; round < 50; ++round) {
            Acts acts;
            for (int i = 0; i < 12; ++i) {
                const Ns s = rnd(400);
                acts.push_back({s, s + rnd(80), cats[rnd(5)]});
            }
            const Interval w{rnd(100), 300 + rnd(200)};
            const auto b = computeBreakdown(build(acts), order, w);
            Ns c = 0, m = 0, ov = 0, y = 0, idle = 0;
            for (Ns t = w.start; t < w.end; ++t) {
                bool isC = false, isM = false, isY = false;
                for (const auto& a : acts)
                    if (a.s <= t && t < a.e) {
                        const std::string cat = a.cat;
                        isM |= cat == "communication";
                        isY |= cat == "memory";
                        isC |= cat != "communication" && cat != "memory";
                    }
                c += isC;
                m += isM && !isC;
                ov += isM && isC;
                y += isY && !isC && !isM;
                idle += !isC && !isM && !isY;
            }
            QCOMPARE(b.compute, c);
            QCOMPARE(b.communication, m);
            QCOMPARE(b.overlap, ov);
            QCOMPARE(b.memory, y);
            QCOMPARE(b.idle, idle);
        }
    }

    void idleGaps() {
        const RankTimeline tl(
            build({{0, 10, "gemm"}, {20, 30, "memory"}, {25, 40, "communication"}, {70, 80, "gemm"}}), order);
        QCOMPARE(tl.span().start, Ns{0});
        QCOMPARE(tl.span().end, Ns{80});
        const auto gaps = tl.idleGaps({0, 100});
        QCOMPARE(gaps.size(), std::size_t{3});
        QCOMPARE(gaps[0].start, Ns{10});
        QCOMPARE(gaps[0].end, Ns{20});
        QCOMPARE(gaps[1].start, Ns{40});
        QCOMPARE(gaps[1].end, Ns{70});
        QCOMPARE(gaps[2].start, Ns{80});
        QCOMPARE(gaps[2].end, Ns{100});
    }
};

QTEST_APPLESS_MAIN(TestBreakdown)
#include "tst_breakdown.moc"
