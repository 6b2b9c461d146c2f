// store/GapPack: one rank's idle gaps packed into one blob (summary_gap_pack). Every member of every gap
// comes back exactly, extreme values included, in start order whatever order they were added in; the
// pack is a few bytes per gap; and hostile packs (another format, cut anywhere, indexes past their
// dictionary, counts over what the bytes hold, trailing bytes, a huge stated length) are refused with an
// InputError naming the file and the table, never read past their end.
#include "core/InputError.h"
#include "core/PackedBytes.h"
#include "store/GapPack.h"

#include <QtTest>

#include <limits>
#include <random>

using namespace cnp;

Q_DECLARE_METATYPE(std::vector<cnp::SummaryGapRow>)

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
const std::string kFile = "w.cnpdb";

SummaryGapRow gap(std::int64_t start, std::int64_t end, std::string state, std::int32_t step = -1) {
    SummaryGapRow g;
    g.rank = 3;
    g.stepIndex = step;
    g.startNs = start;
    g.endNs = end;
    g.cpuState = std::move(state);
    return g;
}

void compareGaps(const std::vector<SummaryGapRow>& got, const std::vector<SummaryGapRow>& want) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const auto& a = got[i];
        const auto& b = want[i];
        QCOMPARE(a.rank, b.rank);
        QCOMPARE(a.stepIndex, b.stepIndex);
        QCOMPARE(a.startNs, b.startNs);
        QCOMPARE(a.endNs, b.endNs);
        QCOMPARE(a.cpuState, b.cpuState);
        QCOMPARE(a.launches, b.launches);
        QCOMPARE(a.syncNs, b.syncNs);
        QCOMPARE(a.dataWaitNs, b.dataWaitNs);
        QCOMPARE(a.nextName, b.nextName);
        QCOMPARE(a.nextLaunchNs, b.nextLaunchNs);
    }
}

std::string packOf(const std::vector<SummaryGapRow>& gaps) {
    GapPackWriter w;
    for (const auto& g : gaps)
        w.add(g);
    return w.finish();
}

// A raw pack written by hand: dictionaries, count, then the gaps' bytes as given.
std::string handPack(const std::vector<std::string>& states, const std::vector<std::string>& names,
                     std::uint64_t count, const std::string& gapBytes) {
    std::string raw;
    putVarint(raw, states.size());
    for (const auto& s : states)
        putText(raw, s);
    putVarint(raw, names.size());
    for (const auto& s : names)
        putText(raw, s);
    putVarint(raw, count);
    return deflateWithLength(raw + gapBytes);
}

// One gap's bytes: step delta 0, start 10, length 5, the given state and name fields, no next launch.
std::string gapBytes(std::uint64_t state, std::uint64_t nameField) {
    std::string b;
    for (std::uint64_t v :
         {zigzag(0), std::uint64_t{10}, std::uint64_t{5}, state, zigzag(0), zigzag(0), zigzag(0), nameField})
        putVarint(b, v);
    return b;
}

} // namespace

