// The known-GPU peak table (analysis/metrics/GpuPeakFlops): the GPU model names drivers report map to the
// datasheet's dense BF16 figure (half of NVIDIA's "with sparsity" figure; AMD prints dense figures).
#include "metrics/GpuPeakFlops.h"

#include <QtTest>

using namespace cnp;

class TestGpuPeakFlops : public QObject {
    Q_OBJECT
private slots:
    void lookup_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("name"); // empty: unknown GPU
        QTest::addColumn<double>("peak");
        // nvidia-smi / torch.cuda.get_device_name() spellings.
        QTest::newRow("H100 SXM") << "NVIDIA H100 80GB HBM3"
                                  << "NVIDIA H100 SXM" << 989.4e12; // 1979 / 2
        QTest::newRow("H100 PCIe") << "NVIDIA H100 PCIe"
                                   << "NVIDIA H100 PCIe" << 756e12; // 1513 / 2
        QTest::newRow("H100 NVL") << "NVIDIA H100 NVL"
                                  << "NVIDIA H100 NVL" << 835e12; // 1671 / 2
        QTest::newRow("H200") << "NVIDIA H200"
                              << "NVIDIA H200 SXM" << 989.4e12; // 1979 / 2
        QTest::newRow("A100 SXM") << "NVIDIA A100-SXM4-80GB"
                                  << "NVIDIA A100" << 312e12; // 624 / 2
        QTest::newRow("A100 PCIe lower case") << "nvidia a100-pcie-40gb"
                                              << "NVIDIA A100" << 312e12;
        QTest::newRow("MI250X") << "AMD Instinct MI250X"
                                << "AMD Instinct MI250X" << 383e12;
        // ROCm's name for both variants takes the higher peak: a default never overstates MFU.
        QTest::newRow("MI250X / MI250") << "AMD Instinct MI250X / MI250"
                                        << "AMD Instinct MI250X" << 383e12;
        QTest::newRow("MI250") << "AMD Instinct MI250"
                               << "AMD Instinct MI250" << 362.1e12;
        QTest::newRow("unknown") << "NVIDIA GeForce RTX 4090"
                                 << "" << 0.0;
        QTest::newRow("empty") << ""
                               << "" << 0.0;
    }
    void lookup() {
        QFETCH(QString, model);
        QFETCH(QString, name);
        QFETCH(double, peak);
        const GpuPeakFlops* g = gpuPeakFor(model.toStdString());
        if (name.isEmpty()) {
            QVERIFY(!g);
            return;
        }
        QVERIFY(g);
        QCOMPARE(QString::fromUtf8(g->name.data(), int(g->name.size())), name);
        QCOMPARE(g->denseBf16Flops, peak);
        QCOMPARE(gpuPeakNamed(g->name), g);
    }

    // Every pattern is found first by its own entry (no earlier, less specific pattern shadows it).
    void noShadowedEntry() {
        for (const GpuPeakFlops& g : knownGpuPeaks())
            QCOMPARE(gpuPeakFor(g.pattern), &g);
        QVERIFY(!gpuPeakNamed("NVIDIA B200"));
    }
};

QTEST_APPLESS_MAIN(TestGpuPeakFlops)
#include "tst_gpupeakflops.moc"
