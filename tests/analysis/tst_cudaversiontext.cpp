// CudaVersionText: the one text form of a CUDA version integer (1000 * major + 10 * minor), shared by
// the Kineto, nsys and .cnpt importers. Expected texts worked out by hand.
#include "import/common/CudaVersionText.h"

#include <QtTest>

using namespace cnp;

class TestCudaVersionText : public QObject {
    Q_OBJECT
private slots:
    void fromInteger_data() {
        QTest::addColumn<qint64>("version");
        QTest::addColumn<QString>("text");
        QTest::newRow("12.4") << qint64(12040) << "12.4";
        QTest::newRow("13.0") << qint64(13000) << "13.0";
        QTest::newRow("11.8") << qint64(11080) << "11.8";
        QTest::newRow("12.10") << qint64(12100) << "12.10";
        QTest::newRow("patch digit dropped") << qint64(12045) << "12.4";
        QTest::newRow("zero is unknown") << qint64(0) << "";
        QTest::newRow("negative is unknown") << qint64(-12040) << "";
    }
    void fromInteger() {
        QFETCH(qint64, version);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(CudaVersionText::fromInteger(version)), text);
    }

    void fromText_data() {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("integer") << "12040"
                                 << "12.4";
        QTest::newRow("integer with zero fraction") << "13000.0"
                                                    << "13.0";
        QTest::newRow("smallest converted") << "1000"
                                            << "1.0";
        QTest::newRow("largest converted") << "999999"
                                           << "999.99";
        QTest::newRow("below 1000 kept") << "999"
                                         << "999";
        QTest::newRow("a million kept") << "1000000"
                                        << "1000000";
        QTest::newRow("dotted kept") << "12.4"
                                     << "12.4";
        QTest::newRow("words kept") << "unknown"
                                    << "unknown";
        QTest::newRow("empty kept") << ""
                                    << "";
    }
    void fromText() {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(QString::fromStdString(CudaVersionText::fromText(in.toStdString())), out);
    }
};

QTEST_GUILESS_MAIN(TestCudaVersionText)
#include "tst_cudaversiontext.moc"
