// RegressionGate (docs/metrics.md, "Regression gate"): the block length, the minimum samples, the verdicts
// in both directions on inputs whose medians are known by hand, the tolerance, the widening by the spread
// between releases (computed by hand on the log scale), releaseSpread, determinism.
#include "metrics/RegressionGate.h"
#include "metrics/ReleaseComparison.h"

#include <QtTest>

#include <cmath>

using namespace cnp;

namespace {

// n steps around `centre` with a fixed +-1 % zig-zag (median = centre for odd n).
std::vector<double> steps(std::size_t n, double centre) {
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i)
        v.push_back(centre * (1 + 0.01 * ((i % 3 == 0) ? 0 : (i % 3 == 1 ? 1 : -1))));
    return v;
}

std::vector<double> constant(std::size_t n, double v) {
    return std::vector<double>(n, v);
}

// A configuration with one run of `n` steps of steps(n, centre) ns and a category "gemm" of 60 % of it.
ConfigReleaseSummary config(const std::string& name, std::size_t n, double centre, std::int32_t world = 8) {
    ConfigReleaseSummary c;
    c.config = name;
    c.worldSize = world;
    c.medianStepNs = static_cast<Ns>(centre);
    c.throughput = 1e6;
    c.throughputUnit = "tokens/s";
    std::vector<Ns> run, gemm, idle;
    for (double v : steps(n, centre)) {
        run.push_back(static_cast<Ns>(v));
        gemm.push_back(static_cast<Ns>(v * 0.6));
        idle.push_back(static_cast<Ns>(v) - static_cast<Ns>(v * 0.6));
    }
    c.stepTimesByRun = {run};
    c.categories = {"gemm", "idle"};
    c.categorySteps = {{gemm}, {idle}};
    return c;
}

ReleaseSummary release(std::vector<ConfigReleaseSummary> configs) {
    ReleaseSummary r;
    r.configs = std::move(configs);
    return r;
}

} // namespace

