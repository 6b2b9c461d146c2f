// CNP_CAPTURE parsing and step-name matching (CaptureSpec), and the collector's reading of its environment
// (CollectorConfig): launcher rank variables, the env allow-list, output file names, bad values.
#include "CaptureSpec.h"
#include "CollectorConfig.h"

#include <QtTest>

using namespace cnp::collector;

Q_DECLARE_METATYPE(CaptureSpec::Mode)

namespace {

// A NULL-terminated environ built from "K=V" strings (storage owned by the caller's list).
std::vector<char*> makeEnviron(QList<QByteArray>& storage) {
    std::vector<char*> out;
    for (auto& s : storage)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

} // namespace

class TestCaptureSpec : public QObject {
    Q_OBJECT

private slots:
    void parse_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<CaptureSpec::Mode>("mode");
        QTest::addColumn<double>("delay");
        QTest::addColumn<double>("duration");
        QTest::addColumn<int>("start");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("canonical"); // describe(); "" when refused
        using M = CaptureSpec::Mode;
        QTest::newRow("empty = all") << "" << M::All << 0.0 << 0.0 << 0 << 0 << "step"
                                     << "all";
        QTest::newRow("all") << "all" << M::All << 0.0 << 0.0 << 0 << 0 << "step"
                             << "all";
        QTest::newRow("time delay only") << "time:30" << M::Time << 30.0 << 0.0 << 0 << 0 << "step"
                                         << "time:30:0";
        QTest::newRow("time delay+duration") << "time:2.5:10" << M::Time << 2.5 << 10.0 << 0 << 0 << "step"
                                             << "time:2.5:10";
        QTest::newRow("steps default prefix") << "steps:10:5" << M::Steps << 0.0 << 0.0 << 10 << 5 << "step"
                                              << "steps:10:5:step";
        QTest::newRow("steps custom prefix")
            << "steps:3:2:ProfilerStep" << M::Steps << 0.0 << 0.0 << 3 << 2 << "ProfilerStep"
            << "steps:3:2:ProfilerStep";
        QTest::newRow("refused: unknown mode") << "window:1" << M::All << 0.0 << 0.0 << 0 << 0 << "step"
                                               << "";
        QTest::newRow("refused: negative delay") << "time:-1" << M::All << 0.0 << 0.0 << 0 << 0 << "step"
                                                 << "";
        QTest::newRow("refused: steps without count") << "steps:4" << M::All << 0.0 << 0.0 << 0 << 0 << "step"
                                                      << "";
        QTest::newRow("refused: non-numeric step") << "steps:a:2" << M::All << 0.0 << 0.0 << 0 << 0 << "step"
                                                   << "";
        QTest::newRow("refused: empty prefix") << "steps:1:2:" << M::All << 0.0 << 0.0 << 0 << 0 << "step"
                                               << "";
    }
    void parse() {
        QFETCH(QString, text);
        QFETCH(CaptureSpec::Mode, mode);
        QFETCH(double, delay);
        QFETCH(double, duration);
        QFETCH(int, start);
        QFETCH(int, count);
        QFETCH(QString, prefix);
        QFETCH(QString, canonical);
        const auto c = CaptureSpec::parse(text.toStdString());
        QCOMPARE(c.mode, mode);
        QCOMPARE(c.delaySeconds, delay);
        QCOMPARE(c.durationSeconds, duration);
        QCOMPARE(c.startStep, long(start));
        QCOMPARE(c.stepCount, long(count));
        QCOMPARE(QString::fromStdString(c.stepPrefix), prefix);
        QCOMPARE(c.error.empty(), !canonical.isEmpty());
        if (!canonical.isEmpty()) {
            QCOMPARE(QString::fromStdString(c.describe()), canonical);
            QCOMPARE(CaptureSpec::parse(c.describe()).describe(), c.describe()); // canonical text parses back
        } else {
            QVERIFY(QString::fromStdString(c.error).contains(text));
        }
    }

