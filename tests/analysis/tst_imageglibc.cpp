// ImageGlibc: the glibc an image's tag implies through the distribution it names (for lint's
// collector-glibc), and nothing for a tag that names none, or names one only as part of a longer word.
#include "plan/ImageGlibc.h"

#include <QtTest>

using namespace cnp::plan;

class TestImageGlibc : public QObject {
    Q_OBJECT

private slots:
    void fromImage_data() {
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("distribution"); // "" = unknown
        QTest::addColumn<int>("minor");
        QTest::newRow("nvidia/cuda ubuntu18.04") << "nvidia/cuda:11.8.0-devel-ubuntu18.04"
                                                 << "ubuntu18.04" << 27;
        QTest::newRow("ubuntu22.04 in the middle") << "nvidia/cuda:12.8.0-ubuntu22.04-extra"
                                                   << "ubuntu22.04" << 35;
        QTest::newRow("centos7 with registry port") << "registry.local:5000/team/cuda:11.4.3-runtime-centos7"
                                                    << "centos7" << 17;
        QTest::newRow("ubi8 = RHEL 8: the floor") << "nvidia/cuda:12.4.1-base-ubi8"
                                                  << "ubi8" << 28;
        QTest::newRow("ubi9") << "nvcr.io/nvidia/cuda:13.0.0-runtime-ubi9"
                              << "ubi9" << 34;
        QTest::newRow("underscore separator") << "x/y:v1_ubuntu16.04"
                                              << "ubuntu16.04" << 23;
        QTest::newRow("digest after the tag")
            << "x/cuda:12-ubuntu18.04@sha256:" + QString(64, 'a') << "ubuntu18.04" << 27;
        QTest::newRow("ubi80 is not ubi8") << "x/y:ubi80"
                                           << "" << 0;
        QTest::newRow("name, not tag") << "ubuntu18.04/x:latest"
                                       << "" << 0;
        QTest::newRow("no tag") << "localhost:5000/ubuntu18.04"
                                << "" << 0;
        QTest::newRow("NGC tag says nothing") << "nvcr.io/nvidia/pytorch:25.01-py3"
                                              << "" << 0;
    }
    void fromImage() {
        QFETCH(QString, image);
        QFETCH(QString, distribution);
        QFETCH(int, minor);
        const auto g = glibcFromImage(image.toStdString());
        QCOMPARE(g.has_value(), !distribution.isEmpty());
        if (g) {
            QCOMPARE(QString::fromStdString(g->distribution), distribution);
            QCOMPARE(g->minor, minor);
        }
    }
};

QTEST_GUILESS_MAIN(TestImageGlibc)
#include "tst_imageglibc.moc"
