// The collector's memory budget (issue 14): cgroup v1/v2 limits and MemAvailable read from a fake
// /proc and /sys tree, the pool shrunk to a quarter of the headroom with a warning naming the settings
// and the limits, the job left untraced when not even the smallest pool fits, and invalid buffer
// settings named in their warning.
#include "CollectorConfig.h"
#include "MemoryBudget.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::collector;

namespace {

constexpr quint64 kMiB = 1u << 20, kGiB = 1u << 30;

// Writes `files` ("relative/path" -> content) under `dir`.
void writeTree(const QTemporaryDir& dir, const QMap<QString, QString>& files) {
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QString path = dir.filePath(it.key());
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(it.value().toUtf8());
    }
}

MemoryLimits limits(quint64 available, quint64 limit, quint64 usage) {
    MemoryLimits m;
    m.memAvailable = available;
    m.cgroupLimit = limit;
    m.cgroupUsage = usage;
    m.cgroupFile = limit ? "/sys/fs/cgroup/job/memory.max" : "";
    return m;
}

} // namespace

using Tree = QMap<QString, QString>;
Q_DECLARE_METATYPE(Tree)
Q_DECLARE_METATYPE(MemoryLimits)

class TestMemoryBudget : public QObject {
    Q_OBJECT

private slots:
    void readLimits_data() {
        QTest::addColumn<Tree>("tree");
        QTest::addColumn<quint64>("available");
        QTest::addColumn<quint64>("limit");
        QTest::addColumn<quint64>("usage");
        QTest::addColumn<QString>("file");
        const QString meminfo = "MemTotal:       24576000 kB\nMemFree: 100 kB\nMemAvailable:   10485760 kB\n";
        QTest::newRow("v2, the parent's limit is the tightest")
            << Tree{{"proc/meminfo", meminfo},
                    {"proc/self/cgroup", "0::/job/step\n"},
                    {"sys/fs/cgroup/job/memory.max", "1610612736\n"},
                    {"sys/fs/cgroup/job/step/memory.max", "max\n"},
                    {"sys/fs/cgroup/job/step/memory.current", "1073741824\n"}}
            << 10 * kGiB << quint64(1536) * kMiB << kGiB << "/sys/fs/cgroup/job/memory.max";
        QTest::newRow("v2 in a cgroup namespace (container)")
            << Tree{{"proc/meminfo", meminfo},
                    {"proc/self/cgroup", "0::/\n"},
                    {"sys/fs/cgroup/memory.max", "2147483648\n"},
                    {"sys/fs/cgroup/memory.current", "52428800\n"}}
            << 10 * kGiB << 2 * kGiB << 50 * kMiB << "/sys/fs/cgroup/memory.max";
        QTest::newRow("v1 memory controller, unlimited parent")
            << Tree{{"proc/meminfo", meminfo},
                    {"proc/self/cgroup", "12:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/other\n"},
                    {"sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n"},
                    {"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "536870912\n"},
                    {"sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes", "104857600\n"}}
            << 10 * kGiB << 512 * kMiB << 100 * kMiB
            << "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes";
        QTest::newRow("no cgroup limit")
            << Tree{{"proc/meminfo", meminfo}, {"proc/self/cgroup", "0::/user\n"}} << 10 * kGiB << quint64(0)
            << quint64(0) << "";
        QTest::newRow("garbage everywhere") << Tree{{"proc/meminfo", "MemAvailable: lots\n"},
                                                    {"proc/self/cgroup", "nonsense"},
                                                    {"sys/fs/cgroup/memory.max", "-5\n"}}
                                            << quint64(0) << quint64(0) << quint64(0) << "";
        QTest::newRow("nothing readable") << Tree{} << quint64(0) << quint64(0) << quint64(0) << "";
    }
    void readLimits() {
        QFETCH(Tree, tree);
        QFETCH(quint64, available);
        QFETCH(quint64, limit);
        QFETCH(quint64, usage);
        QFETCH(QString, file);
        QTemporaryDir dir;
        writeTree(dir, tree);
        const MemoryLimits m = readMemoryLimits(dir.path().toStdString());
        QCOMPARE(quint64(m.memAvailable), available);
        QCOMPARE(quint64(m.cgroupLimit), limit);
        QCOMPARE(quint64(m.cgroupUsage), usage);
        QCOMPARE(QString::fromStdString(m.cgroupFile), file);
    }

    void bound_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("kib");
        QTest::addColumn<MemoryLimits>("limits");
        QTest::addColumn<bool>("traced");
        QTest::addColumn<int>("expectedCount");
        QTest::addColumn<int>("expectedKib");
        QTest::addColumn<QString>("warning");
        // 1.5 GiB cgroup with 1 GiB in use: 512 MiB headroom, a 128 MiB budget.
        const MemoryLimits job = limits(10 * kGiB, 1536 * kMiB, kGiB);
        QTest::newRow("defaults fit") << 32 << 2048 << job << true << 32 << 2048 << "";
        QTest::newRow("documented maximum in a 1.5 GiB cgroup")
            << 1024 << (1 << 20) << job << true << 2 << 65536
            << "CNP_BUFFER_COUNT=1024 x CNP_BUFFER_KB=1048576 (1024.00 GiB) exceeds the buffer budget of "
               "128.0 "
               "MiB (1/4 of the free memory: MemAvailable 10.00 GiB, cgroup /sys/fs/cgroup/job/memory.max "
               "1.50 GiB with 1.00 GiB in use); using 2 buffers of 65536 KiB";
        QTest::newRow("fewer buffers of the same size")
            << 1024 << 2048 << job << true << 64 << 2048 << "using 64 buffers of 2048 KiB";
        QTest::newRow("MemAvailable bounds without a cgroup")
            << 512 << 8192 << limits(2 * kGiB, 0, 0) << true << 64 << 8192
            << "(1/4 of the free memory: MemAvailable 2.00 GiB); using 64 buffers of 8192 KiB";
        QTest::newRow("nothing known: unchanged")
            << 1024 << 8192 << MemoryLimits{} << true << 1024 << 8192 << "";
        QTest::newRow("not even 2 x 64 KiB fits")
            << 32 << 2048 << limits(10 * kGiB, 1536 * kMiB, 1536 * kMiB - 256 * 1024) << false << 32 << 2048
            << "exceeds the buffer budget of 64 KiB";
        QTest::newRow("cgroup over its limit")
            << 32 << 2048 << limits(0, kGiB, 2 * kGiB) << false << 32 << 2048 << "; the job runs untraced";
    }
    void bound() {
        QFETCH(int, count);
        QFETCH(int, kib);
        QFETCH(MemoryLimits, limits);
        QFETCH(bool, traced);
        QFETCH(int, expectedCount);
        QFETCH(int, expectedKib);
        QFETCH(QString, warning);
        CollectorConfig c;
        c.bufferCount = static_cast<std::size_t>(count);
        c.bufferBytes = static_cast<std::size_t>(kib) * 1024;
        QCOMPARE(c.boundBuffers(limits), traced);
        QCOMPARE(int(c.bufferCount), expectedCount);
        QCOMPARE(int(c.bufferBytes / 1024), expectedKib);
        QCOMPARE(int(c.warnings.size()), warning.isEmpty() ? 0 : 1);
        if (!warning.isEmpty())
            QVERIFY2(QString::fromStdString(c.warnings[0]).contains(warning), c.warnings[0].c_str());
        const auto budget = poolBudget(limits);
        if (traced && budget) // never more than the budget
            QVERIFY(std::uint64_t(c.bufferCount) * c.bufferBytes <= *budget);
    }