    void matchStep_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<bool>("matches");
        QTest::addColumn<int>("step");
        QTest::newRow("step 12") << "step 12"
                                 << "step" << true << 12;
        QTest::newRow("step_3") << "step_3"
                                << "step" << true << 3;
        QTest::newRow("ProfilerStep#7") << "ProfilerStep#7"
                                        << "ProfilerStep" << true << 7;
        QTest::newRow("step0") << "step0"
                               << "step" << true << 0;
        QTest::newRow("no number") << "step"
                                   << "step" << false << 0;
        QTest::newRow("trailing text") << "step 4 fwd"
                                       << "step" << false << 0;
        QTest::newRow("other name") << "forward"
                                    << "step" << false << 0;
        QTest::newRow("case differs") << "Step 1"
                                      << "step" << false << 0;
    }
    void matchStep() {
        QFETCH(QString, name);
        QFETCH(QString, prefix);
        QFETCH(bool, matches);
        QFETCH(int, step);
        long n = -1;
        QCOMPARE(CaptureSpec::matchStep(name.toStdString(), prefix.toStdString(), n), matches);
        if (matches)
            QCOMPARE(n, long(step));
    }

    void configFromEnvironment_data() {
        QTest::addColumn<QStringList>("vars");
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("localRank");
        QTest::addColumn<int>("worldSize");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QStringList>("keptEnv");
        QTest::addColumn<int>("warnings");
        QTest::newRow("no launcher") << QStringList{"HOME=/root", "AWS_SECRET_ACCESS_KEY=x"} << -1 << -1 << -1
                                     << "out/host-77.cnpt" << QStringList{} << 0;
        QTest::newRow("torchrun") << QStringList{"RANK=3",          "LOCAL_RANK=1",
                                                 "WORLD_SIZE=8",    "NCCL_SOCKET_IFNAME=eth0",
                                                 "HF_TOKEN=secret", "CNP_OUTPUT_DIR=/tmp/t/"}
                                  << 3 << 1 << 8 << "/tmp/t/host-77-r3.cnpt"
                                  << QStringList{"LOCAL_RANK", "NCCL_SOCKET_IFNAME", "RANK", "WORLD_SIZE"}
                                  << 0;
        QTest::newRow("Open MPI") << QStringList{"OMPI_COMM_WORLD_RANK=5", "OMPI_COMM_WORLD_LOCAL_RANK=1",
                                                 "OMPI_COMM_WORLD_SIZE=16"}
                                  << 5 << 1 << 16 << "out/host-77-r5.cnpt" << QStringList{} << 0;
        QTest::newRow("Slurm") << QStringList{"SLURM_PROCID=2", "SLURM_LOCALID=0", "SLURM_NTASKS=4"} << 2 << 0
                               << 4 << "out/host-77-r2.cnpt" << QStringList{} << 0;
        QTest::newRow("bad numbers fall back")
            << QStringList{"CNP_FLUSH_MS=soon", "CNP_BUFFER_KB=1", "CNP_DRIVER_API=some",
                           "CNP_CAPTURE=steps:x", "CNP_RUNTIME_API=loud"}
            << -1 << -1 << -1 << "out/host-77.cnpt" << QStringList{} << 5;
    }
    void configFromEnvironment() {
        QFETCH(QStringList, vars);
        QFETCH(int, rank);
        QFETCH(int, localRank);
        QFETCH(int, worldSize);
        QFETCH(QString, fileName);
        QFETCH(QStringList, keptEnv);
        QFETCH(int, warnings);
        QList<QByteArray> storage;
        if (!vars.join(' ').contains("CNP_OUTPUT_DIR"))
            storage.append("CNP_OUTPUT_DIR=out");
        for (const auto& v : vars)
            storage.append(v.toUtf8());
        auto env = makeEnviron(storage);
        const auto c = CollectorConfig::fromEnvironment(env.data());
        QCOMPARE(c.rank, rank);
        QCOMPARE(c.localRank, localRank);
        QCOMPARE(c.worldSize, worldSize);
        QCOMPARE(QString::fromStdString(c.outputPath("host", 77)), fileName);
        QStringList kept;
        for (const auto& [k, v] : c.allowedEnv)
            kept << QString::fromStdString(k);
        QCOMPARE(kept, keptEnv);
        QCOMPARE(int(c.warnings.size()), warnings);
        if (warnings) { // every bad value fell back to its default
            QCOMPARE(c.flushMs, 2000u);
            QCOMPARE(c.bufferBytes, std::size_t(2048) * 1024);
            QCOMPARE(c.driverApi, CollectorConfig::DriverApi::Launch);
            QCOMPARE(c.capture.mode, CaptureSpec::Mode::All);
            QVERIFY(!c.allRuntimeApis);
        }
    }

    // The hostile-input campaign (issue 33, round two): a bad value was quoted raw in the warning the
    // collector prints on the job's stderr, so `CNP_BUFFER_KB=$'\e[2J'` cleared the user's terminal and a
    // megabyte value was printed whole. Every control byte is shown as '?' and a value is cut to 64 bytes.
    void warningsShowValuesSafely_data() {
        QTest::addColumn<QByteArray>("var");
        QTest::addColumn<QString>("warning");
        QTest::newRow("escape in CNP_BUFFER_KB")
            << QByteArray("CNP_BUFFER_KB=\x1b[2J")
            << "CNP_BUFFER_KB='?[2J' is not a number in [64, 1048576]; using 2048";
        QTest::newRow("OSC title and BEL in CNP_FLUSH_MS")
            << QByteArray("CNP_FLUSH_MS=\x1b]0;pwned\x07")
            << "CNP_FLUSH_MS='?]0;pwned?' is not a number in [50, 3600000]; using 2000";
        QTest::newRow("newline and C1 CSI in CNP_DRIVER_API")
            << QByteArray("CNP_DRIVER_API=a\nb\xc2\x9b"
                          "31m")
            << "CNP_DRIVER_API='a?b?31m' is not launch, all or none; using launch";
        QTest::newRow("DEL and tab in CNP_RUNTIME_API")
            << QByteArray("CNP_RUNTIME_API=\x7f\tx")
            << "CNP_RUNTIME_API='??x' is not quiet or all; using quiet";
        QTest::newRow("a megabyte CNP_BUFFER_COUNT")
            << QByteArray("CNP_BUFFER_COUNT=") + QByteArray(1 << 20, '7')
            << "CNP_BUFFER_COUNT='" + QString(64, '7') + "...' is not a number in [2, 1024]; using 32";
    }
    void warningsShowValuesSafely() {
        QFETCH(QByteArray, var);
        QFETCH(QString, warning);
        QList<QByteArray> storage{"CNP_OUTPUT_DIR=out", var};
        auto env = makeEnviron(storage);
        const auto c = CollectorConfig::fromEnvironment(env.data());
        QCOMPARE(int(c.warnings.size()), 1);
        QCOMPARE(QString::fromStdString(c.warnings.front()), warning);
    }
};

QTEST_GUILESS_MAIN(TestCaptureSpec)
#include "tst_capturespec.moc"
