// Release-note checks with verdicts (metrics/EnvironmentChecks): passed, failed (with the insight
// Insights raises) or not checked when the metadata is missing, for each check and the boundaries the
// release notes state.
#include "TestTraces.h"

#include "ingest/IngestPipeline.h"
#include "requests/InsightsRequest.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

Q_DECLARE_METATYPE(CheckVerdict)

class TestEnvironmentChecks : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int runs_ = 0;

    // The verdict of check `index` (0 NCCL interface, 1 driver, 2 DeepSpeed) for a run with this metadata.
    EnvironmentCheck check(int index, const std::vector<std::pair<std::string, std::string>>& env,
                           const std::string& driver = {}, const std::string& cuda = {}) {
        Workspace ws(dir_.filePath("checks.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        auto t = testing::steppedTrace("run" + std::to_string(++runs_), "C", {1'000'000});
        t.info.env = env;
        t.info.driverVersion = driver;
        t.info.cudaVersion = cuda;
        const RunId run = addTrace(ws, std::move(t));
        return checkEnvironment(ws, ws.runOrThrow(run)).at(static_cast<std::size_t>(index));
    }

private slots:
    void verdicts_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<QStringList>("env"); // NAME=VALUE
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<CheckVerdict>("verdict");
        using V = CheckVerdict;
        QTest::newRow("ifname not recorded") << 0 << QStringList{} << ""
                                             << "" << V::NotChecked;
        QTest::newRow("ifname eth0, 8 GPUs")
            << 0 << QStringList{"NCCL_SOCKET_IFNAME=eth0", "LOCAL_WORLD_SIZE=8"} << ""
            << "" << V::Passed;
        QTest::newRow("ifname eth0, 16 GPUs")
            << 0 << QStringList{"NCCL_SOCKET_IFNAME=eth0", "LOCAL_WORLD_SIZE=16"} << ""
            << "" << V::Failed;
        QTest::newRow("ifname hpn0, 16 GPUs")
            << 0 << QStringList{"NCCL_SOCKET_IFNAME=hpn0", "LOCAL_WORLD_SIZE=16"} << ""
            << "" << V::Passed;
        QTest::newRow("ifname, 3 GPUs: no rule")
            << 0 << QStringList{"NCCL_SOCKET_IFNAME=eth1", "CUDA_VISIBLE_DEVICES=0,1,2"} << ""
            << "" << V::NotChecked;
        QTest::newRow("driver 580 for CUDA 13") << 1 << QStringList{} << "580.65"
                                                << "13.0.2" << V::Passed;
        QTest::newRow("driver 579 for CUDA 13") << 1 << QStringList{} << "579.99"
                                                << "13.0" << V::Failed;
        QTest::newRow("driver 575 for CUDA 12.8") << 1 << QStringList{} << "575.1"
                                                  << "12.8" << V::Passed;
        QTest::newRow("driver 570 for CUDA 12.8") << 1 << QStringList{} << "570.1"
                                                  << "12080" << V::Failed;
        QTest::newRow("CUDA 12.4: no rule") << 1 << QStringList{} << "535.1"
                                            << "12.4" << V::NotChecked;
        QTest::newRow("driver as CUDA API version") << 1 << QStringList{} << "13.0"
                                                    << "13.0" << V::NotChecked;
        QTest::newRow("bucket not recorded") << 2 << QStringList{} << ""
                                             << "" << V::NotChecked;
        QTest::newRow("bucket auto") << 2 << QStringList{"zero_optimization.stage3_prefetch_bucket_size=auto"}
                                     << ""
                                     << "" << V::Passed;
        QTest::newRow("bucket fixed")
            << 2 << QStringList{"zero_optimization.stage3_prefetch_bucket_size=5e8"} << ""
            << "" << V::Failed;
        QTest::newRow("bucket null in JSON")
            << 2
            << QStringList{"DEEPSPEED_CONFIG={\"zero_optimization\":{\"stage3_prefetch_bucket_size\":null}}"}
            << ""
            << "" << V::Passed;
        QTest::newRow("bucket number in JSON")
            << 2
            << QStringList{"DEEPSPEED_CONFIG={\"zero_optimization\":{\"stage3_prefetch_bucket_size\":1000}}"}
            << ""
            << "" << V::Failed;
    }
    void verdicts() {
        QFETCH(int, index);
        QFETCH(QStringList, env);
        QFETCH(QString, driver);
        QFETCH(QString, cuda);
        QFETCH(CheckVerdict, verdict);
        std::vector<std::pair<std::string, std::string>> e;
        for (const auto& kv : env)
            e.emplace_back(kv.section('=', 0, 0).toStdString(), kv.section('=', 1).toStdString());
        const auto c = check(index, e, driver.toStdString(), cuda.toStdString());
        QCOMPARE(c.verdict, verdict);
        QCOMPARE(c.failure.has_value(), verdict == CheckVerdict::Failed); // the insight exactly on failure
        if (c.failure)
            QCOMPARE(c.failure->id, c.id);
        QVERIFY(!c.requirement.empty());
    }
};

QTEST_APPLESS_MAIN(TestEnvironmentChecks)
#include "tst_environmentchecks.moc"
