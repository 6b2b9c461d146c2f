// ImageTraceCheck: the probe's output read back, and whether the collector can trace in such an image
// (glibc >= 2.28; a libcupti.so.13, or a libcupti whose version only loading tells). The lines are what
// getconf, ldd and libc.so.6 print on Debian 12, Ubuntu 18.04/22.04, RHEL 8 and Alpine. The script itself
// runs here under this machine's /bin/sh, and in real images in tst_launchpodman imagesThatCannotBeTraced.
#include "launch/ImageTraceCheck.h"

#include <QtTest>

using namespace cnp::launch;

class TestImageTraceCheck : public QObject {
    Q_OBJECT

private slots:
    void probeOutput_data() {
        QTest::addColumn<QString>("output");
        QTest::addColumn<bool>("ran");
        QTest::addColumn<int>("glibcMinor"); // -1: none read
        QTest::addColumn<int>("cuptiFiles");
        QTest::addColumn<QString>("why"); // start of untraceableReason; "" = traceable
        const QString cupti13 = "cupti: /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13\n";
        QTest::newRow("getconf, Debian 12, CUDA 13") << "libc: glibc 2.36\n" + cupti13 + "end\n"
                                                     << true << 36 << 1 << "";
        QTest::newRow("ldd, Ubuntu 22.04, torch cu13 wheel")
            << "libc: ldd (Ubuntu GLIBC 2.35-0ubuntu3.8) 2.35\n"
               "cupti: /usr/local/lib/python3.10/dist-packages/nvidia/cu13/lib/libcupti.so.13\nend\n"
            << true << 35 << 1 << "";
        QTest::newRow("libc.so.6 run, RHEL 8 (2.28: the floor)")
            << "libc: GNU C Library (GNU libc) stable release version 2.28.\n" + cupti13 + "end\n"
            << true << 28 << 1 << "";
        QTest::newRow("Ubuntu 18.04: glibc 2.27")
            << "libc: ldd (Ubuntu GLIBC 2.27-3ubuntu1.6) 2.27\n" + cupti13 + "end\n"
            << true << 27 << 1 << "glibc 2.27 is older than the 2.28 the collector needs";
        QTest::newRow("Alpine: musl") << "libc: musl libc (x86_64)\n" + cupti13 + "end\n"
                                      << true << -1 << 1 << "its C library is musl";
        QTest::newRow("CUDA 12.8 image: only libcupti.so.12")
            << "libc: glibc 2.35\ncupti: /usr/local/cuda-12.8/extras/CUPTI/lib64/libcupti.so.12\n"
               "cupti: /usr/local/cuda-12.8/extras/CUPTI/lib64/libcupti.so.12.8.90\nend\n"
            << true << 35 << 2
            << "its only CUPTI is /usr/local/cuda-12.8/extras/CUPTI/lib64/libcupti.so.12, "
               "/usr/local/cuda-12.8/extras/CUPTI/lib64/libcupti.so.12.8.90, another CUDA than the 13";
        QTest::newRow("12 and 13 side by side")
            << "libc: glibc 2.35\ncupti: /a/libcupti.so.12\n" + cupti13 + "end\n"
            << true << 35 << 2 << "";
        QTest::newRow("only an unversioned libcupti.so: the collector decides")
            << "libc: glibc 2.31\ncupti: /opt/x/libcupti.so\nend\n"
            << true << 31 << 1 << "";
        QTest::newRow("no CUPTI") << "libc: glibc 2.36\nend\n"
                                  << true << 36 << 0 << "no libcupti found in the image";
        QTest::newRow("libc unknown, CUPTI 13: not refused") << "libc: \n" + cupti13 + "end\n"
                                                             << true << -1 << 1 << "";
        QTest::newRow("cut short: not run") << "libc: glibc 2.36\n" << false << 36 << 0 << "no libcupti";
        QTest::newRow("hostile: escape sequences in a file name, five CUDA 12 files")
            << "libc: glibc 2.35\ncupti: /a/\x1b[2Jlibcupti.so.12\ncupti: /b/libcupti.so.12\ncupti: "
               "/c/libcupti.so.12\n"
               "cupti: /d/libcupti.so.12\ncupti: /e/libcupti.so.12\nend\n"
            << true << 35 << 5
            << "its only CUPTI is /a/?[2Jlibcupti.so.12, /b/libcupti.so.12, /c/libcupti.so.12 and 2 more, "
               "another CUDA";
        QTest::newRow("hostile: glibc 3.1 is not 2.x, CRLF lines")
            << "libc: glibc 3.1\r\ncupti: /x/libcupti.so.13\r\nend\r\n"
            << true << -1 << 1 << "";
    }
    void probeOutput() {
        QFETCH(QString, output);
        QFETCH(bool, ran);
        QFETCH(int, glibcMinor);
        QFETCH(int, cuptiFiles);
        QFETCH(QString, why);
        const TraceProbe p = parseTraceProbe(output.toStdString());
        QCOMPARE(p.ran, ran);
        QCOMPARE(p.glibcMinor.value_or(-1), glibcMinor);
        QCOMPARE(static_cast<int>(p.cupti.size()), cuptiFiles);
        const QString reason = QString::fromStdString(untraceableReason(p));
        QVERIFY2(why.isEmpty() ? reason.isEmpty() : reason.startsWith(why), qPrintable(reason));
    }

    // The script under this machine's /bin/sh with only getconf on PATH (no find: its folder globs; a find
    // over this whole machine takes seconds): it names this machine's glibc and ends; every libcupti it
    // prints exists. With find it runs in tst_launchpodman's images.
    void scriptRunsHere() {
        QTemporaryDir bin;
        QVERIFY(QFile::link(QStandardPaths::findExecutable("getconf"), bin.path() + "/getconf"));
        QProcess sh;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", bin.path());
        sh.setProcessEnvironment(env);
        sh.start("/bin/sh", {"-c", QString::fromStdString(traceProbeScript())});
        QVERIFY(sh.waitForFinished(120000));
        QCOMPARE(sh.exitCode(), 0);
        const TraceProbe p = parseTraceProbe(sh.readAllStandardOutput().toStdString());
        QVERIFY(p.ran);
        QProcess getconf;
        getconf.start("getconf", {"GNU_LIBC_VERSION"});
        QVERIFY(getconf.waitForFinished());
        const QString expected =
            QString::fromUtf8(getconf.readAllStandardOutput()).trimmed().section('.', 1, 1);
        QCOMPARE(p.glibcMinor.value_or(-1), expected.toInt());
        for (const auto& f : p.cupti)
            QVERIFY2(QFileInfo::exists(QString::fromStdString(f)), f.c_str());
    }
};

QTEST_GUILESS_MAIN(TestImageTraceCheck)
#include "tst_imagetracecheck.moc"
