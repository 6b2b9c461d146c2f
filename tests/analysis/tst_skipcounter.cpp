// SkipCounter: the "ends before it starts" / "time out of range" refusal every importer shares, and the
// counting into SkipReport (first offset and reason kept, later refusals only counted).
#include "import/common/SkipCounter.h"

#include <QtTest>

#include <cstdint>
#include <limits>
#include <optional>

using namespace cnp;

Q_DECLARE_METATYPE(std::optional<std::int64_t>)

class TestSkipCounter : public QObject {
    Q_OBJECT
private slots:
    void acceptSpan_data() {
        using O = std::optional<std::int64_t>;
        QTest::addColumn<O>("start");
        QTest::addColumn<O>("end");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("reason");
        QTest::newRow("sound") << O(100) << O(250) << true << "";
        QTest::newRow("zero length") << O(100) << O(100) << true << "";
        QTest::newRow("backwards") << O(250) << O(100) << false << "kernel ends before it starts";
        QTest::newRow("negative times in order") << O(-5) << O(-1) << true << "";
        QTest::newRow("start unmappable") << O() << O(100) << false << "kernel time out of range";
        QTest::newRow("end unmappable") << O(100) << O() << false << "kernel time out of range";
        // Out of range wins over the order when both are wrong (nothing can be compared).
        QTest::newRow("both unmappable") << O() << O() << false << "kernel time out of range";
    }
    void acceptSpan() {
        QFETCH(std::optional<std::int64_t>, start);
        QFETCH(std::optional<std::int64_t>, end);
        QFETCH(bool, accepted);
        QFETCH(QString, reason);
        SkipReport report;
        SkipCounter skips(report);
        int subjectCalls = 0;
        const bool ok = skips.acceptSpan(start, end, 77, [&] {
            ++subjectCalls;
            return std::string("kernel");
        });
        QCOMPARE(ok, accepted);
        QCOMPARE(subjectCalls, accepted ? 0 : 1); // the subject is built only for a refusal
        QCOMPARE(report.count, accepted ? std::int64_t{0} : std::int64_t{1});
        QCOMPARE(report.firstOffset, accepted ? std::int64_t{-1} : std::int64_t{77});
        QCOMPARE(QString::fromStdString(report.firstReason), reason);
    }

    // The nsys subject form: "<table> row <n>:" gives "<table> row <n>: ends before it starts".
    void nsysSubject() {
        QCOMPARE(QString::fromStdString(SkipCounter::reason(SkipCounter::SpanFault::EndsBeforeStart,
                                                            "CUPTI_ACTIVITY_KIND_KERNEL row 5:")),
                 QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL row 5: ends before it starts"));
        QCOMPARE(QString::fromStdString(
                     SkipCounter::reason(SkipCounter::SpanFault::OutOfRange, "NVTX_EVENTS row 9:")),
                 QStringLiteral("NVTX_EVENTS row 9: time out of range"));
    }

    // Only the first refusal's offset and reason are kept.
    void firstRefusalKept() {
        SkipReport report;
        SkipCounter skips(report);
        skips.refuse(10, "first");
        skips.refuse(20, "second");
        QVERIFY(!skips.acceptSpan(5, 4, 30, [] { return std::string("memcpy"); }));
        QCOMPARE(skips.count(), std::int64_t{3});
        QCOMPARE(report.firstOffset, std::int64_t{10});
        QCOMPARE(report.firstReason, std::string("first"));
    }

    void refuseMany_data() {
        QTest::addColumn<quint64>("before"); // refusals counted before
        QTest::addColumn<quint64>("n");
        QTest::addColumn<qint64>("count");
        QTest::addColumn<qint64>("firstOffset");
        QTest::newRow("none") << quint64(0) << quint64(0) << qint64(0) << qint64(-1);
        QTest::newRow("three") << quint64(0) << quint64(3) << qint64(3) << qint64(64);
        QTest::newRow("after one") << quint64(1) << quint64(4) << qint64(5) << qint64(8);
        QTest::newRow("saturates") << quint64(1) << std::numeric_limits<quint64>::max()
                                   << qint64(std::numeric_limits<std::int64_t>::max()) << qint64(8);
    }
    void refuseMany() {
        QFETCH(quint64, before);
        QFETCH(quint64, n);
        QFETCH(qint64, count);
        QFETCH(qint64, firstOffset);
        SkipReport report;
        SkipCounter skips(report);
        for (quint64 i = 0; i < before; ++i)
            skips.refuse(8, "earlier");
        skips.refuseMany(n, 64, "dropped");
        QCOMPARE(report.count, std::int64_t(count));
        QCOMPARE(report.firstOffset, std::int64_t(firstOffset));
    }
};

QTEST_GUILESS_MAIN(TestSkipCounter)
#include "tst_skipcounter.moc"