class TestRegressionGate : public QObject {
    Q_OBJECT
private slots:
    void blockLength_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("block");
        QTest::newRow("1") << 1 << 1;
        QTest::newRow("8") << 8 << 2;
        QTest::newRow("9") << 9 << 3;
        QTest::newRow("27") << 27 << 3;
        QTest::newRow("28") << 28 << 4;
        QTest::newRow("1000") << 1000 << 10;
    }
    void blockLength() {
        QFETCH(int, n);
        QFETCH(int, block);
        QCOMPARE(RegressionGate::blockLength(static_cast<std::size_t>(n)), static_cast<std::size_t>(block));
    }

    // 9 steps on either side: cannot judge, saying so; 10 on each: judged.
    void minimumSamples_data() {
        QTest::addColumn<int>("baseline");
        QTest::addColumn<int>("candidate");
        QTest::addColumn<bool>("judged");
        QTest::newRow("9 / 10") << 9 << 10 << false;
        QTest::newRow("10 / 9") << 10 << 9 << false;
        QTest::newRow("10 / 10") << 10 << 10 << true;
        QTest::newRow("5+5 runs / 10") << -5 << 10 << true; // two runs of 5 pool to 10
    }
    void minimumSamples() {
        QFETCH(int, baseline);
        QFETCH(int, candidate);
        QFETCH(bool, judged);
        std::vector<std::vector<double>> b;
        if (baseline < 0)
            b = {steps(5, 100), steps(5, 100)};
        else
            b = {steps(static_cast<std::size_t>(baseline), 100)};
        const auto out = RegressionGate().compare(b, {steps(static_cast<std::size_t>(candidate), 100)}, true);
        QCOMPARE(out.verdict != GateVerdict::CannotJudge, judged);
        if (!judged)
            QVERIFY(out.reason.find("at least 10") != std::string::npos);
        QCOMPARE(kMinGateSamples, std::size_t{10});
    }

    // Medians by hand: steps(31, c) has median c. Direction and tolerance decide the verdict.
    void verdicts_data() {
        QTest::addColumn<double>("factor");
        QTest::addColumn<bool>("higherIsWorse");
        QTest::addColumn<double>("tolerance");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("same") << 1.0 << true << 0.02 << "no-change";
        QTest::newRow("time +5 %") << 1.05 << true << 0.02 << "regression";
        QTest::newRow("time -5 %") << 0.95 << true << 0.02 << "improvement";
        QTest::newRow("time +5 %, tolerance 6 %") << 1.05 << true << 0.06 << "no-change";
        QTest::newRow("time +1 % significant, within 2 %") << 1.01 << true << 0.02 << "no-change";
        QTest::newRow("throughput -5 %") << 0.95 << false << 0.02 << "regression";
        QTest::newRow("throughput +5 %") << 1.05 << false << 0.02 << "improvement";
    }
    void verdicts() {
        QFETCH(double, factor);
        QFETCH(bool, higherIsWorse);
        QFETCH(double, tolerance);
        QFETCH(QString, verdict);
        GateOptions o;
        o.tolerance = tolerance;
        const auto out =
            RegressionGate(o).compare({steps(31, 100)}, {steps(31, 100 * factor)}, higherIsWorse);
        QCOMPARE(QString(toString(out.verdict)), verdict);
        QVERIFY(std::abs(out.ratio - factor) < 1e-12);
        QVERIFY(std::abs(out.baselineMedian - 100) < 1e-12);
        QVERIFY(out.ci.lo <= out.ratio && out.ratio <= out.ci.hi);
        QCOMPARE(out.baselineSteps, std::size_t{31});
    }

    // Constant steps: the bootstrap CI is the point [1.05, 1.05]; a release spread s widens it to
    // 1.05 x exp(-+1.959964 s). s = 0.02: [1.00964, 1.09198], still a regression; s = 0.03: lo 0.99004,
    // no longer significant.
    void releaseSpreadWidens() {
        const RegressionGate gate;
        const auto narrow = gate.compare({constant(20, 100)}, {constant(20, 105)}, true);
        QCOMPARE(narrow.ci.lo, 1.05);
        QCOMPARE(narrow.ci.hi, 1.05);
        const auto wide = gate.compare({constant(20, 100)}, {constant(20, 105)}, true, 0.02);
        QVERIFY(std::abs(wide.ci.lo - 1.05 * std::exp(-1.959964 * 0.02)) < 1e-5);
        QVERIFY(std::abs(wide.ci.hi - 1.05 * std::exp(1.959964 * 0.02)) < 1e-5);
        QVERIFY(std::abs(wide.ci.lo - 1.00964) < 1e-5);
        QCOMPARE(wide.verdict, GateVerdict::Regression);
        const auto wider = gate.compare({constant(20, 100)}, {constant(20, 105)}, true, 0.03);
        QVERIFY(std::abs(wider.ci.lo - 0.99004) < 1e-5);
        QCOMPARE(wider.verdict, GateVerdict::NoChange);
        QCOMPARE(wider.releaseSd, 0.03);
    }

    // Student's t at 95 % from tables: 12.706 (1), 4.303 (2), 3.182 (3), 2.776 (4), 2.228 (10); dof 0: z.
    void twoSidedT_data() {
        QTest::addColumn<int>("dof");
        QTest::addColumn<double>("t");
        QTest::newRow("0") << 0 << 1.960;
        QTest::newRow("1") << 1 << 12.706;
        QTest::newRow("2") << 2 << 4.303;
        QTest::newRow("3") << 3 << 3.182;
        QTest::newRow("4") << 4 << 2.776;
        QTest::newRow("10") << 10 << 2.228;
    }
    void twoSidedT() {
        QFETCH(int, dof);
        QFETCH(double, t);
        QVERIFY2(std::abs(RegressionGate::twoSidedT(0.95, dof) - t) < 0.006,
                 qPrintable(QString::number(RegressionGate::twoSidedT(0.95, dof))));
    }

    // With the spread's degrees of freedom the widening uses t: 4 releases (3 dof), s = 0.02:
    // lo = 1.05 x exp(-3.1786 x 0.02) = 0.98529: not significant, where the normal quantile said regression.
    void releaseSpreadWithDof() {
        const auto out = RegressionGate().compare({constant(20, 100)}, {constant(20, 105)}, true, 0.02, 3);
        QVERIFY(std::abs(out.ci.lo - 1.05 * std::exp(-RegressionGate::twoSidedT(0.95, 3) * 0.02)) < 1e-9);
        QVERIFY(std::abs(out.ci.lo - 0.98529) < 2e-4);
        QCOMPARE(out.verdict, GateVerdict::NoChange);
    }

    void twoSidedZ() {
        QVERIFY(std::abs(RegressionGate::twoSidedZ(0.95) - 1.959964) < 1e-6);
        QVERIFY(std::abs(RegressionGate::twoSidedZ(0.99) - 2.575829) < 1e-6);
    }

    // sd of logs (K - 1) x sqrt(1 + 1/K): {1, e^0.1}: sd 0.0707107, x sqrt(1.5) = 0.0866025.
    void releaseSpread() {
        QCOMPARE(cnp::releaseSpread({100}), 0.0);
        QCOMPARE(cnp::releaseSpread({100, 100, 100}), 0.0);
        QVERIFY(std::abs(cnp::releaseSpread({1, std::exp(0.1)}) - 0.0866025) < 1e-6);
        QCOMPARE(cnp::releaseSpread({1, -1, 0}), 0.0); // non-positive medians are ignored
    }

    // A zero baseline median (a category absent from the baseline) cannot be judged.
    void zeroBaseline() {
        const auto out = RegressionGate().compare({constant(12, 0)}, {constant(12, 5)}, true);
        QCOMPARE(out.verdict, GateVerdict::CannotJudge);
        QVERIFY(!out.reason.empty());
    }

    // checkRelease's exit code: 0 when nothing moved, 1 when a configuration regressed (even with another
    // unjudged), 2 for a missing configuration, another plan order, another world size, too few steps.
    void releaseCheckExitCodes_data() {
        QTest::addColumn<int>("scenario");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("problem");
        QTest::newRow("no change") << 0 << 0 << "";
        QTest::newRow("regression") << 1 << 1 << "";
        QTest::newRow("missing configuration") << 2 << 2 << "configuration B of the baseline is missing";
        QTest::newRow("extra configuration")
            << 3 << 2 << "configuration C of the candidate is not in the baseline";
        QTest::newRow("plan order") << 4 << 2 << "the plans order the configurations differently";
        QTest::newRow("world size") << 5 << 2 << "";
        QTest::newRow("too few steps") << 6 << 2 << "";
        QTest::newRow("regression beats missing") << 7 << 1 << "configuration B of the baseline is missing";
    }
    void releaseCheckExitCodes() {
        QFETCH(int, scenario);
        QFETCH(int, exitCode);
        QFETCH(QString, problem);
        const ReleaseSummary base = release({config("A", 31, 1000), config("B", 31, 2000)});
        const std::vector<ReleaseSummary> candidates{
            release({config("A", 31, 1000), config("B", 31, 2000)}),
            release({config("A", 31, 1000), config("B", 31, 2100)}),
            release({config("A", 31, 1000)}),
            release({config("A", 31, 1000), config("B", 31, 2000), config("C", 31, 10)}),
            release({config("B", 31, 2000), config("A", 31, 1000)}),
            release({config("A", 31, 1000), config("B", 31, 2000, 16)}),
            release({config("A", 31, 1000), config("B", 9, 2000)}),
            release({config("A", 31, 1100)}),
        };
        const auto check =
            checkRelease(base, candidates[static_cast<std::size_t>(scenario)], {GateMetric{}}, {});
        QCOMPARE(check.exitCode(), exitCode);
        if (!problem.isEmpty()) {
            QVERIFY(!check.problems.empty());
            QCOMPARE(QString::fromStdString(check.problems.front()).left(problem.size()), problem);
        }
        if (scenario == 1) {
            QCOMPARE(check.checks.size(), std::size_t{2});
            QCOMPARE(check.checks[1].config, std::string("B"));
            QCOMPARE(check.checks[1].outcome.verdict, GateVerdict::Regression);
            QVERIFY(std::abs(check.checks[1].outcome.ratio - 1.05) < 1e-12);
            // Moved most: gemm by 0.6 x 100 ns, then idle by 40 ns (medians of truncated values, so means).
            QCOMPARE(check.checks[1].moved.front().category, std::string("gemm"));
            QVERIFY(check.checks[1].moved.front().deltaNs() > check.checks[1].moved.back().deltaNs());
        }
    }

    // The window pools the releases that have the configuration (same world size), the last K only when
    // asked, and a category metric gates the category's per-step time.
    void windowAndCategory() {
        const ReleaseSummary r1 = release({config("A", 31, 1000)}), r2 = release({config("A", 31, 1000, 16)}),
                             r3 = release({config("A", 31, 1000)}), r4 = release({config("A", 31, 1000)});
        BaselineWindow w;
        w.releases = {&r1, &r2, &r3, &r4};
        w.names = {"r1", "r2", "r3", "r4"};
        const ReleaseSummary cand = release({config("A", 31, 1000)});
        auto check =
            checkRelease(w, cand, {GateMetric{}, *gateMetricFrom("gemm"), *gateMetricFrom("nccl")}, {});
        QCOMPARE(check.checks[0].baselineReleases, (std::vector<std::string>{"r1", "r3", "r4"}));
        QCOMPARE(check.checks[0].outcome.baselineSteps, std::size_t{93});
        QCOMPARE(check.checks[0].outcome.verdict, GateVerdict::NoChange);
        QCOMPARE(check.checks[1].metric.name(), std::string("gemm"));
        QCOMPARE(check.checks[1].outcome.verdict, GateVerdict::NoChange);
        QCOMPARE(check.checks[2].outcome.verdict, GateVerdict::CannotJudge); // no such category
        QCOMPARE(check.exitCode(), 2);
        w.lastReleasesOf["A"] = 1;
        check = checkRelease(w, cand, {GateMetric{}}, {});
        QCOMPARE(check.checks[0].baselineReleases, (std::vector<std::string>{"r4"}));
        QVERIFY(!gateMetricFrom(""));
        QCOMPARE(gateMetricFrom("mfu")->kind, GateMetricKind::Mfu);
    }

    // The same inputs, the same interval (seeded: every call restarts from the seed).
    void deterministic() {
        std::vector<double> noisy;
        for (int i = 0; i < 40; ++i)
            noisy.push_back(100 + 3 * std::sin(i * 1.7) + 0.01 * i);
        const RegressionGate gate;
        gate.compare({steps(12, 1)}, {steps(12, 2)}, true); // an earlier call changes nothing
        const auto a = gate.compare({noisy}, {steps(40, 103)}, true);
        const auto b = gate.compare({noisy}, {steps(40, 103)}, true);
        QCOMPARE(a.ci.lo, b.ci.lo);
        QCOMPARE(a.ci.hi, b.ci.hi);
    }
};

QTEST_APPLESS_MAIN(TestRegressionGate)
#include "tst_regressiongate.moc"
