// The one kernel statistics CSV layout (export/KernelStatsCsv), written by `cnp export --format csv`
// and the Kernels page: header, scope text, RFC 4180 quoting of kernel names, raw ns values. Expected
// bytes written by hand.
#include "core/InputError.h"
#include "export/KernelStatsCsv.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

namespace {
KernelStatRow quotedRow() {
    KernelStatRow r;
    r.name = "void k<a, \"b\">(int)";
    r.category = "gemm";
    r.count = 2;
    r.totalNs = 3000;
    r.minNs = 1000;
    r.maxNs = 2000;
    r.meanNs = 1500;
    r.medianNs = 1500;
    r.stddevNs = 500;
    r.percent = 12.5;
    return r;
}
const QByteArray kHeader =
    "scope,name,category,count,total_ns,mean_ns,median_ns,min_ns,max_ns,stddev_ns,percent\r\n";
} // namespace

class TestKernelStatsCsv : public QObject {
    Q_OBJECT
private slots:
    void rows_data() {
        QTest::addColumn<int>("scope");
        QTest::addColumn<QByteArray>("want");
        QTest::newRow("all ranks") << -1
                                   << kHeader +
                                          "all,\"void k<a, \"\"b\"\">(int)\",gemm,2,3000,1500,1500,1000,2000,"
                                          "500,12.5\r\n";
        QTest::newRow("one rank") << 3
                                  << kHeader +
                                         "rank 3,\"void k<a, \"\"b\"\">(int)\",gemm,2,3000,1500,1500,1000,"
                                         "2000,500,12.5\r\n";
    }
    void rows() {
        QFETCH(int, scope);
        QFETCH(QByteArray, want);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("k.csv"));
        const KernelStatRow r = quotedRow();
        QCOMPARE(KernelStatsCsv::write(path.toStdString(), scope, {&r}), std::int64_t(1));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), want);
    }
    void fractionalValuesReadBack() {
        KernelStatRow r = quotedRow();
        r.name = "k";
        r.meanNs = 1234.5;
        r.medianNs = 0.25;
        r.stddevNs = 1.0 / 3.0;
        r.percent = 100.0 / 3.0;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("k.csv"));
        KernelStatsCsv::write(path.toStdString(), -1, {&r});
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> fields = f.readAll().split('\n')[1].trimmed().split(',');
        QCOMPARE(fields.size(), 11);
        QCOMPARE(fields[5], QByteArray("1234.5"));
        QCOMPARE(fields[6], QByteArray("0.25"));
        QCOMPARE(fields[9].toDouble(), 1.0 / 3.0); // shortest text that reads back exactly
        QCOMPARE(fields[10].toDouble(), 100.0 / 3.0);
    }
    void noRowsIsHeaderOnly() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("k.csv"));
        QCOMPARE(KernelStatsCsv::write(path.toStdString(), -1, {}), std::int64_t(0));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), kHeader);
    }
    void unwritablePathNamesTheFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("missing/k.csv")).toStdString();
        try {
            KernelStatsCsv::write(path, -1, {});
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestKernelStatsCsv)
#include "tst_kernelstatscsv.moc"