class TestGapPack : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<std::vector<SummaryGapRow>>("gaps");
        QTest::newRow("none") << std::vector<SummaryGapRow>{};
        SummaryGapRow full = gap(1000, 251000, "launch-bound", 4);
        full.launches = 3, full.syncNs = 120, full.dataWaitNs = 7, full.nextName = "ncclKernel_AllReduce";
        full.nextLaunchNs = 250500;
        QTest::newRow("every member") << std::vector<SummaryGapRow>{full};
        SummaryGapRow before = full; // launched before the gap began (gpu-dependency), no name
        before.startNs = 400000, before.endNs = 500000, before.nextName.reset(), before.nextLaunchNs = 399000;
        before.cpuState = "gpu-dependency";
        SummaryGapRow minusTwo = full; // -1 is "unknown"; every other value is kept, -2 included
        minusTwo.startNs = 600000, minusTwo.endNs = 700000, minusTwo.nextLaunchNs = -2;
        QTest::newRow("launch before, no name, -2") << std::vector<SummaryGapRow>{full, before, minusTwo};
        SummaryGapRow huge = gap(kMin, kMax, "unknown", std::numeric_limits<std::int32_t>::max());
        huge.launches = kMin, huge.syncNs = kMax, huge.dataWaitNs = kMin, huge.nextName = "";
        huge.nextLaunchNs = kMax;
        SummaryGapRow low = gap(kMin, kMin, "unknown", -1);
        low.nextLaunchNs = kMin;
        QTest::newRow("extremes") << std::vector<SummaryGapRow>{low, huge};
        std::vector<SummaryGapRow> many;
        for (int i = 0; i < 300; ++i) {
            SummaryGapRow g =
                gap(1000000LL * i, 1000000LL * i + 20000 + i, i % 3 ? "launch-bound" : "unknown", i / 10);
            g.nextName = "kernel_" + std::to_string(i % 7);
            g.nextLaunchNs = g.endNs - 50;
            many.push_back(g);
        }
        QTest::newRow("shared states and names") << many;
    }
    void roundTrip() {
        QFETCH(std::vector<SummaryGapRow>, gaps);
        compareGaps(unpackGaps(packOf(gaps), GapPackWriter::kFormat, 3, kFile), gaps);
    }

    // GapPackReader (what assemble checks a pack with, one row reused) reads what unpackGaps gives.
    void readerReadsWhatWasPacked_data() { roundTrip_data(); }
    void readerReadsWhatWasPacked() {
        QFETCH(std::vector<SummaryGapRow>, gaps);
        const std::string pack = packOf(gaps);
        GapPackReader rd(pack, GapPackWriter::kFormat, 3, kFile);
        QCOMPARE(rd.count(), static_cast<std::uint64_t>(gaps.size()));
        std::vector<SummaryGapRow> back;
        while (rd.next())
            back.push_back(rd.gap());
        compareGaps(back, unpackGaps(pack, GapPackWriter::kFormat, 3, kFile));
        compareGaps(back, gaps);
        QVERIFY(!rd.next()); // stays at its end
    }

    void comesBackInStartOrder() {
        std::vector<SummaryGapRow> gaps = {gap(500, 900, "a"), gap(100, 300, "b"), gap(100, 200, "c"),
                                           gap(-50, 10, "d")};
        const auto back = unpackGaps(packOf(gaps), GapPackWriter::kFormat, 3, kFile);
        compareGaps(back, {gaps[3], gaps[2], gaps[1], gaps[0]});
    }

    // A plausible rank: 20,000 gaps of 10 us to 2 ms over 100 steps, five states, 40 kernel names.
    void aFewBytesAGap() {
        std::mt19937_64 rng(7);
        std::vector<SummaryGapRow> gaps;
        std::int64_t t = 1'700'000'000'000'000'000;
        const char* states[] = {"launch-bound", "waiting-on-data", "synchronising", "gpu-dependency",
                                "unknown"};
        for (int i = 0; i < 20000; ++i) {
            t += 10000 + static_cast<std::int64_t>(rng() % 400000);
            SummaryGapRow g =
                gap(t, t + 10000 + static_cast<std::int64_t>(rng() % 2000000), states[rng() % 5], i / 200);
            g.launches = static_cast<std::int64_t>(rng() % 4);
            g.nextName = "void at::native::kernel_" + std::to_string(rng() % 40) + "<float, 4>(...)";
            g.nextLaunchNs = g.endNs - static_cast<std::int64_t>(rng() % 5000);
            t = g.endNs;
            gaps.push_back(g);
        }
        const std::string pack = packOf(gaps);
        // Random values are close to incompressible (~62 bits of entropy a gap): under 16 bytes where a
        // summary_gap row took ~86.
        QVERIFY2(pack.size() < 20000 * 16, qPrintable(QString::number(pack.size())));
        compareGaps(unpackGaps(pack, GapPackWriter::kFormat, 3, kFile), gaps);
    }

    void hostilePacksAreRefused_data() {
        QTest::addColumn<QByteArray>("pack");
        QTest::addColumn<qint64>("format");
        QTest::addColumn<QString>("because");
        const auto bytes = [](const std::string& s) {
            return QByteArray(s.data(), static_cast<int>(s.size()));
        };
        const std::string good = packOf({gap(10, 15, "unknown")});
        QTest::newRow("another format") << bytes(good) << qint64{2} << "format 2";
        QTest::newRow("empty") << QByteArray() << qint64{1} << "shorter than its 8-byte length";
        std::string huge(8, '\0');
        huge[4] = 1; // 2^32 raw bytes
        QTest::newRow("huge length") << bytes(huge + "x") << qint64{1} << "raw bytes, more than";
        std::string broken = good;
        broken.back() = static_cast<char>(broken.back() ^ 0x5a);
        QTest::newRow("not zlib") << bytes(broken) << qint64{1} << "not a whole zlib stream";
        QTest::newRow("state past dictionary")
            << bytes(handPack({"a"}, {}, 1, gapBytes(2, 0))) << qint64{1} << "cpu state 2 of 1";
        QTest::newRow("state zero") << bytes(handPack({"a"}, {}, 1, gapBytes(0, 0))) << qint64{1}
                                    << "cpu state 0 of 1";
        QTest::newRow("name past dictionary")
            << bytes(handPack({"a"}, {"k"}, 1, gapBytes(1, 2 << 1))) << qint64{1} << "kernel 2 of 1";
        QTest::newRow("count over bytes")
            << bytes(handPack({"a"}, {}, 1000, gapBytes(1, 0))) << qint64{1} << "states 1000 gaps";
        QTest::newRow("trailing bytes") << bytes(handPack({"a"}, {}, 1, gapBytes(1, 0) + "zzzzzzzzz"))
                                        << qint64{1} << "bytes after its last gap";
        std::string cut = gapBytes(1, 0);
        cut.back() = '\x80'; // a number that goes on past the end
        QTest::newRow("cut inside a gap")
            << bytes(handPack({"a"}, {}, 1, cut)) << qint64{1} << "ends inside a number";
        QTest::newRow("text past the end") << bytes(deflateWithLength(std::string("\x01\x7f", 2)))
                                           << qint64{1} << "names a text longer than what is left";
        std::string stepBytes;
        for (std::uint64_t v : {zigzag(-5), std::uint64_t{10}, std::uint64_t{5}, std::uint64_t{1}, zigzag(0),
                                zigzag(0), zigzag(0), std::uint64_t{0}})
            putVarint(stepBytes, v);
        QTest::newRow("step below -1") << bytes(handPack({"a"}, {}, 1, stepBytes)) << qint64{1} << "step -6";
    }
    void hostilePacksAreRefused() {
        QFETCH(QByteArray, pack);
        QFETCH(qint64, format);
        QFETCH(QString, because);
        try {
            unpackGaps(std::string_view(pack.constData(), static_cast<std::size_t>(pack.size())), format, 3,
                       kFile);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(kFile));
            QVERIFY2(QString::fromStdString(e.message()).contains(because), e.what());
            QVERIFY2(QString::fromStdString(e.message()).startsWith("summary_gap_pack (rank 3)"), e.what());
        }
    }

    // GapPackReader refuses each hostile pack, naming the file and the table, whether from its constructor
    // or from next().
    void readerRefusesHostilePacks_data() { hostilePacksAreRefused_data(); }
    void readerRefusesHostilePacks() {
        QFETCH(QByteArray, pack);
        QFETCH(qint64, format);
        QFETCH(QString, because);
        try {
            GapPackReader rd(std::string_view(pack.constData(), static_cast<std::size_t>(pack.size())),
                             format, 3, kFile);
            while (rd.next()) {
            }
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(kFile));
            QVERIFY2(QString::fromStdString(e.message()).contains(because), e.what());
            QVERIFY2(QString::fromStdString(e.message()).startsWith("summary_gap_pack (rank 3)"), e.what());
        }
    }

    // Every prefix of a real pack is refused or read as what it holds, never read past its end (the
    // sanitizer build checks the reads).
    void everyCutIsRefused() {
        std::vector<SummaryGapRow> gaps;
        for (int i = 0; i < 20; ++i) {
            SummaryGapRow g = gap(100000LL * i, 100000LL * i + 20000, "launch-bound", i);
            g.nextName = "k" + std::to_string(i % 3);
            g.nextLaunchNs = g.endNs - 1;
            gaps.push_back(g);
        }
        const std::string pack = packOf(gaps);
        for (std::size_t n = 0; n < pack.size(); ++n) {
            bool refused = false;
            try {
                unpackGaps(std::string_view(pack).substr(0, n), GapPackWriter::kFormat, 3, kFile);
            } catch (const InputError&) {
                refused = true;
            }
            QVERIFY2(refused, qPrintable(QString::number(n)));
        }
    }
};

QTEST_APPLESS_MAIN(TestGapPack)
#include "tst_gappack.moc"
