// MFU inputs (analysis/metrics/MfuInputs): stored in the workspace's meta, refused when hostile, and the
// precedence that picks each configuration's FLOPs per step and peak; MFU values by hand.
#include "core/InputError.h"
#include "requests/MfuRequest.h"

#include <QTemporaryDir>
#include <QtTest>

#include <limits>
#include <memory>

using namespace cnp;

namespace {
RunRecord run(double flopsPerStep, double peak, const std::string& gpu) {
    RunRecord r;
    r.info.flopsPerStep = flopsPerStep;
    r.info.peakFlops = peak;
    if (!gpu.empty())
        r.info.gpuModels = {gpu};
    return r;
}
} // namespace

class TestMfuInputs : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::unique_ptr<Workspace> ws;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = std::make_unique<Workspace>(dir.filePath("mfu.cnpdb").toStdString(),
                                         Workspace::Mode::CreateIfMissing);
    }

    void unsetIsZero() {
        const MfuInputs in = workspaceMfuInputs(*ws);
        QCOMPARE(in.flopsPerToken, 0.0);
        QCOMPARE(in.peakFlops, 0.0);
    }

    void roundTrip_data() {
        QTest::addColumn<double>("flopsPerToken");
        QTest::addColumn<double>("peak");
        QTest::newRow("both") << 6.2e9 << 989.4e12;
        QTest::newRow("odd digits") << 123456789.125 << 3.621e14;
        QTest::newRow("peak only") << 0.0 << 312e12;
        QTest::newRow("cleared") << 0.0 << 0.0;
    }
    void roundTrip() {
        QFETCH(double, flopsPerToken);
        QFETCH(double, peak);
        storeMfuInputs(*ws, {flopsPerToken, peak});
        // Another connection reads exactly what was stored (shortest round-trip text).
        const Workspace reader(ws->path(), Workspace::Mode::ReadOnly);
        const MfuInputs in = workspaceMfuInputs(reader);
        QCOMPARE(in.flopsPerToken, flopsPerToken);
        QCOMPARE(in.peakFlops, peak);
        QCOMPARE(QString::fromStdString(*reader.meta("mfu_peak_flops")).isEmpty(), peak == 0);
    }

    void refusesBadValues() {
        storeMfuInputs(*ws, {1e9, 1e15});
        QVERIFY_THROWS_EXCEPTION(InputError, storeMfuInputs(*ws, {-1, 1e15}));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 storeMfuInputs(*ws, {1e9, std::numeric_limits<double>::infinity()}));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 storeMfuInputs(*ws, {std::numeric_limits<double>::quiet_NaN(), 0}));
        const MfuInputs kept = workspaceMfuInputs(*ws); // nothing stored by a refused call
        QCOMPARE(kept.flopsPerToken, 1e9);
        QCOMPARE(kept.peakFlops, 1e15);
    }

    // Workspace content is input: a stored value that is not a number >= 0 is an error naming the file,
    // never silently 0 (the figure would vanish without a word) and never echoed back verbatim.
    void hostileMeta_data() {
        QTest::addColumn<QString>("value");
        QTest::newRow("text") << "lots";
        QTest::newRow("negative") << "-5";
        QTest::newRow("trailing") << "1e12; DROP TABLE runs";
        QTest::newRow("overflow") << "1e400";
        QTest::newRow("nan") << "nan";
    }
    // Issue 33: numbers outside the physical range (core/PhysicalBounds) are refused on read and store,
    // naming the key and the range: 1e300 FLOPs per token or peak FLOP/s made every MFU figure nonsense.
    void outOfRangeMeta_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("cause");
        QTest::newRow("flops per token 1e300")
            << "mfu_flops_per_token"
            << "1e300"
            << "meta 'mfu_flops_per_token': 1e+300 is outside the range of FLOPs per token (0 to 1e+16 FLOP)";
        QTest::newRow("peak 1e23")
            << "mfu_peak_flops"
            << "1e23"
            << "meta 'mfu_peak_flops': 1e+23 is outside the range of peak FLOP/s (0 to "
               "1e+22 FLOP/s)";
    }
    void outOfRangeMeta() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, cause);
        ws->setMeta(key.toStdString(), value.toStdString());
        try {
            workspaceMfuInputs(*ws);
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromUtf8(e.what()), QString::fromStdString(ws->path()) + ": " + cause);
        }
        ws->setMeta(key.toStdString(), "");
        const double v = value.toDouble();
        QVERIFY_THROWS_EXCEPTION(
            InputError, storeMfuInputs(*ws, key == "mfu_peak_flops" ? MfuInputs{0, v} : MfuInputs{v, 0}));
    }

    void hostileMeta() {
        QFETCH(QString, value);
        ws->setMeta("mfu_flops_per_token", value.toStdString());
        try {
            workspaceMfuInputs(*ws);
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(ws->path()));
            QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("mfu_flops_per_token")));
            QVERIFY(!QString::fromUtf8(e.what()).contains(value));
        }
        ws->setMeta("mfu_flops_per_token", "");
    }

    // Precedence: option, then workspace, then the runs, then (peak only) the known-GPU default.
    void precedence_data() {
        QTest::addColumn<double>("optFlops");
        QTest::addColumn<double>("optPeak");
        QTest::addColumn<double>("wsFlopsPerToken");
        QTest::addColumn<double>("wsPeak");
        QTest::addColumn<double>("tokens");
        QTest::addColumn<double>("runFlops");
        QTest::addColumn<double>("runPeak");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("flops");
        QTest::addColumn<QString>("flopsSource");
        QTest::addColumn<double>("peak");
        QTest::addColumn<QString>("peakSource");
        QTest::newRow("option wins") << 5e9 << 2e15 << 1e6 << 1e15 << 1000.0 << 7e9 << 3e15 << "NVIDIA H200"
                                     << 5e9 << "option" << 2e15 << "option";
        // 1e6 FLOPs/token x 1000 tokens = 1e9 FLOPs per step.
        QTest::newRow("workspace over run") << 0.0 << 0.0 << 1e6 << 1e15 << 1000.0 << 7e9 << 3e15 << "" << 1e9
                                            << "workspace" << 1e15 << "workspace";
        QTest::newRow("per token needs tokens")
            << 0.0 << 0.0 << 1e6 << 0.0 << 0.0 << 7e9 << 3e15 << "" << 7e9 << "run" << 3e15 << "run";
        QTest::newRow("H200 default") << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << 7e9 << 0.0 << "NVIDIA H200" << 7e9
                                      << "run" << 989.4e12 << "default";
        QTest::newRow("MI250 default")
            << 0.0 << 0.0 << 2e6 << 0.0 << 512.0 << 0.0 << 0.0 << "AMD Instinct MI250" << 1.024e9
            << "workspace" << 362.1e12 << "default";
        QTest::newRow("nothing known")
            << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << "NVIDIA T4" << 0.0 << "" << 0.0 << "";
    }
    void precedence() {
        QFETCH(double, optFlops);
        QFETCH(double, optPeak);
        QFETCH(double, wsFlopsPerToken);
        QFETCH(double, wsPeak);
        QFETCH(double, tokens);
        QFETCH(double, runFlops);
        QFETCH(double, runPeak);
        QFETCH(QString, gpu);
        QFETCH(double, flops);
        QFETCH(QString, flopsSource);
        QFETCH(double, peak);
        QFETCH(QString, peakSource);
        // The first run knows nothing; the second has the figures (first known wins, not first run).
        const RunRecord empty = run(0, 0, "");
        const RunRecord known = run(runFlops, runPeak, gpu.toStdString());
        const MfuBasis b =
            resolveMfuBasis(optFlops, optPeak, {wsFlopsPerToken, wsPeak}, tokens, {&empty, &known});
        QCOMPARE(b.flopsPerStep, flops);
        QCOMPARE(QString::fromStdString(b.flopsSource), flopsSource);
        QCOMPARE(b.peakFlops, peak);
        QCOMPARE(QString::fromStdString(b.peakSource), peakSource);
        QCOMPARE(b.defaultGpu.empty(), peakSource != QStringLiteral("default"));
    }

    void utilisation() {
        MfuBasis b;
        b.flopsPerStep = 4e12;
        b.peakFlops = 1e15;
        // 4e12 FLOPs in 0.01 s = 4e14 FLOP/s over 2 GPUs of 1e15 = 0.2.
        QCOMPARE(*modelFlopsUtilisation(b, 0.01, 2), 0.2);
        QCOMPARE(*modelFlopsUtilisation(b, 0.01, 0), 0.4); // world size 0 counts as one GPU
        QVERIFY(!modelFlopsUtilisation(b, 0, 1));
        b.peakFlops = 0;
        QVERIFY(!modelFlopsUtilisation(b, 0.01, 1));
    }
};

QTEST_APPLESS_MAIN(TestMfuInputs)
#include "tst_mfuinputs.moc"
