// The all-rank kernel statistics pooled from per-rank duration groups (metrics/KernelStatsPool): values
// worked out by hand for small groups; rows the same bit for bit whether every group, some or none is
// spilled to the file, and equal to the definition applied to the concatenated, sorted durations
// (computed here with plain loops); 1,500 spilled runs of one name; adds from several threads; errors.
#include "KernelRowBits.h"
#include "metrics/KernelStatsPool.h"

#include <QtTest>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <thread>

using namespace cnp;
using cnp::testing::sameBits;

namespace {

struct Group {
    std::int32_t rank = 0;
    std::string category;
    bool fromRangeRule = false;
    std::vector<Ns> durations; // ascending
    std::string name = "k";
};
using Groups = std::vector<Group>;

constexpr std::size_t kNoSpill = std::size_t{1} << 40;

// Keeps the kernel rows; a pool writes no other kind.
class KernelRows : public SummaryRowSink {
public:
    std::vector<SummaryKernelRow> rows;
    void add(const SummaryRankRow&) override { QFAIL("not a kernel row"); }
    void add(const SummaryStepRow&) override { QFAIL("not a kernel row"); }
    void add(const SummaryExclusiveRow&) override { QFAIL("not a kernel row"); }
    void add(const SummaryKernelRow& r) override { rows.push_back(r); }
    void add(const SummaryGapRow&) override { QFAIL("not a kernel row"); }
    void add(const SummarySyncRow&) override { QFAIL("not a kernel row"); }
};

std::vector<SummaryKernelRow> pooled(const Groups& groups, std::size_t budget,
                                     std::size_t* spilledRuns = nullptr) {
    KernelStatsPool pool(budget);
    for (const Group& g : groups)
        pool.add(g.rank, g.name, g.category, g.fromRangeRule, g.durations);
    if (spilledRuns)
        *spilledRuns = pool.spilledRuns();
    KernelRows out;
    pool.write(out);
    return out.rows;
}

// 30 names over 6 ranks, each group 0..300 durations (some empty), drawn from a narrow range (many equal
// values) or a wide one (10 ns .. 10 s), so the doubles' last bits depend on the summation order.
Groups randomGroups(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Groups out;
    for (int name = 0; name < 30; ++name)
        for (std::int32_t rank = 0; rank < 6; ++rank) {
            if (rng() % 5 == 0)
                continue; // the name does not run on this rank
            Group g;
            g.rank = rank;
            g.name = "kernel_" + std::to_string(name);
            g.fromRangeRule = rng() % 3 == 0;
            g.category = g.fromRangeRule ? (rng() % 2 ? "recompute" : "optimizer") : "gemm";
            const std::size_t n = rng() % 301;
            const bool narrow = name % 2 == 0;
            for (std::size_t i = 0; i < n; ++i)
                g.durations.push_back(narrow ? 100 + static_cast<Ns>(rng() % 8)
                                             : 10 + static_cast<Ns>(rng() % 10'000'000'000ULL));
            std::sort(g.durations.begin(), g.durations.end());
            out.push_back(std::move(g));
        }
    for (std::size_t i = out.size(); i > 1; --i) // shuffled (Fisher-Yates): arrival order is not rank order
        std::swap(out[i - 1], out[rng() % i]);
    return out;
}

// The definition (KernelStat.h) with plain loops over one sorted vector of all of a name's durations; the
// category: the lowest rank's among the groups not from a range rule, else the lowest rank's.
std::vector<SummaryKernelRow> byDefinition(const Groups& groups) {
    std::map<std::string, std::vector<Ns>> all;
    std::map<std::string, std::tuple<bool, std::int32_t, std::string>> category;
    for (const Group& g : groups) {
        auto& v = all[g.name];
        v.insert(v.end(), g.durations.begin(), g.durations.end());
        const auto mine = std::make_tuple(g.fromRangeRule, g.rank, g.category);
        auto [it, fresh] = category.try_emplace(g.name, mine);
        if (!fresh && mine < it->second)
            it->second = mine;
    }
    std::vector<SummaryKernelRow> out;
    for (auto& [name, v] : all) {
        std::sort(v.begin(), v.end());
        SummaryKernelRow r;
        r.rank = -1;
        r.name = name;
        r.category = std::get<2>(category[name]);
        r.count = static_cast<std::int64_t>(v.size());
        if (!v.empty()) {
            for (Ns x : v)
                r.totalNs += x;
            r.minNs = v.front();
            r.maxNs = v.back();
            r.meanNs = static_cast<double>(r.totalNs) / static_cast<double>(v.size());
            const std::size_t n = v.size();
            r.medianNs = n % 2 == 1
                             ? static_cast<double>(v[n / 2])
                             : (static_cast<double>(v[n / 2 - 1]) + static_cast<double>(v[n / 2])) / 2.0;
            double squares = 0;
            for (Ns x : v)
                squares += (static_cast<double>(x) - r.meanNs) * (static_cast<double>(x) - r.meanNs);
            if (n > 1)
                r.stddevNs = std::sqrt(squares / static_cast<double>(n - 1));
        }
        out.push_back(r);
    }
    return out;
}

std::size_t nonEmpty(const Groups& groups) {
    return static_cast<std::size_t>(
        std::count_if(groups.begin(), groups.end(), [](const Group& g) { return !g.durations.empty(); }));
}

} // namespace

Q_DECLARE_METATYPE(Groups)

class TestKernelStatsPool : public QObject {
    Q_OBJECT

private slots:
    // One name; by hand. Each case also with budget 0, where every group goes through the spill file.
    void handComputed_data() {
        QTest::addColumn<Groups>("groups");
        QTest::addColumn<qint64>("count");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<double>("mean");
        QTest::addColumn<double>("median");
        QTest::addColumn<qint64>("min");
        QTest::addColumn<qint64>("max");
        QTest::addColumn<double>("stddev");
        const auto g = [](std::int32_t rank, std::vector<Ns> d) { return Group{rank, "gemm", false, d}; };
        QTest::newRow("one value") << Groups{g(0, {7})} << 1LL << 7LL << 7.0 << 7.0 << 7LL << 7LL << 0.0;
        // 10 20 30: deviations -10 0 10 -> 200 / 2 = 100.
        QTest::newRow("odd count over two ranks")
            << Groups{g(0, {10, 30}), g(1, {20})} << 3LL << 60LL << 20.0 << 20.0 << 10LL << 30LL << 10.0;
        // 1 2 4 9: mean 4, median (2 + 4) / 2 = 3; deviations -3 -2 0 5 -> 38 / 3.
        QTest::newRow("even count over two ranks") << Groups{g(1, {2, 9}), g(0, {1, 4})} << 4LL << 16LL << 4.0
                                                   << 3.0 << 1LL << 9LL << std::sqrt(38.0 / 3.0);
        // 1..6: mean 3.5, median (3 + 4) / 2; deviations +-0.5, +-1.5, +-2.5 -> 17.5 / 5 = 3.5.
        QTest::newRow("interleaved runs") << Groups{g(0, {1, 3, 5}), g(1, {2, 4, 6})} << 6LL << 21LL << 3.5
                                          << 3.5 << 1LL << 6LL << std::sqrt(3.5);
        QTest::newRow("equal values") << Groups{g(0, {5, 5}), g(1, {5}), g(2, {5, 5})} << 5LL << 25LL << 5.0
                                      << 5.0 << 5LL << 5LL << 0.0;
        // 8 12: deviations -2 2 -> 8 / 1.
        QTest::newRow("an empty group") << Groups{g(0, {}), g(1, {8, 12})} << 2LL << 20LL << 10.0 << 10.0
                                        << 8LL << 12LL << std::sqrt(8.0);
        QTest::newRow("no durations at all")
            << Groups{g(0, {})} << 0LL << 0LL << 0.0 << 0.0 << 0LL << 0LL << 0.0;
    }
    void handComputed() {
        QFETCH(Groups, groups);
        for (std::size_t budget : {kNoSpill, std::size_t{0}}) {
            const auto rows = pooled(groups, budget);
            QCOMPARE(rows.size(), std::size_t{1});
            const SummaryKernelRow& r = rows.front();
            QCOMPARE(r.rank, -1);
            QCOMPARE(r.name, std::string("k"));
            QCOMPARE(r.category.value_or("<null>"), std::string("gemm"));
            QTEST(static_cast<qint64>(r.count), "count");
            QTEST(static_cast<qint64>(r.totalNs), "total");
            QTEST(r.meanNs, "mean");
            QTEST(r.medianNs, "median");
            QTEST(static_cast<qint64>(r.minNs), "min");
            QTEST(static_cast<qint64>(r.maxNs), "max");
            QFETCH(double, stddev);
            QVERIFY2(r.stddevNs == stddev, qPrintable(QString::number(r.stddevNs, 'g', 17)));
        }
    }

    // The groups in arrival order; the expected category by the one-pass rule over the groups in rank order
    // (the first group's, replaced by a later one's not from a range rule while the current one is).
    void categoryRule_data() {
        QTest::addColumn<Groups>("groups");
        QTest::addColumn<QString>("category");
        const auto g = [](std::int32_t rank, const char* category, bool range) {
            return Group{rank, category, range, {1}};
        };
        QTest::newRow("the lowest rank's") << Groups{g(1, "other", false), g(0, "gemm", false)} << "gemm";
        QTest::newRow("a range category replaced")
            << Groups{g(0, "recompute", true), g(1, "gemm", false)} << "gemm";
        QTest::newRow("a range category never replaces")
            << Groups{g(0, "gemm", false), g(1, "recompute", true)} << "gemm";
        QTest::newRow("only range categories: the lowest rank's")
            << Groups{g(1, "optimizer", true), g(0, "recompute", true)} << "recompute";
        // Rank order 0 (range), 1, 2: rank 1's replaces rank 0's; rank 2's does not replace rank 1's.
        QTest::newRow("the lowest rank's not from a range rule")
            << Groups{g(0, "optimizer", true), g(2, "gemm", false), g(1, "elementwise", false)}
            << "elementwise";
    }
    void categoryRule() {
        QFETCH(Groups, groups);
        QFETCH(QString, category);
        for (std::size_t budget : {kNoSpill, std::size_t{0}}) {
            const auto rows = pooled(groups, budget);
            QCOMPARE(rows.size(), std::size_t{1});
            QCOMPARE(rows.front().category.value_or("<null>"), category.toStdString());
        }
    }

    // Name order is std::string's: byte by byte, so upper case before lower case.
    void rowsInNameOrder() {
        Groups groups;
        for (const char* name : {"zeta", "alpha", "Alpha", "beta", "alpha"})
            groups.push_back(Group{0, "gemm", false, {4}, name});
        const auto rows = pooled(groups, kNoSpill);
        QCOMPARE(rows.size(), std::size_t{4});
        const std::vector<std::string> names{"Alpha", "alpha", "beta", "zeta"};
        const std::vector<std::int64_t> counts{1, 2, 1, 1};
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].name, names[i]);
            QCOMPARE(rows[i].count, counts[i]);
            QCOMPARE(rows[i].rank, -1);
        }
    }

    // The same random groups through every budget: each row equal to the definition's bit for bit.
    void spillingIsExact_data() {
        QTest::addColumn<qulonglong>("budget");
        QTest::addColumn<QString>("spills"); // every non-empty group, some, none
        QTest::newRow("budget 0: every group spilled") << qulonglong{0} << "all";
        QTest::newRow("4 KiB: some spilled") << qulonglong{4096} << "some";
        QTest::newRow("64 KiB: some spilled") << qulonglong{65536} << "some";
        QTest::newRow("1 TiB: none spilled") << qulonglong{kNoSpill} << "none";
    }
    void spillingIsExact() {
        QFETCH(qulonglong, budget);
        QFETCH(QString, spills);
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            const Groups groups = randomGroups(seed);
            std::size_t runs = 0;
            const auto rows = pooled(groups, budget, &runs);
            if (spills == "all")
                QCOMPARE(runs, nonEmpty(groups));
            else if (spills == "some")
                QVERIFY2(runs > 0 && runs < nonEmpty(groups), qPrintable(QString::number(runs)));
            else
                QCOMPARE(runs, std::size_t{0});
            const auto expected = byDefinition(groups);
            QCOMPARE(rows.size(), expected.size());
            for (std::size_t i = 0; i < rows.size(); ++i)
                QVERIFY2(sameBits(rows[i], expected[i]), rows[i].name.c_str());
        }
    }

    // 1,500 runs of one name in the file (budget 0: one per add), merged at once. Rank i holds {i, i + 1500}:
    // together 0..2999 once each. Mean = median = 1499.5; sum of squared deviations n (n^2 - 1) / 12 =
    // 2,249,999,750, / 2999 = 750,250 (every partial sum exact in a double).
    void manyRuns() {
        Groups groups;
        for (std::int32_t i = 0; i < 1500; ++i)
            groups.push_back(Group{i, "gemm", false, {i, i + 1500}});
        groups.push_back(Group{0, "gemm", false, {42}, "other_kernel"});
        std::size_t runs = 0;
        const auto rows = pooled(groups, 0, &runs);
        QCOMPARE(runs, std::size_t{1501});
        QCOMPARE(rows.size(), std::size_t{2});
        const SummaryKernelRow& k = rows[0];
        QCOMPARE(k.name, std::string("k"));
        QCOMPARE(k.count, std::int64_t{3000});
        QCOMPARE(k.totalNs, std::int64_t{4'498'500});
        QCOMPARE(k.meanNs, 1499.5);
        QCOMPARE(k.medianNs, 1499.5);
        QCOMPARE(k.minNs, std::int64_t{0});
        QCOMPARE(k.maxNs, std::int64_t{2999});
        QVERIFY(k.stddevNs == std::sqrt(750'250.0));
        QCOMPARE(rows[1].name, std::string("other_kernel"));
        QCOMPARE(rows[1].totalNs, std::int64_t{42});
    }

    // 420 names (more than write() has merge threads), some spilled: each row as the definition gives it,
    // bit for bit, in name order, whichever thread merged the name.
    void manyNamesMergedOnThreads() {
        Groups groups;
        for (std::uint64_t seed : {11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u, 19u, 20u, 21u, 22u, 23u, 24u}) {
            Groups more = randomGroups(seed);
            for (Group& g : more)
                g.name += "_" + std::to_string(seed);
            groups.insert(groups.end(), more.begin(), more.end());
        }
        const auto rows = pooled(groups, 65536);
        const auto expected = byDefinition(groups);
        QCOMPARE(rows.size(), std::size_t{420});
        QCOMPARE(rows.size(), expected.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].name, expected[i].name);
            QVERIFY2(sameBits(rows[i], expected[i]), rows[i].name.c_str());
        }
    }

    // Four threads adding a quarter of the groups each, spilling now and then: the same rows.
    void concurrentAdds() {
        const Groups groups = randomGroups(7);
        KernelStatsPool pool(8192);
        std::vector<std::thread> threads;
        for (std::size_t t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (std::size_t i = t; i < groups.size(); i += 4)
                    pool.add(groups[i].rank, groups[i].name, groups[i].category, groups[i].fromRangeRule,
                             groups[i].durations);
            });
        for (auto& t : threads)
            t.join();
        QVERIFY(pool.spilledRuns() > 0);
        KernelRows out;
        pool.write(out);
        const auto expected = byDefinition(groups);
        QCOMPARE(out.rows.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY2(sameBits(out.rows[i], expected[i]), expected[i].name.c_str());
    }

    // write() empties the pool, which can then be filled (and spill) again.
    void writeEmptiesThePool() {
        KernelStatsPool pool(0);
        pool.add(0, "a", "gemm", false, {1, 2});
        KernelRows first, second, third;
        pool.write(first);
        QCOMPARE(first.rows.size(), std::size_t{1});
        QCOMPARE(pool.spilledRuns(), std::size_t{0});
        pool.write(second);
        QCOMPARE(second.rows.size(), std::size_t{0});
        pool.add(3, "b", "gemm", false, {5});
        QCOMPARE(pool.spilledRuns(), std::size_t{1});
        pool.write(third);
        QCOMPARE(third.rows.size(), std::size_t{1});
        QCOMPARE(third.rows[0].name, std::string("b"));
        QCOMPARE(third.rows[0].totalNs, std::int64_t{5});
    }

    // A spill file that cannot be created: std::runtime_error with the folder and the cause; the group stays.
    void spillErrorNamesTheCause() {
        const std::string dir = "/nonexistent-cnp-spill-dir";
        KernelStatsPool pool(0, dir);
        try {
            pool.add(0, "a", "gemm", false, {3, 4});
            QFAIL("no exception");
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(dir) != std::string::npos, e.what());
            QVERIFY2(what.find(std::strerror(ENOENT)) != std::string::npos, e.what());
        }
        KernelRows out;
        pool.write(out);
        QCOMPARE(out.rows.size(), std::size_t{1});
        QCOMPARE(out.rows[0].count, std::int64_t{2});
        QCOMPARE(out.rows[0].totalNs, std::int64_t{7});
    }

    void unsortedDurationsRefused() {
        KernelStatsPool pool;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pool.add(0, "a", "gemm", false, {3, 1}));
    }
};

QTEST_GUILESS_MAIN(TestKernelStatsPool)
#include "tst_kernelstatspool.moc"