    // Issue 33.8: every rank on a node took its pool from the same free memory (1,024 x 2 MiB buffers in
    // each of eight ranks: about 90 % of RAM); the budget is shared among the local ranks, and the warning
    // says so. The local world size comes from the launchers' variables.
    void sharedAmongLocalRanks_data() {
        QTest::addColumn<QByteArray>("var");
        QTest::addColumn<int>("expectedCount"); // of 1,024 x 2048 KiB with 10 GiB available: 2.5 GiB budget
        QTest::addColumn<QString>("warning");
        QTest::newRow("one rank") << QByteArray("LOCAL_WORLD_SIZE=1") << 1024 << "";
        QTest::newRow("torchrun, 8 local ranks")
            << QByteArray("LOCAL_WORLD_SIZE=8") << 160
            << "CNP_BUFFER_COUNT=1024 x CNP_BUFFER_KB=2048 (2.00 GiB) exceeds the buffer budget of 320.0 MiB "
               "(1/4 of the free memory shared among 8 local ranks: MemAvailable 10.00 GiB); using 160 "
               "buffers "
               "of 2048 KiB";
        QTest::newRow("Open MPI, 4 local ranks")
            << QByteArray("OMPI_COMM_WORLD_LOCAL_SIZE=4") << 320 << "shared among 4 local ranks";
        QTest::newRow("nonsense: 1 rank") << QByteArray("LOCAL_WORLD_SIZE=-3") << 1024 << "";
    }
    void sharedAmongLocalRanks() {
        QFETCH(QByteArray, var);
        QFETCH(int, expectedCount);
        QFETCH(QString, warning);
        QByteArray count("CNP_BUFFER_COUNT=1024");
        char* env[] = {var.data(), count.data(), nullptr};
        CollectorConfig c = CollectorConfig::fromEnvironment(env);
        QVERIFY(c.warnings.empty());
        QVERIFY(c.boundBuffers(limits(10 * kGiB, 0, 0)));
        QCOMPARE(int(c.bufferCount), expectedCount);
        QCOMPARE(int(c.bufferBytes >> 10), 2048);
        QCOMPARE(int(c.warnings.size()), warning.isEmpty() ? 0 : 1);
        if (!warning.isEmpty())
            QVERIFY2(QString::fromStdString(c.warnings[0]).contains(warning), c.warnings[0].c_str());
    }

    void invalidSettingsAreNamed_data() {
        QTest::addColumn<QByteArray>("var");
        QTest::addColumn<QString>("warning");
        QTest::newRow("count not a number")
            << QByteArray("CNP_BUFFER_COUNT=lots")
            << "CNP_BUFFER_COUNT='lots' is not a number in [2, 1024]; using 32";
        QTest::newRow("count too large") << QByteArray("CNP_BUFFER_COUNT=4096")
                                         << "CNP_BUFFER_COUNT='4096' is not a number in [2, 1024]; using 32";
        QTest::newRow("size overflows long")
            << QByteArray("CNP_BUFFER_KB=99999999999999999999")
            << "CNP_BUFFER_KB='99999999999999999999' is not a number in [64, "
               "1048576]; using 2048";
        QTest::newRow("size with a unit")
            << QByteArray("CNP_BUFFER_KB=2M")
            << "CNP_BUFFER_KB='2M' is not a number in [64, 1048576]; using 2048";
    }
    void invalidSettingsAreNamed() {
        QFETCH(QByteArray, var);
        QFETCH(QString, warning);
        char* env[] = {var.data(), nullptr};
        const auto c = CollectorConfig::fromEnvironment(env);
        QCOMPARE(int(c.warnings.size()), 1);
        QCOMPARE(QString::fromStdString(c.warnings[0]), warning);
    }
};

QTEST_APPLESS_MAIN(TestMemoryBudget)
#include "tst_memorybudget.moc"
