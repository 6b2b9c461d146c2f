#pragma once
// The tiny image the container launcher tests run (tst_launchpodman, tst_launchdocker): no registry is
// reachable here, so it is a rootfs tar built on the spot — busybox-static and a few of its applets, the
// collector_harness stand-in workload with every library `ldd` lists for it and for the collector (at the
// same absolute paths), and the fake CUPTI at /opt/fake/libcupti.so.13. The collector itself is not in it:
// the backends mount it read-only at /opt/cnp/lib. `podman import` / `docker import` turn the tar into an
// image (a few tenths of a second).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace cnp::testing {

// Writes the podman configuration these machines need (../shared/design/containers.md: runc, not crun;
// explicit ulimits, as root lacks CAP_SYS_RESOURCE) to `path`, for CONTAINERS_CONF. False when it cannot.
inline bool writePodmanConf(const QString& path) {
    QFile c(path);
    if (!c.open(QIODevice::WriteOnly))
        return false;
    c.write("[containers]\ndefault_ulimits = [\"nofile=20000:20000\", \"nproc=32768:32768\"]\n"
            "[engine]\nruntime = \"runc\"\n");
    return true;
}

// Copies `file` to `root` + `dest` (executable) and every library `ldd` lists for it into `root` at the
// same absolute paths. False when a copy fails.
inline bool copyWithLibraries(const QString& file, const QString& root, const QString& dest) {
    QProcess ldd;
    ldd.start("ldd", {file});
    ldd.waitForFinished();
    QStringList paths;
    for (const auto& line : QString::fromUtf8(ldd.readAllStandardOutput()).split('\n')) {
        const auto m = QRegularExpression(R"((/\S+) \(0x)").match(line);
        if (m.hasMatch())
            paths << m.captured(1);
    }
    for (const auto& lib : paths) {
        QDir().mkpath(root + QFileInfo(lib).absolutePath());
        if (!QFile::exists(root + lib) && !QFile::copy(QFileInfo(lib).canonicalFilePath(), root + lib))
            return false;
    }
    QDir().mkpath(root + QFileInfo(dest).absolutePath());
    return QFile::copy(file, root + dest) &&
           QFile(root + dest)
               .setPermissions(QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadOther |
                               QFileDevice::ExeOther);
}

// Builds the rootfs under `workDir`/rootfs and tars it to `workDir`/image.tar. Returns the tar's path, or
// an empty string with `why` set when a step fails.
inline QString buildTestImageTar(const QString& workDir, const QString& harness, const QString& collector,
                                 const QString& fakeCupti, QString& why) {
    const QString root = workDir + "/rootfs";
    QDir().mkpath(root + "/bin");
    if (!QFile::copy("/bin/busybox", root + "/bin/busybox")) {
        why = "cannot copy /bin/busybox (busybox-static)";
        return {};
    }
    for (const char* tool : {"sh", "touch", "env", "echo", "cat", "ls", "sleep"})
        QFile::link("busybox", root + "/bin/" + tool);
    if (!copyWithLibraries(harness, root, "/opt/harness/collector_harness") ||
        !copyWithLibraries(collector, root, "/opt/unused/libcnp-collector.so")) {
        why = "cannot copy the harness or the collector's libraries";
        return {};
    }
    QDir().mkpath(root + "/opt/fake");
    if (!QFile::copy(fakeCupti, root + "/opt/fake/libcupti.so.13")) {
        why = "cannot copy the fake CUPTI";
        return {};
    }
    const QString tarPath = workDir + "/image.tar";
    QProcess tar;
    tar.start("tar", {"-cf", tarPath, "-C", root, "."});
    if (!tar.waitForFinished() || tar.exitCode() != 0) {
        why = "tar failed: " + QString::fromUtf8(tar.readAllStandardError());
        return {};
    }
    return tarPath;
}

} // namespace cnp::testing
