// ContainerPrivilege: which podman/docker run options a plan may not pass because they grant the container
// privilege over the host, in every spelling the engines accept (--flag=value, --flag value, -v value,
// -vvalue), which are fine (GPUs, RDMA, shared memory, limits), and which host paths may not be mounted.
// Expected word indices are counted by hand from each row's words.
#include "plan/ContainerPrivilege.h"

#include <QtTest>

using namespace cnp::plan;

class TestContainerPrivilege : public QObject {
    Q_OBJECT

private slots:
    void flags_data() {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QList<int>>("refused"); // indices of the refused flags' words
        QTest::newRow("--privileged") << QStringList{"--shm-size=8g", "--privileged"} << QList<int>{1};
        QTest::newRow("--privileged=true") << QStringList{"--privileged=true"} << QList<int>{0};
        QTest::newRow("--cap-add=ALL") << QStringList{"--cap-add=ALL"} << QList<int>{0};
        QTest::newRow("--cap-add SYS_ADMIN, value in the next word")
            << QStringList{"--cap-add", "SYS_ADMIN", "--ulimit", "nofile=1:1"} << QList<int>{0};
        QTest::newRow("--cap-add cap_sys_ptrace") << QStringList{"--cap-add=cap_sys_ptrace"} << QList<int>{0};
        QTest::newRow("--cap-add IPC_LOCK and SYS_NICE are fine")
            << QStringList{"--cap-add", "IPC_LOCK", "--cap-add=CAP_SYS_NICE"} << QList<int>{};
        QTest::newRow("seccomp=unconfined")
            << QStringList{"--security-opt", "seccomp=unconfined"} << QList<int>{0};
        QTest::newRow("apparmor=unconfined")
            << QStringList{"--security-opt=apparmor=unconfined"} << QList<int>{0};
        QTest::newRow("label=disable") << QStringList{"--security-opt", "label=disable"} << QList<int>{0};
        QTest::newRow("no-new-privileges is fine")
            << QStringList{"--security-opt", "no-new-privileges"} << QList<int>{};
        QTest::newRow("--pid=host") << QStringList{"--pid=host"} << QList<int>{0};
        QTest::newRow("--pid host") << QStringList{"--network", "none", "--pid", "host"} << QList<int>{2};
        QTest::newRow("--userns=host") << QStringList{"--userns=host"} << QList<int>{0};
        QTest::newRow("--pids-limit is not --pid") << QStringList{"--pids-limit=100"} << QList<int>{};
        QTest::newRow("--device=/dev/mem") << QStringList{"--device=/dev/mem"} << QList<int>{0};
        QTest::newRow("--device /dev/sda")
            << QStringList{"--device", "/dev/sda:/dev/xvda:rwm"} << QList<int>{0};
        QTest::newRow("GPU and RDMA devices are fine")
            << QStringList{"--device", "nvidia.com/gpu=all", "--device=/dev/infiniband/uverbs0",
                           "--device=/dev/nvidia0"}
            << QList<int>{};
        QTest::newRow("--device-cgroup-rule")
            << QStringList{"--device-cgroup-rule", "a *:* rwm"} << QList<int>{0};
        QTest::newRow("-v /:/host") << QStringList{"-v", "/:/host"} << QList<int>{0};
        QTest::newRow("-v=/:/host:ro") << QStringList{"-v=/:/host:ro"} << QList<int>{0};
        QTest::newRow("-v/:/host") << QStringList{"-v/:/host"} << QList<int>{0};
        QTest::newRow("--volume //:/h") << QStringList{"--volume=//:/h"} << QList<int>{0};
        QTest::newRow("docker socket") << QStringList{"-v", "/var/run/docker.sock:/s"} << QList<int>{0};
        QTest::newRow("--mount of the root")
            << QStringList{"--mount", "type=bind,source=/,target=/host"} << QList<int>{0};
        QTest::newRow("data folders and named volumes are fine")
            << QStringList{"-v",      "/data/sets:/data:ro",
                           "-v",      "cache:/cache",
                           "--mount", "type=bind,src=/scratch,dst=/scratch"}
            << QList<int>{};
        QTest::newRow("--rootfs /") << QStringList{"--rootfs", "/"} << QList<int>{0};
        QTest::newRow("GPU flags and the rest are fine")
            << QStringList{"--gpus",     "all", "--ipc=host",    "--network=host",
                           "--shm-size", "16g", "--cap-drop=ALL"}
            << QList<int>{};
    }
    void flags() {
        QFETCH(QStringList, words);
        QFETCH(QList<int>, refused);
        std::vector<std::string> w;
        for (const auto& s : words)
            w.push_back(s.toStdString());
        QList<int> got;
        QString messages;
        for (const auto& p : privilegeGrantingFlags(w)) {
            got << int(p.word);
            messages += QString::fromStdString(p.message) + "\n";
            QVERIFY(!p.message.empty());
        }
        QVERIFY2(got == refused, qPrintable(messages));
    }

    void hostPaths_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("refused");
        QTest::newRow("root") << "/" << true;
        QTest::newRow("root, spelt //") << "//" << true;
        QTest::newRow("root, spelt /./") << "/./" << true;
        QTest::newRow("root via ..") << "/data/.." << true;
        QTest::newRow("/etc") << "/etc" << true;
        QTest::newRow("under /proc") << "/proc/1/root" << true;
        QTest::newRow("/var/lib/containers") << "/var/lib/containers/storage" << true;
        QTest::newRow("podman socket") << "/home/u/podman.sock" << true;
        QTest::newRow("a data folder") << "/data/sets" << false;
        QTest::newRow("/etcetera is not /etc") << "/etcetera" << false;
        QTest::newRow("a named volume") << "cache" << false;
    }
    void hostPaths() {
        QFETCH(QString, path);
        QFETCH(bool, refused);
        QCOMPARE(!hostPathProblem(path.toStdString()).empty(), refused);
    }
};

QTEST_APPLESS_MAIN(TestContainerPrivilege)
#include "tst_containerprivilege.moc"
