// EngineFailure: the cause of a failed `podman run` / `docker run`, from what the engine printed (issue 28:
// only "exit code 125" was shown). The podman lines are what podman 4.3.1 printed on this machine
// (a registry it cannot reach, a short name, an unknown flag, a CDI device that is not defined, a program
// missing from the image or not executable); the docker lines are docker 20.10's for the same causes.
#include "launch/EngineFailure.h"

#include <QtTest>

using namespace cnp::launch;

class TestEngineFailure : public QObject {
    Q_OBJECT

private slots:
    void causes_data() {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("cause");
        QTest::addColumn<bool>("everyJob");
        const QString pull =
            "Trying to pull localhost/nope:1...\n"
            "time=\"2026-12-05T02:16:20Z\" level=warning msg=\"Failed, retrying in 1s ... (1/3). "
            "Error: initializing source docker://localhost/nope:1: pinging container registry "
            "localhost: Get \\\"https://localhost/v2/\\\": dial tcp 127.0.0.1:443: connect: "
            "connection refused\"\n"
            "Error: initializing source docker://localhost/nope:1: pinging container registry "
            "localhost: Get \"https://localhost/v2/\": dial tcp 127.0.0.1:443: connect: connection "
            "refused\n";
        QTest::newRow("podman: registry unreachable")
            << "podman" << 125 << pull
            << "image localhost/nope:1 is not on this host and its registry cannot be reached: initializing "
               "source docker://localhost/nope:1: pinging container registry localhost: Get "
               "\"https://localhost/v2/\": dial tcp 127.0.0.1:443: connect: connection refused"
            << false;
        QTest::newRow("podman: short name")
            << "podman" << 125
            << "Error: short-name \"nope:1\" did not resolve to an alias and no unqualified-search "
               "registries are "
               "defined in \"/etc/containers/registries.conf\"\n"
            << "image localhost/nope:1 is not on this host and names no registry to pull it from (write it "
               "in "
               "full, e.g. docker.io/library/NAME:TAG, or load it: podman load)"
            << false;
        QTest::newRow("podman: pull denied")
            << "podman" << 125
            << "Trying to pull nvcr.io/nvidia/private:1...\nError: initializing source "
               "docker://nvcr.io/nvidia/private:1: reading manifest 1 in nvcr.io/nvidia/private: "
               "unauthorized: "
               "authentication required\n"
            << "pull denied for image localhost/nope:1: the registry refused it (log in with podman login "
               "REGISTRY, or the name is wrong): initializing source docker://nvcr.io/nvidia/private:1: "
               "reading "
               "manifest 1 in nvcr.io/nvidia/private: unauthorized: authentication required"
            << false;
        QTest::newRow("podman: tag not found")
            << "podman" << 125
            << "Error: initializing source docker://docker.io/library/ubuntu:99: reading manifest 99 in "
               "docker.io/library/ubuntu: manifest unknown: manifest unknown\n"
            << "image localhost/nope:1 not found in its registry (no such name or tag): initializing source "
               "docker://docker.io/library/ubuntu:99: reading manifest 99 in docker.io/library/ubuntu: "
               "manifest "
               "unknown: manifest unknown"
            << false;
        QTest::newRow("podman: unknown flag")
            << "podman" << 125 << "Error: unknown flag: --bogus\nSee 'podman run --help'\n"
            << "podman does not know the flag --bogus (it came from container.extraArgs or the GPU flags: "
               "container.gpuFlags, --gpu-flags)"
            << true;
        QTest::newRow("podman: CDI device not defined")
            << "podman" << 126
            << "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n"
            << "no GPU runtime: the CDI device nvidia.com/gpu=all is not defined on this host; generate the "
               "CDI "
               "specification (nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml), or use --gpus all"
            << true;
        QTest::newRow("podman: program not in the image")
            << "podman" << 127
            << "Error: runc: runc create failed: unable to start container process: exec: \"nosuch\": "
               "executable "
               "file not found in $PATH: OCI runtime attempted to invoke a command that was not found\n"
            << "the workload's program is not in image localhost/nope:1: runc: runc create failed: unable to "
               "start container process: exec: \"nosuch\": executable file not found in $PATH: OCI runtime "
               "attempted to invoke a command that was not found"
            << false;
        QTest::newRow("podman: program not executable")
            << "podman" << 126
            << "Error: runc: runc create failed: unable to start container process: exec: \"/etc\": "
               "permission "
               "denied: OCI permission denied\n"
            << "the workload's program cannot be executed in image localhost/nope:1: runc: runc create "
               "failed: "
               "unable to start container process: exec: \"/etc\": permission denied: OCI permission denied"
            << false;
        QTest::newRow("tini (--init): program not in the image")
            << "podman" << 127 << "[FATAL tini (6)] exec /no/such/program failed: No such file or directory\n"
            << "the workload's program is not in image localhost/nope:1: [FATAL tini (6)] exec "
               "/no/such/program "
               "failed: No such file or directory"
            << false;
        QTest::newRow("the workload's own 127")
            << "podman" << 127 << "sh: line 1: ./train.sh: No such file or directory\n"
            << "" << false;
        QTest::newRow("podman: another engine error")
            << "podman" << 125
            << "Error: creating container storage: the container name \"x\" is already in use\n"
            << "podman: creating container storage: the container name \"x\" is already in use" << false;
        QTest::newRow("docker: pull access denied")
            << "docker" << 125
            << "Unable to find image 'nope:1' locally\ndocker: Error response from daemon: pull access "
               "denied for "
               "nope, repository does not exist or may require 'docker login': denied: requested access to "
               "the "
               "resource is denied.\nSee 'docker run --help'.\n"
            << "pull denied for image localhost/nope:1: the registry refused it (log in with docker login "
               "REGISTRY, or the name is wrong): pull access denied for nope, repository does not exist or "
               "may "
               "require 'docker login': denied: requested access to the resource is denied"
            << false;
        QTest::newRow("docker: unknown flag")
            << "docker" << 125 << "unknown flag: --bogus\nSee 'docker run --help'.\n"
            << "docker does not know the flag --bogus (it came from container.extraArgs or the GPU flags: "
               "container.gpuFlags, --gpu-flags)"
            << true;
        QTest::newRow("docker: no GPU runtime")
            << "docker" << 125
            << "docker: Error response from daemon: could not select device driver \"\" with capabilities: "
               "[[gpu]].\n"
            << "no GPU runtime: docker has no driver for --gpus (install the NVIDIA Container Toolkit and "
               "configure it: nvidia-ctk runtime configure --runtime=docker)"
            << true;
        QTest::newRow("docker: CDI device")
            << "docker" << 125
            << "docker: Error response from daemon: error gathering device information while adding custom "
               "device \"nvidia.com/gpu=all\": no such file or directory.\n"
            << "no GPU runtime: docker cannot add the device \"nvidia.com/gpu=all\": no such file or "
               "directory; "
               "generate the CDI specification (nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml), or "
               "use "
               "--gpus all"
            << true;
        QTest::newRow("the workload's own exit code") << "podman" << 3 << "Error: unknown flag: --x\n"
                                                      << "" << false;
        QTest::newRow("125 without an engine line") << "podman" << 125 << "training step 1\n"
                                                    << "" << false;
    }
    void causes() {
        QFETCH(QString, engine);
        QFETCH(int, exitCode);
        QFETCH(QString, output);
        QFETCH(QString, cause);
        QFETCH(bool, everyJob);
        const EngineFailure f =
            diagnoseEngineFailure(engine.toStdString(), exitCode, output.toStdString(), "localhost/nope:1");
        QCOMPARE(QString::fromStdString(f.cause), cause);
        QCOMPARE(f.everyJob, everyJob);
    }
};

QTEST_APPLESS_MAIN(TestEngineFailure)
#include "tst_enginefailure.moc"
