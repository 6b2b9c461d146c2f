// The clock alignment as run attribute text (metrics/ClockAlignmentText.h): written and read back field by
// field, and every damaged or hostile text read as none.
#include "metrics/ClockAlignmentText.h"

#include <QtTest>

using namespace cnp;

namespace {

ClockAlignment twoHosts() {
    ClockAlignment a;
    a.referenceHost = "node-a";
    a.t0 = 1'700'000'000'123'456'789;
    a.storedErrorNs = 5'039'000;
    a.fittedErrorNs = 420;
    HostClockEstimate ref;
    ref.host = "node-a";
    ref.ranks = 8;
    HostClockEstimate b;
    b.host = "node \"b\"\t\\"; // escapes survive
    b.ranks = 8;
    b.calls = 12'000;
    b.offsetNs = -5'000'113;
    b.driftPpm = -4.75;
    b.residualNs = 420;
    b.maxAbsDifferenceNs = 5'039'000;
    a.hosts = {ref, b};
    return a;
}

} // namespace

class TestClockAlignmentText : public QObject {
    Q_OBJECT

private slots:
    void roundTrip() {
        const ClockAlignment a = twoHosts();
        const auto back = clockAlignmentFromText(clockAlignmentToText(a));
        QVERIFY(back);
        QCOMPARE(back->referenceHost, a.referenceHost);
        QCOMPARE(back->t0, a.t0);
        QCOMPARE(back->storedErrorNs, Ns(5'039'000));
        QCOMPARE(back->fittedErrorNs, Ns(420));
        QCOMPARE(back->hosts.size(), std::size_t(2));
        const HostClockEstimate& b = back->hosts[1];
        QCOMPARE(b.host, std::string("node \"b\"\t\\"));
        QCOMPARE(b.ranks, 8);
        QCOMPARE(b.calls, std::int64_t(12'000));
        QCOMPARE(b.offsetNs, Ns(-5'000'113));
        QCOMPARE(b.driftPpm, -4.75);
        QCOMPARE(b.residualNs, Ns(420));
        QCOMPARE(b.maxAbsDifferenceNs, Ns(5'039'000));
        QCOMPARE(back->hosts[0].calls, std::int64_t(0));
    }

    void emptyAlignmentRoundTrips() {
        const auto back = clockAlignmentFromText(clockAlignmentToText(ClockAlignment{}));
        QVERIFY(back);
        QVERIFY(back->hosts.empty());
        QCOMPARE(back->storedErrorNs, Ns(0));
    }

    void damagedTextReadsAsNone_data() {
        QTest::addColumn<QByteArray>("text");
        const QByteArray good = QByteArray::fromStdString(clockAlignmentToText(twoHosts()));
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("not json") << QByteArray("clock");
        QTest::newRow("array") << QByteArray("[]");
        QTest::newRow("cut") << good.left(good.size() / 2);
        QTest::newRow("trailing") << good + "x";
        QTest::newRow("no hosts") << QByteArray(good).replace("\"hosts\"", "\"hostz\"");
        QTest::newRow("error as text")
            << QByteArray(good).replace("\"stored_error_ns\":5039000", "\"stored_error_ns\":\"5\"");
        QTest::newRow("negative error")
            << QByteArray(good).replace("\"stored_error_ns\":5039000", "\"stored_error_ns\":-1");
        QTest::newRow("huge offset") << QByteArray(good).replace("\"offset_ns\":-5000113",
                                                                 "\"offset_ns\":9000000000000000000");
        QTest::newRow("negative ranks") << QByteArray(good).replace("\"ranks\":8", "\"ranks\":-8");
        QTest::newRow("ranks past int32") << QByteArray(good).replace("\"ranks\":8", "\"ranks\":4294967296");
        QTest::newRow("drift missing") << QByteArray(good).replace("\"drift_ppm\"", "\"drift\"");
        QTest::newRow("host a number") << QByteArray(good).replace("\"host\":\"node-a\"", "\"host\":1");
        QTest::newRow("host not an object") << QByteArray(good).replace("\"hosts\":[", "\"hosts\":[1,");
        QTest::newRow("deep nesting") << QByteArray(100'000, '[') + QByteArray(100'000, ']');
    }
    void damagedTextReadsAsNone() {
        QFETCH(QByteArray, text);
        QVERIFY(!clockAlignmentFromText(std::string_view(text.constData(), std::size_t(text.size()))));
    }

    void tooManyHostsReadAsNone() {
        std::string text =
            R"({"reference_host":"a","t0_ns":0,"stored_error_ns":0,"fitted_error_ns":0,"hosts":[)";
        const std::string host =
            R"({"host":"h","ranks":1,"calls":0,"offset_ns":0,"drift_ppm":0,"residual_ns":0,"max_abs_difference_ns":0})";
        for (std::size_t i = 0; i <= kMaxStoredHosts; ++i)
            text += (i ? "," : "") + host;
        text += "]}";
        QVERIFY(!clockAlignmentFromText(text));
    }
};

QTEST_GUILESS_MAIN(TestClockAlignmentText)
#include "tst_clockalignmenttext.moc"
