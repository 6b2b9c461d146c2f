// ImageReference: image references as the engines and Kubernetes accept them, and values that are options
// or otherwise not images (issue 28: `image: "--privileged"` reached podman as an option).
#include "plan/ImageReference.h"

#include <QtTest>

using namespace cnp::plan;

class TestImageReference : public QObject {
    Q_OBJECT

private slots:
    void references_data() {
        QTest::addColumn<QString>("image");
        QTest::addColumn<bool>("valid");
        QTest::newRow("name") << "ubuntu" << true;
        QTest::newRow("name:tag") << "golden:26.02" << true;
        QTest::newRow("registry/path:tag") << "nvcr.io/nvidia/pytorch:25.01-py3" << true;
        QTest::newRow("registry:port") << "registry.local:5000/team/train:v1" << true;
        QTest::newRow("localhost") << "localhost/cnp-test:1" << true;
        QTest::newRow("digest")
            << "nvidia/cuda@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" << true;
        QTest::newRow("tag and digest")
            << "nvidia/"
               "cuda:12.8.0-devel-ubuntu22.04@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123"
               "456789abcdef"
            << true;
        QTest::newRow("separators") << "a__b/c-d--e/f.g:1_x" << true;
        QTest::newRow("an option") << "--privileged" << false;
        QTest::newRow("a volume option") << "-v=/:/host" << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("space") << "ubuntu latest" << false;
        QTest::newRow("upper-case path") << "Ubuntu" << false;
        QTest::newRow("empty tag") << "ubuntu:" << false;
        QTest::newRow("short digest") << "ubuntu@sha256:abc" << false;
        QTest::newRow("leading separator") << "_ubuntu" << false;
        QTest::newRow("trailing slash") << "nvcr.io/" << false;
        QTest::newRow("tag too long") << "a:" + QString(129, 'x') << false;
        QTest::newRow("name too long") << QString(256, 'a') << false;
    }
    void references() {
        QFETCH(QString, image);
        QFETCH(bool, valid);
        const std::string why = imageReferenceProblem(image.toStdString());
        QVERIFY2(why.empty() == valid, why.c_str());
    }
};

QTEST_APPLESS_MAIN(TestImageReference)
#include "tst_imagereference.moc"
