// Clock alignment checked by the collectives (metrics/ClockAligner.h, docs/metrics.md "Clock alignment"):
// hand-made calls whose departures carry known host offsets and drifts, recovered by the fit.
#include "metrics/ClockAligner.h"

#include <QtTest>

#include <cmath>

using namespace cnp;

namespace {

// Calls on `ranks` ranks (rank r on host hosts[r]); call k departs at departure(k, rank), arrives 1 ms
// before.
CollectiveMatch calls(int count, int ranks, const std::function<Ns(int, int)>& departure) {
    CollectiveInput in;
    in.names = {"ncclKernel_AllReduce"};
    for (int r = 0; r < ranks; ++r) {
        RankCollectives rc{r, {}};
        for (int k = 0; k < count; ++k) {
            CollectiveKernel kernel;
            kernel.stream = 1;
            kernel.end = departure(k, r);
            kernel.start = kernel.end - 1'000'000;
            rc.kernels.push_back(kernel);
        }
        in.ranks.push_back(std::move(rc));
    }
    return matchCollectives(std::move(in));
}

const HostClockEstimate& hostNamed(const ClockAlignment& a, const std::string& host) {
    for (const auto& h : a.hosts)
        if (h.host == host)
            return h;
    throw std::runtime_error("no host " + host);
}

} // namespace

class TestClockAligner : public QObject {
    Q_OBJECT

private slots:
    // Host b's ranks depart 1000, 2000, 3000 ns after host a's at t0, t0 + 1 ms, t0 + 2 ms: offset 1000 ns,
    // drift 1000 ns per ms = 1000 ppm, residual 0; the stored clocks disagree by up to 3000 ns.
    void exactLine() {
        const auto m = calls(3, 2, [](int k, int r) {
            return Ns(5'000'000) + k * Ns(1'000'000) + (r == 1 ? (k + 1) * 1000 : 0);
        });
        const ClockAlignment a = estimateClockAlignment(m, {{0, "a"}, {1, "b"}});
        QCOMPARE(a.referenceHost, std::string("a"));
        QCOMPARE(a.t0, Ns(5'000'000));
        QCOMPARE(a.hosts.size(), std::size_t(2));
        QCOMPARE(a.hosts[0].host, std::string("a"));
        QCOMPARE(a.hosts[0].offsetNs, Ns(0));
        const auto& b = hostNamed(a, "b");
        QCOMPARE(b.calls, std::int64_t(3));
        QCOMPARE(b.offsetNs, Ns(1000));
        QCOMPARE(b.driftPpm, 1000.0);
        QCOMPARE(b.residualNs, Ns(0));
        QCOMPARE(b.maxAbsDifferenceNs, Ns(3000));
        QCOMPARE(a.storedErrorNs, Ns(3000));
        QCOMPARE(a.fittedErrorNs, Ns(0));
    }

    // Three hosts of two ranks; 200 calls 10 ms apart; every departure jittered by up to +-300 ns (the
    // transfer's skew). Host b: +100 µs; host c: +5 ms and 20 ppm. Recovered within 10 µs and 0.5 ppm.
    void plantedOffsetsAndDrift() {
        auto jitter = [](int k, int r) { return Ns(((k * 7919 + r * 104729) % 601) - 300); };
        auto departure = [&](int k, int r) {
            const Ns t = Ns(1'000'000'000) + Ns(k) * 10'000'000;
            const int host = r / 2;
            const Ns error =
                host == 1   ? 100'000
                : host == 2 ? 5'000'000 + static_cast<Ns>(std::llround(20e-6 * double(t - 1'000'000'000)))
                            : 0;
            return t + error + jitter(k, r);
        };
        const auto m = calls(200, 6, departure);
        const ClockAlignment a =
            estimateClockAlignment(m, {{0, "a"}, {1, "a"}, {2, "b"}, {3, "b"}, {4, "c"}, {5, "c"}});
        const auto& b = hostNamed(a, "b");
        const auto& c = hostNamed(a, "c");
        QCOMPARE(b.ranks, 2);
        QCOMPARE(b.calls, std::int64_t(200));
        QVERIFY2(std::abs(b.offsetNs - 100'000) <= 10'000, qPrintable(QString::number(b.offsetNs)));
        QVERIFY2(std::abs(b.driftPpm) < 0.5, qPrintable(QString::number(b.driftPpm)));
        QVERIFY2(std::abs(c.offsetNs - 5'000'000) <= 10'000, qPrintable(QString::number(c.offsetNs)));
        QVERIFY2(std::abs(c.driftPpm - 20) < 0.5, qPrintable(QString::number(c.driftPpm)));
        QVERIFY(c.residualNs <= 600);
        QVERIFY(a.storedErrorNs >= 5'000'000 + 39'000); // 5 ms + 20 ppm x 1.99 s
        QVERIFY(a.fittedErrorNs <= 600);
    }

    void oneHostHasNothingToAlign() {
        const auto m = calls(3, 2, [](int k, int) { return Ns(1'000'000) * (k + 2); });
        const ClockAlignment a = estimateClockAlignment(m, {{0, "a"}, {1, "a"}});
        QCOMPARE(a.hosts.size(), std::size_t(1));
        QCOMPARE(a.storedErrorNs, Ns(0));
        QVERIFY(estimateClockAlignment(m, {}).hosts.empty());
    }
};

QTEST_GUILESS_MAIN(TestClockAligner)
#include "tst_clockaligner.moc"
