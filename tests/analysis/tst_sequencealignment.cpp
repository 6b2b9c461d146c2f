// SequenceAlignment (Myers, linear space): hand-made pairs with their longest common subsequence by hand,
// then seeded random pairs against the textbook O(N·M) dynamic programme, and the work budget.
#include "metrics/SeededRandom.h"
#include "metrics/SequenceAlignment.h"

#include <QtTest>

#include <algorithm>

using namespace cnp;
using Seq = std::vector<std::int32_t>;
using Pairs = std::vector<std::pair<std::int32_t, std::int32_t>>;
Q_DECLARE_METATYPE(Seq)
Q_DECLARE_METATYPE(Pairs)

namespace {

// The length of the longest common subsequence by dynamic programming: O(N·M) time, O(M) memory.
std::size_t lcsLength(const Seq& a, const Seq& b) {
    std::vector<std::size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

// Matches rise in both sequences and pair equal symbols.
bool isCommonSubsequence(const Seq& a, const Seq& b, const Pairs& m) {
    std::int32_t pa = -1, pb = -1;
    for (const auto& [x, y] : m) {
        if (x <= pa || y <= pb || a[static_cast<std::size_t>(x)] != b[static_cast<std::size_t>(y)])
            return false;
        pa = x;
        pb = y;
    }
    return true;
}

} // namespace

class TestSequenceAlignment : public QObject {
    Q_OBJECT
private slots:
    void byHand_data() {
        QTest::addColumn<Seq>("a");
        QTest::addColumn<Seq>("b");
        QTest::addColumn<Pairs>("expected");
        QTest::newRow("both empty") << Seq{} << Seq{} << Pairs{};
        QTest::newRow("a empty") << Seq{} << Seq{1, 2} << Pairs{};
        QTest::newRow("b empty") << Seq{1, 2} << Seq{} << Pairs{};
        QTest::newRow("equal") << Seq{1, 2, 3} << Seq{1, 2, 3} << Pairs{{0, 0}, {1, 1}, {2, 2}};
        QTest::newRow("insertion") << Seq{1, 2, 3} << Seq{1, 9, 2, 3} << Pairs{{0, 0}, {1, 2}, {2, 3}};
        QTest::newRow("deletion") << Seq{1, 2, 3} << Seq{1, 3} << Pairs{{0, 0}, {2, 1}};
        QTest::newRow("nothing shared") << Seq{1, 2} << Seq{3, 4, 5} << Pairs{};
        QTest::newRow("replaced middle") << Seq{1, 2, 2, 3} << Seq{1, 7, 3} << Pairs{{0, 0}, {3, 2}};
        QTest::newRow("one shared among others") << Seq{4, 4, 1, 4} << Seq{5, 1, 5, 5} << Pairs{{2, 1}};
    }
    void byHand() {
        QFETCH(Seq, a);
        QFETCH(Seq, b);
        QFETCH(Pairs, expected);
        const auto r = SequenceAlignment::align(a, b);
        QCOMPARE(r.matches, expected);
        QVERIFY(!r.truncated);
    }

    // A swap keeps one of the two: the length is what is unique, not which one.
    void reorderedKeepsOne() {
        const Seq a{1, 2, 3}, b{2, 1, 3};
        const auto r = SequenceAlignment::align(a, b);
        QCOMPARE(r.matches.size(), std::size_t{2});
        QVERIFY(isCommonSubsequence(a, b, r.matches));
        QCOMPARE(r.matches.back(), std::make_pair(2, 2));
    }

    void randomAgainstDynamicProgramme() {
        SeededRandom rng(20261205);
        for (int t = 0; t < 3000; ++t) {
            const std::size_t n = rng.below(40), m = rng.below(40), symbols = 1 + rng.below(6);
            Seq a(n), b(m);
            for (auto& x : a)
                x = static_cast<std::int32_t>(rng.below(symbols));
            for (auto& x : b)
                x = static_cast<std::int32_t>(rng.below(symbols));
            const auto r = SequenceAlignment::align(a, b);
            QVERIFY2(isCommonSubsequence(a, b, r.matches), qPrintable(QString::number(t)));
            QCOMPARE(r.matches.size(), lcsLength(a, b));
        }
    }

    // A long pair with a few edits: every untouched element matched (D is small, so this is quick).
    void longWithFewEdits() {
        SeededRandom rng(7);
        Seq a(100000), b;
        for (auto& x : a)
            x = static_cast<std::int32_t>(rng.below(50));
        std::size_t dropped = 0, inserted = 0;
        for (auto x : a) {
            if (rng.below(500) == 0) {
                ++dropped;
                continue;
            }
            b.push_back(x);
            if (rng.below(500) == 0) {
                b.push_back(50 + static_cast<std::int32_t>(rng.below(5))); // symbols A lacks
                ++inserted;
            }
        }
        const auto r = SequenceAlignment::align(a, b);
        QVERIFY(isCommonSubsequence(a, b, r.matches));
        QVERIFY(r.matches.size() >= a.size() - dropped); // the untouched ones are a common subsequence
        QCOMPARE(b.size(), a.size() - dropped + inserted);
    }

    // Out of budget: a common subsequence still, flagged truncated.
    void budget() {
        Seq a, b;
        for (std::int32_t i = 0; i < 2000; ++i) {
            a.push_back(i % 7);
            b.push_back((i * 3) % 7);
        }
        const auto full = SequenceAlignment::align(a, b);
        QVERIFY(!full.truncated);
        const auto cut = SequenceAlignment::align(a, b, 100);
        QVERIFY(cut.truncated);
        QVERIFY(isCommonSubsequence(a, b, cut.matches));
        QVERIFY(cut.matches.size() < full.matches.size());
    }
};

QTEST_GUILESS_MAIN(TestSequenceAlignment)
#include "tst_sequencealignment.moc"
