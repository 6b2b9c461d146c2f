// The kernel duration digest of a shard written alone (ingest/KernelDigest.h): a run's groups split by rank
// blocks into shards, each shard's pool written through a KernelDigestWriter, the digests added to one pool:
// its all-rank rows are bit for bit those of one pool over every group (and so those of one ingest of the
// whole run), for several splits and seeds; and hostile digests are refused naming the file.
#include "KernelRowBits.h"
#include "core/InputError.h"
#include "ingest/KernelDigest.h"
#include "metrics/KernelStatsPool.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace cnp;
using cnp::testing::sameBits;

namespace {

struct Group {
    std::int32_t rank = 0;
    std::string name, category;
    bool fromRangeRule = false;
    std::vector<Ns> durations; // ascending
};

class KernelRows : public SummaryRowSink {
public:
    std::vector<SummaryKernelRow> rows;
    void add(const SummaryRankRow&) override {}
    void add(const SummaryStepRow&) override {}
    void add(const SummaryExclusiveRow&) override {}
    void add(const SummaryKernelRow& r) override { rows.push_back(r); }
    void add(const SummaryGapRow&) override {}
    void add(const SummarySyncRow&) override {}
};

// 20 names over 12 ranks; durations narrow (many equal) or wide (10 ns .. 10 s), some negative-free empties;
// categories from range rules on some ranks, so the all-rank category depends on the lowest such rank.
std::vector<Group> randomGroups(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Group> out;
    for (int name = 0; name < 20; ++name)
        for (std::int32_t rank = 0; rank < 12; ++rank) {
            if (rng() % 4 == 0)
                continue;
            Group g;
            g.rank = rank;
            g.name = "kernel_" + std::to_string(name);
            g.fromRangeRule = rng() % 3 == 0;
            g.category =
                g.fromRangeRule ? (rng() % 2 ? "recompute" : "optimizer") : (rng() % 2 ? "gemm" : "comm");
            const std::size_t n = rng() % 200;
            for (std::size_t i = 0; i < n; ++i)
                g.durations.push_back(name % 2 ? 100 + static_cast<Ns>(rng() % 8)
                                               : 10 + static_cast<Ns>(rng() % 10'000'000'000ULL));
            std::sort(g.durations.begin(), g.durations.end());
            out.push_back(std::move(g));
        }
    return out;
}

std::vector<SummaryKernelRow> rowsOf(KernelStatsPool& pool) {
    KernelRows out;
    pool.write(out);
    return out.rows;
}

// The digest of the groups whose rank is in [first, end).
std::string digestOf(const std::vector<Group>& groups, std::int32_t first, std::int32_t end) {
    KernelStatsPool pool(std::size_t{1} << 30);
    for (const Group& g : groups)
        if (g.rank >= first && g.rank < end)
            pool.add(g.rank, g.name, g.category, g.fromRangeRule, g.durations);
    KernelRows rows;
    KernelDigestWriter digest;
    pool.write(rows, &digest);
    return digest.finish();
}

} // namespace

class TestKernelDigest : public QObject {
    Q_OBJECT

private slots:
    void mergedEqualsWhole_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<QList<int>>("splits"); // rank blocks start at these ranks
        QTest::newRow("one shard") << quint64{1} << QList<int>{0};
        QTest::newRow("two uneven") << quint64{2} << QList<int>{0, 5};
        QTest::newRow("four uneven") << quint64{3} << QList<int>{0, 1, 2, 9};
        QTest::newRow("one rank each") << quint64{4} << QList<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    }
    void mergedEqualsWhole() {
        QFETCH(quint64, seed);
        QFETCH(QList<int>, splits);
        const std::vector<Group> groups = randomGroups(seed);
        KernelStatsPool whole(std::size_t{1} << 30);
        for (const Group& g : groups)
            whole.add(g.rank, g.name, g.category, g.fromRangeRule, g.durations);
        const std::vector<SummaryKernelRow> expected = rowsOf(whole);
        QCOMPARE(expected.size(), std::size_t{20});

        KernelStatsPool merged(4096); // a small budget: the merge spills, as a big study's does
        for (int k = 0; k < splits.size(); ++k) {
            const std::string d = digestOf(groups, splits[k], k + 1 < splits.size() ? splits[k + 1] : 12);
            addKernelDigest(d, KernelDigestWriter::kFormat, "shard", merged);
        }
        const std::vector<SummaryKernelRow> got = rowsOf(merged);
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].name, expected[i].name);
            QCOMPARE(got[i].category, expected[i].category);
            QVERIFY2(sameBits(got[i], expected[i]), got[i].name.c_str());
        }
    }

    // A digest is far smaller than 8 bytes per duration for durations of one name close together.
    void compact() {
        std::vector<Group> groups(1);
        groups[0].name = "k";
        groups[0].category = "gemm";
        for (int i = 0; i < 100000; ++i)
            groups[0].durations.push_back(5000 + i % 300);
        std::sort(groups[0].durations.begin(), groups[0].durations.end());
        const std::string d = digestOf(groups, 0, 1);
        QVERIFY2(d.size() < 100000 / 8, std::to_string(d.size()).c_str());
    }

    void refusesHostileBytes_data() {
        QTest::addColumn<int>("damage");
        QTest::addColumn<QString>("message");
        QTest::newRow("another format") << 0 << "format 2";
        QTest::newRow("shorter than its length") << 1 << "shorter than its 8-byte length";
        QTest::newRow("truncated stream") << 2 << "not a whole zlib stream";
        QTest::newRow("a huge raw length") << 3 << "more than the 2 GiB";
        QTest::newRow("not zlib") << 4 << "not a whole zlib stream";
    }
    void refusesHostileBytes() {
        QFETCH(int, damage);
        QFETCH(QString, message);
        std::string d = digestOf(randomGroups(7), 0, 12);
        std::int64_t format = KernelDigestWriter::kFormat;
        switch (damage) {
        case 0:
            format = 2;
            break;
        case 1:
            d.resize(5);
            break;
        case 2:
            d.resize(d.size() / 2);
            break;
        case 3:
            d[7] = '\x7f';
            break;
        default:
            std::fill(d.begin() + 8, d.end(), 'x');
        }
        KernelStatsPool pool;
        try {
            addKernelDigest(d, format, "shard-7.cnpdb", pool);
            QFAIL("accepted");
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("shard-7.cnpdb") != std::string::npos, what.c_str());
            QVERIFY2(what.find(message.toStdString()) != std::string::npos, what.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestKernelDigest)
#include "tst_kerneldigest.moc"
