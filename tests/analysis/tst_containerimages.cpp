// ContainerImages: what `ENGINE image inspect --format '{{.Id}} {{json .RepoDigests}}'` says of an image,
// read back into the run attributes launch.image_id and launch.image_digest (issue 28: images were recorded
// by tag only). Podman prints the bare ID hex, docker "sha256:…"; an image imported or built here has no
// registry digest (docker: [] or null). The live engine is exercised by tst_launchpodman.
#include "launch/ContainerImages.h"

#include <QtTest>

using namespace cnp::launch;

namespace {
const QString kHex = "2d5ac30d1eec6105859b16a96a0b4a41ef050495f4aea5a74e5e57730b9b7433";
const QString kId = "f1d44e78efe6e053e54deeb6a6d76160ca44b87eb17acb901dd686f8c3aeeef1";
} // namespace

class TestContainerImages : public QObject {
    Q_OBJECT

private slots:
    void inspectOutput_data() {
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("output");
        QTest::addColumn<bool>("present");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("digest");
        QTest::newRow("podman, imported")
            << "localhost/h28mini:1" << kId + " [\"localhost/h28mini@sha256:" + kHex + "\"]\n"
            << true << "sha256:" + kId << "localhost/h28mini@sha256:" + kHex;
        QTest::newRow("docker, pulled, its own repository first")
            << "nvcr.io/nvidia/pytorch:25.01-py3"
            << "sha256:" + kId + " [\"mirror.local/pytorch@sha256:" + kId +
                   "\",\"nvcr.io/nvidia/pytorch@sha256:" + kHex + "\"]\n"
            << true << "sha256:" + kId << "nvcr.io/nvidia/pytorch@sha256:" + kHex;
        QTest::newRow("another repository only")
            << "ubuntu:22.04"
            << "sha256:" + kId + " [\"docker.io/library/ubuntu@sha256:" + kHex + "\"]" << true
            << "sha256:" + kId << "docker.io/library/ubuntu@sha256:" + kHex;
        QTest::newRow("registry with a port")
            << "registry.local:5000/team/train:v1"
            << "sha256:" + kId + " [\"registry.local:5000/team/train@sha256:" + kHex + "\"]" << true
            << "sha256:" + kId << "registry.local:5000/team/train@sha256:" + kHex;
        QTest::newRow("docker, built here") << "cnp-test:1"
                                            << "sha256:" + kId + " []\n"
                                            << true << "sha256:" + kId << "";
        QTest::newRow("docker, null") << "cnp-test:1"
                                      << "sha256:" + kId + " null\n"
                                      << true << "sha256:" + kId << "";
        QTest::newRow("nothing") << "cnp-test:1"
                                 << "" << false << ""
                                 << "";
    }
    void inspectOutput() {
        QFETCH(QString, image);
        QFETCH(QString, output);
        QFETCH(bool, present);
        QFETCH(QString, id);
        QFETCH(QString, digest);
        const ImageFacts f = parseImageInspect(output.toStdString(), image.toStdString());
        QCOMPARE(f.present, present);
        QCOMPARE(QString::fromStdString(f.id), id);
        QCOMPARE(QString::fromStdString(f.repoDigest), digest);
    }
};

QTEST_APPLESS_MAIN(TestContainerImages)
#include "tst_containerimages.moc"
