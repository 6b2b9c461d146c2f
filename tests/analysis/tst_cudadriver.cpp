// The CUDA-version / driver table of the cuda-driver lint rule, and reading CUDA from image names.
#include "plan/CudaDriver.h"

#include <QtTest>

using namespace cnp::plan;

class TestCudaDriver : public QObject {
    Q_OBJECT
private slots:
    void fromImage_data() {
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("cuda"); // "" = cannot be known
        QTest::newRow("nvidia/cuda") << "nvidia/cuda:12.8.0-devel-ubuntu22.04"
                                     << "12.8.0";
        QTest::newRow("registry/cuda") << "nvcr.io/nvidia/cuda:13.0.2-runtime"
                                       << "13.0.2";
        QTest::newRow("cudaX.Y in tag") << "pytorch/pytorch:2.9.0-cuda13.0-cudnn9-devel"
                                        << "13.0.0";
        QTest::newRow("cuXYZ wheel tag") << "ghcr.io/x/torch:2.9.0-cu130"
                                         << "13.0.0";
        QTest::newRow("cu128") << "torch:cu128"
                               << "12.8.0";
        QTest::newRow("NGC tag") << "nvcr.io/nvidia/pytorch:25.01-py3"
                                 << "";
        QTest::newRow("golden image") << "egslingjun/training-nv-pytorch:26.02"
                                      << "";
        QTest::newRow("no tag") << "nvidia/cuda"
                                << "";
        QTest::newRow("registry port, no tag") << "localhost:5000/cuda"
                                               << "";
        QTest::newRow("cu inside a word") << "x:docu1234"
                                          << "";
    }
    void fromImage() {
        QFETCH(QString, image);
        QFETCH(QString, cuda);
        const auto v = cudaVersionFromImage(image.toStdString());
        QCOMPARE(v ? QString::fromStdString(toString(*v)) : QString(), cuda);
    }

    void required_data() {
        QTest::addColumn<QString>("cuda");
        QTest::addColumn<int>("driver"); // 0 = no requirement known
        QTest::newRow("13.0.2") << "13.0.2" << 580;
        QTest::newRow("13.1 inherits 13.0's") << "13.1" << 580;
        QTest::newRow("12.8.0") << "12.8.0" << 575;
        QTest::newRow("12.9 inherits 12.8's") << "12.9.1" << 575;
        QTest::newRow("12.4 below the table") << "12.4.1" << 0;
    }
    void required() {
        QFETCH(QString, cuda);
        QFETCH(int, driver);
        const auto v = parseCudaVersion(cuda.toStdString());
        QVERIFY(v);
        QCOMPARE(requiredDriverMajor(*v).value_or(0), driver);
    }

    void parsing_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("three parts") << "13.0.2" << true;
        QTest::newRow("two parts") << "12.8" << true;
        QTest::newRow("one part") << "13" << false;
        QTest::newRow("trailing text") << "13.0.2x" << false;
        QTest::newRow("word") << "thirteen" << false;
    }
    void parsing() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(parseCudaVersion(text.toStdString()).has_value(), valid);
    }

    void driverMajors() {
        QCOMPARE(driverMajor("580.65.06").value_or(0), 580);
        QCOMPARE(driverMajor("575").value_or(0), 575);
        QVERIFY(!driverMajor("latest"));
        QVERIFY(!driverMajor("580x"));
    }
};

QTEST_APPLESS_MAIN(TestCudaDriver)
#include "tst_cudadriver.moc"
